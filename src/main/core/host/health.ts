/** Doctor-style health lines about the host's parts, for the support bundle. Never a secret: only states and words. */
import type { Environment, Settings, SyncStatus } from '../../../shared/ipc';
import type { TokenStatus } from '../auth';
import type { VaultHealth } from '../auth/vault';
import type { HealthLine } from '../support';
import type { ClockJudgement } from '../time/service-clock';

export interface HostFacts {
  readonly dataDir: string;
  readonly environment: Environment;
  readonly settings: Settings;
  readonly settingsProblem: string | null;
  readonly pin: { readonly set: boolean; readonly problem: string | null; readonly lockedUntil: number | null };
  readonly keychain: VaultHealth;
  /** Why the engine is not running, or null when it is. */
  readonly engineProblem: string | null;
  readonly engineHealth: { dataFile: string; integrity: string; schemaVersion: number } | null;
  readonly status: SyncStatus | null;
  readonly tokens: TokenStatus | null;
  /** What the clock's witnesses say (token issued_at, the service's Date); absent: the token's word alone. */
  readonly clock?: ClockJudgement | null;
  readonly now: number;
}

/** One line per part: data folder, settings, PIN, addresses, keychain, data file, credentials, queue, network. */
export function hostHealth(f: HostFacts): HealthLine[] {
  const lines: HealthLine[] = [{ name: 'data folder', ok: true, message: f.dataDir }];
  lines.push({ name: 'settings', ok: f.settingsProblem === null, message: f.settingsProblem ?? 'settings.json reads fine' });
  lines.push({
    name: 'manager PIN',
    ok: f.pin.problem === null && f.pin.set,
    message:
      f.pin.problem ??
      (!f.pin.set
        ? 'No manager PIN is set: settings, credentials and discarding taps cannot be used until one is set.'
        : f.pin.lockedUntil !== null && f.pin.lockedUntil > f.now
          ? `PIN entry is locked until ${new Date(f.pin.lockedUntil).toISOString()} after wrong PINs.`
          : 'set'),
  });
  const addresses = f.settings.authUrl && f.settings.baseUrl;
  lines.push({
    name: 'environment',
    ok: Boolean(addresses),
    message: addresses
      ? `${f.environment}: token server ${f.settings.authUrl}, order service ${f.settings.baseUrl}`
      : `${f.environment}: no service addresses saved; a manager must enter them in settings.`,
  });
  lines.push({ name: 'keychain', ok: f.keychain.ok, message: f.keychain.message });
  if (f.engineProblem !== null || f.engineHealth === null) {
    lines.push({ name: 'engine', ok: false, message: f.engineProblem ?? 'not running' });
  } else {
    lines.push({
      name: 'data file',
      ok: f.engineHealth.integrity === 'ok',
      message: `${f.engineHealth.dataFile} (schema ${f.engineHealth.schemaVersion}): ${f.engineHealth.integrity}`,
    });
  }
  if (f.tokens) {
    const skew = f.tokens.clockSkewMs;
    lines.push({
      name: 'credentials',
      ok: f.tokens.credentials === 'ok' || f.tokens.credentials === 'unknown',
      message: `${f.tokens.credentials}${f.tokens.hasToken ? ', token held' : ', no token yet'}${f.tokens.lastProblem ? `; last problem: ${f.tokens.lastProblem.message}` : ''}`,
    });
    lines.push(clockLine(f.clock ?? null, skew));
  }
  if (f.status) {
    lines.push({
      name: 'queue',
      ok: !f.status.backlogAlarm && f.status.failed === 0 && f.status.toCheck === 0,
      message: `${f.status.waiting} waiting, ${f.status.failed} failed, ${f.status.toCheck} to check${f.status.backlogAlarm ? ', BACKLOG: taps have waited too long' : ''}${
        f.status.oldestWaitingAt ? `, oldest since ${new Date(f.status.oldestWaitingAt).toISOString()}` : ''
      }`,
    });
    lines.push({
      name: 'order service',
      ok: f.status.connectivity !== 'offline',
      message: `${f.status.connectivity}${f.status.lastSuccessAt ? `, last success ${new Date(f.status.lastSuccessAt).toISOString()}` : ''}${
        f.status.message ? `; ${f.status.message}` : ''
      }`,
    });
  }
  return lines;
}

/** The clock's line: the witnesses' disagreement first (support must act on it), else the difference followed. */
function clockLine(clock: ClockJudgement | null, tokenSkew: number | null): HealthLine {
  if (clock?.disagreementMs != null)
    return {
      name: 'clock',
      ok: false,
      message: `the token server's clock and the order service's disagree by ${Math.round(Math.abs(clock.disagreementMs) / 1000)} s; intake reads windows that cover both`,
    };
  const skew = clock ? clock.skewMs : tokenSkew;
  return {
    name: 'clock',
    ok: skew === null || Math.abs(skew) < 5 * 60_000,
    message: skew === null ? 'not measured yet' : `this terminal's clock is ${Math.round(skew / 1000)} s off the order service's`,
  };
}
