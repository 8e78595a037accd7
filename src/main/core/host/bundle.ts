/** `support.exportBundle`: gathers the host's facts into a support bundle folder. */
import { join } from 'node:path';
import type { HubStatus } from '../../../shared/hub';
import { type ChainStatus, chainLine, chainOk } from '../../../shared/chain';
import type { AppInfo, Settings } from '../../../shared/ipc';
import { ok, type Result } from '../../../shared/result';
import type { Engine } from '../engine';
import type { Logger } from '../log';
import type { PinStore } from '../pin';
import { hubLine, hubOk } from '../hub/status-line';
import { writeSupportBundle } from '../support';
import { readUpdateStatus, UPDATE_STATUS_FILE, updateHealth } from '../update';
import { hostHealth } from './health';
import type { KeychainWatch } from './credentials';
import type { Runtime } from './runtime';

export interface BundleDeps {
  readonly dataDir: string;
  readonly runtime: Runtime;
  readonly keychain: KeychainWatch;
  readonly settings: () => Settings;
  readonly settingsProblem: string | null;
  readonly pins: PinStore | null;
  readonly pinProblem: string | null;
  readonly info: () => AppInfo;
  readonly logFiles: () => string[];
  readonly log: Logger;
  readonly now: () => number;
  /** The store hub as this counter sees it (absent: not asked). */
  readonly hub?: () => HubStatus;
  /** The store's link to the chain (absent: not asked); never its credentials. */
  readonly chain?: () => Promise<ChainStatus>;
}

/** Writes the bundle and returns its folder. */
export async function exportSupportBundle(deps: BundleDeps): Promise<Result<{ path: string }>> {
  await deps.keychain.settled(5_000);
  const engine = deps.runtime.engine();
  const status = engine ? engine.status() : null;
  let engineHealth: ReturnType<Engine['health']> | null = null;
  try {
    engineHealth = engine ? engine.health() : null;
  } catch (err) {
    // A damaged data file is exactly when support needs the rest of the bundle.
    deps.log.warn('engine health could not be read for the bundle', { error: err });
  }
  const settings = deps.settings();
  const now = deps.now();
  const health = hostHealth({
    dataDir: deps.dataDir,
    environment: settings.environment,
    settings,
    settingsProblem: deps.settingsProblem,
    pin: { set: deps.pins?.isSet() ?? false, problem: deps.pinProblem, lockedUntil: deps.pins?.lockedUntil() ?? null },
    keychain: deps.keychain.current(),
    engineProblem: deps.runtime.problem(),
    engineHealth,
    status,
    tokens: deps.runtime.service()?.tokens.status() ?? null,
    clock: deps.runtime.service()?.clock.judgement() ?? null,
    now,
  });
  // The updater's last saved status, as `packdesk doctor` shows it.
  const update = updateHealth(readUpdateStatus(join(deps.dataDir, UPDATE_STATUS_FILE)), now);
  health.push({ name: 'updates', ok: update.ok, message: update.fix ? `${update.detail} -> ${update.fix}` : update.detail });
  const hub = deps.hub?.() ?? null;
  // The same words as `packdesk doctor`'s hub line.
  if (hub) health.push({ name: 'hub', ok: hubOk(hub), message: hubLine(hub) });
  // The same words as `packdesk doctor`'s chain line; only when this PC takes part in a hub.
  const chain = hub && hub.role !== 'none' ? await deps.chain?.().catch(() => null) : null;
  if (chain) health.push({ name: 'chain', ok: chainOk(chain), message: chainLine(chain) });
  deps.log.info('support bundle requested');
  const written = writeSupportBundle({
    dir: join(deps.dataDir, 'support'),
    now,
    info: deps.info(),
    settings,
    health,
    outbox: engine ? engine.listOutbox({ includeDone: true }) : null,
    status,
    hub,
    logFiles: deps.logFiles(),
  });
  if (!written.ok) return written;
  deps.log.info('support bundle written', { path: written.value });
  return ok({ path: written.value });
}
