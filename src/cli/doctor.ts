/** `packdesk doctor`: one line per check, ok or problem, and what to do about a problem. */
import type { OrderServiceClient } from '../main/core/api';
import { CERTIFICATE_UNTRUSTED } from '../main/core/api/http';
import { CLOCK_SKEW_LIMIT_MS, type CredentialVault, type TokenManager } from '../main/core/auth';
import type { Engine } from '../main/core/engine';
import fs from 'node:fs';
import path from 'node:path';
import { settingsFileProblem } from '../main/core/settings';
import type { AccessReport, Intake } from '../main/core/intake';
import type { IntakeStatus } from '../shared/ipc';
import type { ServiceClock } from '../main/core/time/service-clock';
import { readUpdateStatus, UPDATE_STATUS_FILE, updateHealth } from '../main/core/update';
import { printableId } from '../shared/protocol/orderId';
import { counterIdOf, loadHubConfig } from '../main/core/hub/hub-config';
import { type HubSecretStore, keychainHubSecrets } from '../main/core/hub/server';
import { readHubStatus } from '../main/core/hub/read-status';
import { visitHub } from '../main/core/hub/snapshot';
import { hubLine, hubOk } from '../main/core/hub/status-line';
import { type ChainStatus, chainLine, chainOk, NO_CHAIN } from '../shared/chain';
import { readChainLink } from '../main/core/hub/chain/link';
import { readChainState } from '../main/core/hub/chain/shared-state';
import { hubFiles } from '../main/core/hub/server/hub-files';
import type { HubStatus } from '../shared/hub';
import type { CliConfig, Env } from './config';
import { hubServerHealth } from './hub';

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  /** What to do, for a problem. */
  readonly fix?: string;
}

export interface DoctorParts {
  readonly config: CliConfig;
  readonly engine: Engine | null;
  /** Why the engine could not be opened, when it could not. */
  readonly engineProblem: string | null;
  readonly vault: CredentialVault;
  readonly tokens: TokenManager | null;
  readonly client: OrderServiceClient | null;
  readonly intake?: Intake | null;
  /** The clock's witnesses (the token's issued_at, the order service's Date); absent: the token's word alone. */
  readonly clock?: ServiceClock | null;
  /** The clock for ages (default Date.now). */
  readonly now?: () => number;
}

// Below this, SQLite may not find room for the write-ahead log of the next commit.
const MIN_FREE_BYTES = 2 * 1024 * 1024;

/**
 * Why the data file cannot take writes, or null: the engine ran into it (disk full, read-only), or
 * the disk holding it is (nearly) full. A storage problem, never reported as the network.
 */
function storageTrouble(dataDir: string, engine: Engine | null): string | null {
  const storage = engine?.storage() ?? null;
  if (storage) return storage.message;
  try {
    const st = fs.statfsSync(dataDir);
    const free = st.bavail * st.bsize;
    if (free < MIN_FREE_BYTES)
      return `only ${Math.floor(free / 1024)} KB free on the disk holding it: answers from the order service cannot be recorded`;
  } catch {
    // No folder yet, or no statfs here: the open above already says what is wrong.
  }
  return null;
}

/** Runs every check in turn; never throws. */
export async function runDoctor(parts: DoctorParts): Promise<Check[]> {
  const checks: Check[] = [];
  const { engine, config } = parts;

  if (!engine) {
    checks.push({ name: 'data file', ok: false, detail: parts.engineProblem ?? 'cannot be opened', fix: 'check the data folder and the disk; call support with the folder' });
    checks.push({ name: 'integrity', ok: false, detail: 'not checked: the data file cannot be opened', fix: 'fix the data file first' });
  } else {
    const health = engine.health();
    const trouble = storageTrouble(config.dataDir, engine);
    checks.push(
      trouble
        ? { name: 'data file', ok: false, detail: `${health.dataFile} (schema ${health.schemaVersion}): ${trouble}`, fix: 'free disk space, then run `packdesk drain --until-empty`' }
        : { name: 'data file', ok: true, detail: `${health.dataFile} (schema ${health.schemaVersion})` },
    );
    checks.push(
      health.integrity === 'ok'
        ? { name: 'integrity', ok: true, detail: 'integrity check passed' }
        : { name: 'integrity', ok: false, detail: health.integrity, fix: 'keep the set-aside file for support; do not delete it until they have it' },
    );
  }

  try {
    const vault = await parts.vault.health();
    checks.push(
      vault.ok
        ? { name: 'keychain', ok: true, detail: vault.message }
        : { name: 'keychain', ok: false, detail: vault.message, fix: config.credentialsFrom === 'environment' ? 'set both PACKDESK_CLIENT_ID and PACKDESK_CLIENT_SECRET' : 'install and unlock the OS keychain (gnome-keyring on Linux)' },
    );
  } catch (e) {
    checks.push({ name: 'keychain', ok: false, detail: e instanceof Error ? e.message : String(e), fix: 'install and unlock the OS keychain' });
  }

  if (!parts.tokens || !config.authUrl) {
    checks.push({ name: 'token server', ok: false, detail: 'no token server address', fix: 'set PACKDESK_AUTH_URL or --auth-url' });
  } else {
    const token = await parts.tokens.authorization();
    if (token.ok) checks.push({ name: 'token server', ok: true, detail: `${config.authUrl} issued a token` });
    else
      checks.push({
        name: 'token server',
        ok: false,
        detail: token.problem.message,
        fix:
          token.problem.code === CERTIFICATE_UNTRUSTED
            ? "check the token server address; if it is right, its certificate (or the store network's https inspection) must be fixed; the network is fine"
            : token.problem.kind === 'auth'
              ? 'a manager must enter the client id and secret from the e-mail'
              : 'check the network and the token server address',
      });
  }

  if (!parts.client || !config.baseUrl) {
    checks.push({ name: 'order service', ok: false, detail: 'no order service address', fix: 'set PACKDESK_BASE_URL or --base-url' });
  } else {
    const failure = await parts.client.reach();
    checks.push(
      failure === null
        ? { name: 'order service', ok: true, detail: `${config.baseUrl} answers` }
        : failure.cause === 'certificate'
          ? { name: 'order service', ok: false, detail: failure.message, fix: "check the order service address; if it is right, its certificate (or the store network's https inspection) must be fixed; the network is fine" }
          : { name: 'order service', ok: false, detail: `${config.baseUrl} cannot be reached`, fix: 'check the network, then the order service address' },
    );
  }

  checks.push(clockCheck(parts));

  checks.push(await intakeCheck(parts));

  if (engine) checks.push(setAsideCheck(engine));
  const twice = engine ? packedTwiceCheck(engine, counterIdOf(config.terminalId)) : null;
  if (twice) checks.push(twice);

  if (engine) {
    const s = engine.status();
    const problems: string[] = [];
    if (s.backlogAlarm) problems.push(`backlog alarm: the oldest tap has waited since ${new Date(s.oldestWaitingAt ?? 0).toISOString()}`);
    if (s.failed > 0) problems.push(`${s.failed} tap(s) failed and hold their orders`);
    if (s.toCheck > 0) problems.push(`${s.toCheck} tap(s) may already be applied: check those orders`);
    const detail = `${s.waiting} waiting, ${s.failed} failed, ${s.toCheck} to check${problems.length ? `; ${problems.join('; ')}` : ''}`;
    checks.push(
      problems.length === 0
        ? { name: 'queue health', ok: true, detail }
        : { name: 'queue health', ok: false, detail, fix: s.failed + s.toCheck > 0 ? 'look at `packdesk outbox`; retry or discard the failed taps' : 'check the connection; run `packdesk drain --until-empty`' },
    );
  } else {
    checks.push({ name: 'queue health', ok: false, detail: 'not checked: the data file cannot be opened', fix: 'fix the data file first' });
  }
  // The app's updater, as it last saved its status (the words the manager reads in settings).
  const update = updateHealth(readUpdateStatus(path.join(config.folder, UPDATE_STATUS_FILE)), (parts.now ?? Date.now)());
  checks.push({ name: 'updates', ok: update.ok, detail: update.detail, ...(update.fix ? { fix: update.fix } : {}) });

  // The app's settings in the same folder: one rebuilt from a damaged file may not be what a manager chose.
  const settingsFile = path.join(config.folder, 'settings.json');
  const settings = settingsFileProblem(settingsFile);
  const folderOpens = ((): boolean => {
    try {
      return fs.statSync(config.folder).isDirectory();
    } catch {
      return true; // no folder yet: no settings either, which is fine
    }
  })();
  checks.push(
    !folderOpens
      ? { name: 'settings', ok: false, detail: 'not checked: the data folder cannot be opened', fix: 'fix the data file first' }
      : settings === null
      ? { name: 'settings', ok: true, detail: fs.existsSync(settingsFile) ? 'settings.json reads fine' : 'no settings.json (the app has not saved any here)' }
      : { name: 'settings', ok: false, detail: settings, fix: "a manager opens the app's Settings, checks the environment and addresses, and saves" },
  );
  return checks;
}

/** Orders set aside because the service's latest answer for them could not be read (OrderView.unreadable). */
function setAsideCheck(engine: Engine): Check {
  const ids = engine
    .listOrders()
    .filter((o) => o.unreadable)
    .map((o) => printableId(o.id));
  if (ids.length === 0) return { name: 'orders', ok: true, detail: 'every order on the terminal could be read' };
  const named = ids.slice(0, 10).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '');
  return {
    name: 'orders',
    ok: false,
    detail: `${ids.length} order${ids.length === 1 ? '' : 's'} could not be read: ${named}; every other order is listed`,
    fix: "have the marketplace correct the order, then `packdesk fetch ID`; the service's answer is kept in the data file for support",
  };
}

/** Orders packed twice while the counters of a store hub could not see each other, not put right here yet (issue 39); null: none. */
export function packedTwiceCheck(engine: Engine, counterId: string): Check | null {
  const open = [...engine.conflicts.views(counterId)];
  if (open.length === 0) return null;
  const named = open
    .slice(0, 10)
    .map(([id, c]) => `${printableId(id)} (${c.parties.map((p) => p.counterName).join(' and ')}${c.settled ? `: ${c.settled.keeperName} keeps it, items to put back here` : ''})`)
    .join(', ');
  return {
    name: 'packed twice',
    ok: false,
    detail: `${open.length} order${open.length === 1 ? '' : 's'} packed at two counters while they could not see each other: ${named}${open.length > 10 ? ` and ${open.length - 10} more` : ''}`,
    fix: "on the order's red panel at either counter, choose which counter keeps it; the other puts back what it picked and says so there",
  };
}

/** The clock: how far this computer's is from the order service's, and whether its two witnesses agree. */
function clockCheck(parts: DoctorParts): Check {
  const name = 'clock skew';
  const judged = parts.clock?.judgement() ?? null;
  if (judged?.disagreementMs != null) {
    const apart = judged.disagreementMs;
    return {
      name,
      ok: false,
      // Whole minutes: the service's Date has whole seconds, so the seconds would only mislead.
      detail: `the token server's clock is ${Math.round(Math.abs(apart) / 60_000)} min ${apart > 0 ? 'behind' : 'ahead of'} the order service's; countdowns follow the order service, and intake reads windows that cover both`,
      fix: "ask the marketplace to set their token server's clock right; no order is missed meanwhile",
    };
  }
  const skew = parts.clock ? judged?.skewMs ?? null : parts.tokens?.clockSkewMs() ?? null;
  if (skew === null) return { name, ok: false, detail: 'could not be measured: no token with a usable issue time, and no answer from the order service', fix: 'fix the token server and order service checks first' };
  if (Math.abs(skew) > CLOCK_SKEW_LIMIT_MS)
    return {
      name,
      ok: false,
      detail: `this computer's clock is ${Math.round(Math.abs(skew) / 1000)} s ${skew > 0 ? 'ahead of' : 'behind'} the order service`,
      fix: "turn on automatic time in the computer's date settings",
    };
  return { name, ok: true, detail: `${Math.round(skew / 1000)} s against the order service` };
}

/** Order intake: access to `changes` (one tiny request), the last complete pass and how old its cursor is. */
async function intakeCheck(parts: DoctorParts): Promise<Check> {
  const name = 'order intake';
  if (!parts.intake) return { name, ok: false, detail: 'not checked: no order service address or data file', fix: 'fix the checks above first' };
  const s = parts.intake.status();
  const age = s.cursorAt === null ? null : Math.max(0, Math.round(((parts.now ?? Date.now)() - s.cursorAt) / 1000));
  const pass = s.lastCompleteAt === null ? 'no complete pass yet' : `last complete pass ${new Date(s.lastCompleteAt).toISOString()}; cursor ${age} s old`;
  const access = await parts.intake.checkAccess();
  if (access.kind === 'notNow') return lastReadCheck(access, s, pass);
  switch (access.kind) {
    case 'ok':
      // Orders listed but not stored, or pages without end: said until they are, never passed over.
      if (s.stillToFetch > 0 || s.message !== null)
        return { name, ok: false, detail: `access ok; ${pass}; ${s.message ?? `${s.stillToFetch} order(s) still to fetch`}`, fix: 'run `packdesk intake --once --json` to see each one; intake asks for them again by itself' };
      return { name, ok: true, detail: `access ok; ${pass}` };
    case 'notConfigured':
      return { name, ok: false, detail: 'no service provider id', fix: 'set PACKDESK_SERVICE_PROVIDER_ID (the id from the marketplace e-mail)' };
    case 'noAccess':
      return { name, ok: false, detail: `${access.message} (${pass})`, fix: 'ask the marketplace to enable the changes and status calls for these credentials; scanning still works' };
    case 'unreachable':
      return { name, ok: false, detail: `${access.message} (${pass})`, fix: 'check the network, then the order service address' };
    default:
      return { name, ok: false, detail: `${access.message} (${pass})`, fix: 'call support with `packdesk intake --once --verbose`' };
  }
}

/**
 * Order intake when asking `changes` now would be refused (asked moments ago, or a Retry-After not
 * over): the last answer to it, a pass's or a check's, stands for the check.
 */
function lastReadCheck(access: Extract<AccessReport, { kind: 'notNow' }>, s: IntakeStatus, pass: string): Check {
  const name = 'order intake';
  const { last } = access;
  const notAsked = `not asked again now: ${access.message}`;
  if (last === null) return { name, ok: true, detail: `${pass} (${notAsked})` };
  const said = `${notAsked}; the answer ${last.by === 'pass' ? 'of the last pass' : "to doctor's last check"}, ${new Date(last.at).toISOString()}`;
  if (last.ok) {
    if (s.stillToFetch > 0 || s.message !== null)
      return { name, ok: false, detail: `access ok; ${pass}; ${s.message ?? `${s.stillToFetch} order(s) still to fetch`} (${said})`, fix: 'run `packdesk intake --once --json` to see each one; intake asks for them again by itself' };
    return { name, ok: true, detail: `access ok; ${pass} (${said})` };
  }
  const detail = `${last.message ?? `the last pass ended: ${last.kind}`} (${pass}; ${said})`;
  if (access.pausedUntil !== null) return { name, ok: false, detail, fix: 'nothing to do: the order service asked for a pause, and intake asks again by itself after it' };
  switch (last.kind) {
    case 'noAccess':
      return { name, ok: false, detail, fix: 'ask the marketplace to enable the changes and status calls for these credentials; scanning still works' };
    case 'unreachable':
      return { name, ok: false, detail, fix: 'check the network, then the order service address; intake tries again by itself' };
    case 'storage':
      return { name, ok: false, detail, fix: 'free disk space: nothing read is lost, and intake resumes by itself' };
    case 'auth':
      return { name, ok: false, detail, fix: 'a manager must enter the client id and secret from the e-mail' };
    default:
      return { name, ok: false, detail, fix: 'call support with `packdesk intake --once --verbose`' };
  }
}

/** One line per check. */
export function formatChecks(checks: readonly Check[]): string {
  return checks.map((c) => `${(c.ok ? 'ok' : 'problem').padEnd(8)} ${c.name.padEnd(14)} ${c.detail}${c.fix ? ` -> ${c.fix}` : ''}`).join('\n') + '\n';
}

/** The store hub as a one-off command sees it: role, connected or why not, the hub program, who takes in orders, counters there. */
export async function lookAtHub(config: CliConfig, env: Env, secrets: HubSecretStore = keychainHubSecrets({ environment: config.environment }), now: () => number = Date.now): Promise<HubStatus> {
  const solo: HubStatus = { mode: 'solo', role: 'none', counterId: null, counterName: null, since: null, intakeHolder: null, counters: [], server: null, problem: null };
  const read = loadHubConfig(config.dataDir);
  if (!read.ok) return { ...solo, problem: read.message };
  const hub = read.config;
  if (!hub) return solo;
  const server = hub.role === 'hub' ? await hubServerHealth(config.dataDir, hub, env) : null;
  const visit = await visitHub(hub, secrets, 'doctor', (c) =>
    // A hub no counter has run yet has no lease or presence to read: connected, nobody there.
    readHubStatus(c.nc, hub, now).catch(() => ({ intakeHolder: null, counters: [] })),
  );
  const base = { role: hub.role, counterId: hub.counterId, counterName: hub.counterName, since: hub.since, server };
  return visit.ok
    ? { ...base, mode: 'connected', intakeHolder: visit.value.intakeHolder, counters: [...visit.value.counters], problem: null }
    : { ...base, mode: 'away', intakeHolder: null, counters: [], problem: visit.problem.message };
}

/** The store's link to the chain as the hub says it (the hub PC puts it there while Packdesk runs it); null: no hub here. */
export async function lookAtChain(config: CliConfig, secrets: HubSecretStore = keychainHubSecrets({ environment: config.environment })): Promise<ChainStatus | null> {
  const read = loadHubConfig(config.dataDir);
  if (!read.ok || !read.config) return null;
  const hub = read.config;
  const linked = readChainLink(hubFiles(config.dataDir).dir).link;
  const visit = await visitHub(hub, secrets, 'doctor', (c) => readChainState(c.nc));
  const role = hub.role;
  if (!visit.ok) return { ...NO_CHAIN, role, storeId: linked?.storeId ?? null, problem: `the hub cannot be asked: ${visit.problem.message}` };
  if (visit.value) return { ...visit.value, role };
  // Nothing said yet: a hub PC whose Packdesk has not run since linking, or no chain.
  return linked ? { ...NO_CHAIN, role, storeId: linked.storeId, problem: 'linked in the settings, but the hub has not said how the link stands yet: start Packdesk on the hub PC' } : { ...NO_CHAIN, role };
}

/** Doctor's `chain` line. */
export function chainCheck(status: ChainStatus): Check {
  const detail = chainLine(status);
  if (chainOk(status)) return { name: 'chain', ok: true, detail };
  if (status.state === 'refused' && status.refusedBy === 'credentials') return { name: 'chain', ok: false, detail, fix: "ask the chain for this store's credentials file and link again in Settings -> Chain" };
  if (status.state === 'refused') return { name: 'chain', ok: false, detail, fix: "choose the chain's CA certificate in Settings -> Chain, or ask the chain's support" };
  return { name: 'chain', ok: false, detail, fix: "check the internet link of the hub PC; the store keeps what it sends and catches up by itself" };
}

/** Doctor's `hub` line. */
export function hubCheck(status: HubStatus): Check {
  const detail = hubLine(status);
  if (hubOk(status)) return { name: 'hub', ok: true, detail };
  if (status.role === 'none') return { name: 'hub', ok: false, detail, fix: 'leave the store hub (`packdesk hub leave`) and join it again' };
  if (status.server && !status.server.running) return { name: 'hub', ok: false, detail, fix: 'start Packdesk (or `packdesk run`) on this PC: it runs the store hub' };
  return { name: 'hub', ok: false, detail, fix: 'check that the hub PC is on and runs Packdesk, and the network between them; `packdesk hub status` says more' };
}
