/**
 * This PC's membership of a store hub: making it the hub, joining a hub by its join code, leaving,
 * and the join code again. The app's Settings -> Counters and `packdesk hub` both use these, so
 * the steps are written once. Each answers a Result with words a manager or support understands.
 * A data folder here is the engine's (the one holding packdesk.sqlite): a hub belongs to one
 * environment, so a practice counter never talks to the store's real hub.
 */
import { rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { fail, ok, type Result } from '../../../shared/result';
import { systemTimers } from '../time';
import { connectHub, type HubProblemKind, type HubTarget } from './nats/connection';
import { claimCounterName, forgetCounterName } from './counter-names';
import { clearHubConfig, counterIdOf, type HubConfig, loadHubConfig, saveHubConfig } from './hub-config';
import { formatJoinCode, joinCodeBarcodeSvg, type JoinCodeProblemKind, parseJoinCode } from './join-code';
import { clearOrphan, createHubFiles, hubFiles, newHubSecret, prepareHubServer, systemCommandLine, versionRefusal, type HubSecretStore } from './server';

/** The port a hub listens on unless told otherwise (NATS's own). */
export const DEFAULT_HUB_PORT = 4222;

export interface MembershipPlace {
  /** The engine's data folder (environments/<env>/ in the app). */
  readonly dataDir: string;
  readonly terminalId: string;
  readonly secrets: HubSecretStore;
  /** `PACKDESK_NATS_SERVER`, when set. */
  readonly explicitProgram?: string | undefined;
  /** The installed app's resources folder, when packaged. */
  readonly resourcesPath?: string | undefined;
  /** The PC's network interfaces (tests pass their own). */
  readonly interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
}

/** The join code as text and as a barcode for the join slip. */
export interface JoinCodeShown {
  readonly code: string;
  readonly barcodeSvg: string;
}

/** The address counters reach a hub by: the listen address, or for 0.0.0.0 the PC's first LAN IPv4 address. */
export function reachableAddress(listenHost: string, interfaces: () => NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces): string {
  if (listenHost !== '0.0.0.0' && listenHost !== '') return listenHost;
  for (const list of Object.values(interfaces())) for (const i of list ?? []) if (i.family === 'IPv4' && !i.internal) return i.address;
  return '127.0.0.1';
}

/** HOST:PORT split; a bare host takes the default port. */
export function splitHostPort(text: string): [string, string] {
  const at = text.lastIndexOf(':');
  return at < 0 ? [text, String(DEFAULT_HUB_PORT)] : [text.slice(0, at), text.slice(at + 1)];
}

/** Where a counter reaches the hub, with the store's secret. */
export function targetOf(config: HubConfig, secret: string): HubTarget {
  return { host: config.host, port: config.port, secret, fingerprint: config.fingerprint };
}

/** How this PC reaches its own hub: a hub listening on every interface is reached on 127.0.0.1. */
export function localTargetOf(config: HubConfig, secret: string): HubTarget {
  return config.role === 'hub' && config.listen?.startsWith('0.0.0.0') ? { ...targetOf(config, secret), host: '127.0.0.1' } : targetOf(config, secret);
}

const CODE_PROBLEM: Readonly<Record<JoinCodeProblemKind, string>> = { typo: 'HUB_CODE_TYPO', newer: 'HUB_CODE_NEWER', notACode: 'HUB_CODE_NOT_A_CODE' };
const LINK_PROBLEM: Readonly<Record<HubProblemKind, string>> = {
  wrongSecret: 'HUB_WRONG_SECRET',
  certificate: 'HUB_CERTIFICATE',
  noTls: 'HUB_NO_TLS',
  unreachable: 'HUB_UNREACHABLE',
  other: 'HUB_OTHER',
};

const configProblem = (message: string): Result<never> => fail('permanent', message, 'HUB_CONFIG');

const secretMissing = (): Result<never> =>
  fail('permanent', "The store's secret is missing from the keychain; leave the store hub, then create or join it again.", 'HUB_SECRET_MISSING');

async function keychain<T>(call: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await call());
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return fail('permanent', detail, 'KEYCHAIN', { detail });
  }
}

/** The join code of this PC's hub (or of the hub it joined), as text and barcode. */
export async function joinCodeOf(place: MembershipPlace): Promise<Result<JoinCodeShown>> {
  const read = loadHubConfig(place.dataDir);
  if (!read.ok) return configProblem(read.message);
  if (!read.config) return fail('invalid', 'This counter is not part of a store hub.', 'HUB_NONE');
  const secret = await keychain(() => place.secrets.get());
  if (!secret.ok) return secret;
  if (!secret.value) return secretMissing();
  const code = formatJoinCode(targetOf(read.config, secret.value));
  return ok({ code, barcodeSvg: joinCodeBarcodeSvg(code) });
}

/**
 * Makes this PC the store's hub: a certificate, a new secret (to the keychain), nats-server's
 * configuration; starts it once to prove it works and takes this counter's name, then stops it
 * (the app or `packdesk run` keeps it running). Already the hub on the same address: the same code.
 */
export async function createHub(place: MembershipPlace, request: { readonly listen: string; readonly name: string | null }): Promise<Result<{ config: HubConfig; join: JoinCodeShown; program: string | null; version: string | null }>> {
  const read = loadHubConfig(place.dataDir);
  if (!read.ok) return configProblem(read.message);
  const current = read.config;
  if (current?.role === 'counter')
    return fail('invalid', `This PC is a counter of the store hub at ${current.host}:${current.port}; leave it first.`, 'HUB_IS_COUNTER', { address: `${current.host}:${current.port}` });
  const [listenHost, listenPort] = splitHostPort(request.listen);
  const port = Number(listenPort);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(listenHost) || !Number.isInteger(port) || port < 1 || port > 65_535)
    return fail('invalid', `The hub's address must be an IPv4 address and port, like 0.0.0.0:${DEFAULT_HUB_PORT} (got "${request.listen}").`, 'HUB_LISTEN', { listen: request.listen });
  const host = reachableAddress(listenHost, place.interfaces);
  if (current?.role === 'hub') {
    if (current.listen !== request.listen)
      return fail('invalid', `This PC is already the store hub, listening on ${current.listen}; leave first to make it again elsewhere.`, 'HUB_ALREADY', { listen: current.listen ?? '' });
    const join = await joinCodeOf(place);
    return join.ok ? ok({ config: current, join: join.value, program: null, version: null }) : join;
  }
  const prepared = await prepareHubServer({ dataDir: place.dataDir, listen: request.listen, explicitProgram: place.explicitProgram, resourcesPath: place.resourcesPath });
  if (!prepared.ok) return fail('permanent', prepared.message, 'HUB_PROGRAM', { detail: prepared.message });
  const refusal = versionRefusal(prepared.version, listenHost);
  if (refusal) return fail('permanent', refusal, 'HUB_UNSAFE_VERSION', { version: prepared.version, listen: listenHost });
  const secret = newHubSecret();
  const stored = await keychain(() => place.secrets.set(secret));
  if (!stored.ok) return stored;
  const files = hubFiles(place.dataDir);
  const { fingerprint } = await createHubFiles(files, { listen: request.listen, secret, now: new Date(), ips: [host] });
  const counterId = counterIdOf(place.terminalId);
  // Prove the new hub works before saying so: start it, connect as a counter would, take a name.
  const health = await prepared.supervisor.start();
  let name: string | null = null;
  let problem: string | null = health.problem;
  if (health.running) {
    const joined = await connectHub({ host: listenHost === '0.0.0.0' ? '127.0.0.1' : listenHost, port, secret, fingerprint }, { name: 'packdesk hub create' });
    if (joined.ok) {
      const claimed = await claimCounterName(joined.connection.nc, counterId, request.name ?? 'Counter 1').catch((e: unknown) => ({ ok: false as const, message: String(e) }));
      if (claimed.ok) name = claimed.counterName;
      else problem = claimed.message;
      await joined.connection.close();
    } else problem = joined.problem.message;
  }
  await prepared.supervisor.stop();
  if (name === null) {
    rmSync(files.dir, { recursive: true, force: true });
    await place.secrets.clear().catch(() => undefined);
    return fail('permanent', `The hub could not be started: ${problem ?? 'unknown reason'}`, 'HUB_START', { detail: problem ?? 'unknown reason' });
  }
  const config: HubConfig = { version: 1, role: 'hub', counterId, counterName: name, host, port, fingerprint, listen: request.listen, since: Date.now() };
  saveHubConfig(place.dataDir, config);
  const code = formatJoinCode({ host, port, secret, fingerprint });
  return ok({ config, join: { code, barcodeSvg: joinCodeBarcodeSvg(code) }, program: prepared.program, version: prepared.version });
}

/** Joins the store hub a join code names: connects (certificate pinned, secret checked), takes a name, keeps the secret in the keychain. */
export async function joinHub(place: MembershipPlace, request: { readonly code: string; readonly name: string | null }): Promise<Result<HubConfig>> {
  const read = loadHubConfig(place.dataDir);
  if (!read.ok) return configProblem(read.message);
  if (read.config?.role === 'hub') return fail('invalid', 'This PC is the store hub; a hub cannot join another. Leave first.', 'HUB_IS_HUB');
  const parsed = parseJoinCode(request.code);
  if (!parsed.ok) return fail('invalid', parsed.message, CODE_PROBLEM[parsed.kind]);
  const counterId = counterIdOf(place.terminalId);
  const joined = await connectHub(parsed.code, { name: request.name ?? counterId });
  if (!joined.ok) return fail(joined.problem.kind === 'unreachable' ? 'transient' : 'permanent', joined.problem.message, LINK_PROBLEM[joined.problem.kind]);
  let claimed: Awaited<ReturnType<typeof claimCounterName>>;
  try {
    claimed = await claimCounterName(joined.connection.nc, counterId, request.name);
  } catch {
    claimed = { ok: false, message: 'The hub could not give this counter a name; give it one (for example "Counter 2").' };
  } finally {
    await joined.connection.close();
  }
  if (!claimed.ok) return fail('invalid', claimed.message, 'HUB_NAME', { detail: claimed.message });
  const stored = await keychain(() => place.secrets.set(parsed.code.secret));
  if (!stored.ok) return stored;
  const config: HubConfig = {
    version: 1,
    role: 'counter',
    counterId,
    counterName: claimed.counterName,
    host: parsed.code.host,
    port: parsed.code.port,
    fingerprint: joined.connection.fingerprint,
    listen: null,
    since: Date.now(),
  };
  saveHubConfig(place.dataDir, config);
  return ok(config);
}

/** Leaves the store hub (a hub stops being one: its certificate goes, so an old join code can never reach a hub made again). */
export async function leaveHub(place: MembershipPlace): Promise<Result<{ was: 'hub' | 'counter' | 'none' }>> {
  const read = loadHubConfig(place.dataDir);
  const config = read.ok ? read.config : null;
  const secret = await keychain(() => place.secrets.get());
  if (!secret.ok) return secret;
  if (config?.role === 'counter' && secret.value) {
    // Best effort: free this counter's name; leaving works with the hub away too.
    const joined = await connectHub(targetOf(config, secret.value), { timeoutMs: 3000 });
    if (joined.ok) {
      await forgetCounterName(joined.connection.nc, config.counterId).catch(() => undefined);
      await joined.connection.close();
    }
  }
  if (config?.role === 'hub') {
    const files = hubFiles(place.dataDir);
    await clearOrphan({ pidPath: files.pidPath, configPath: files.configPath, commandLine: systemCommandLine(), timers: systemTimers, graceMs: 5000 });
    rmSync(files.dir, { recursive: true, force: true });
  }
  clearHubConfig(place.dataDir);
  const cleared = await keychain(() => place.secrets.clear());
  if (!cleared.ok) return cleared;
  return ok({ was: config?.role ?? 'none' });
}

/**
 * Ports chosen from below every OS's range for outgoing connections (Linux 32768-60999, Windows
 * and macOS 49152-65535).
 */
export const QUIET_PORTS = { from: 20_000, to: 32_000 } as const;

/**
 * A free TCP port on 127.0.0.1 for a listener started next (a training hub on one PC, the hub's
 * monitoring port). A port the OS picks itself (listen on 0) comes from its range for outgoing
 * connections; released, it can go to the next outgoing connection before nats-server binds it,
 * which then stops with "address already in use". So it is chosen from QUIET_PORTS, and one that
 * will not bind now is passed over.
 */
export async function freeLocalPort(random: () => number = Math.random): Promise<number> {
  for (let tries = 0; tries < 40; tries++) {
    const port = QUIET_PORTS.from + Math.floor(random() * (QUIET_PORTS.to - QUIET_PORTS.from));
    if ((await bindLocal(port)) === port) return port;
  }
  const any = await bindLocal(0);
  if (any === null) throw new Error('no TCP port on 127.0.0.1 will bind');
  return any;
}

/** Binds `port` on 127.0.0.1 (0: any the OS gives) and releases it: the port bound, or null if it would not. */
function bindLocal(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}
