/**
 * `packdesk hub create|join|leave|status`: what a manager does on Settings -> Counters, from a
 * shell. The hub itself runs inside the app (or `packdesk run`); `create` starts nats-server once
 * to prove the new hub works, then stops it.
 */
import os from 'node:os';
import { type HubStatus, HubStatusSchema } from '../shared/hub';
import { connectHub, type HubTarget } from '../main/core/hub/connection';
import { claimCounterName, forgetCounterName } from '../main/core/hub/counter-names';
import { clearHubConfig, counterIdOf, type HubConfig, loadHubConfig, saveHubConfig } from '../main/core/hub/hub-config';
import { formatJoinCode, parseJoinCode } from '../main/core/hub/join-code';
import {
  clearOrphan,
  createHubFiles,
  findNatsServer,
  type HubSecretStore,
  hubFiles,
  keychainHubSecrets,
  newHubSecret,
  prepareHubServer,
  processAlive,
  readNatsVersion,
  type ServerHealth,
  systemCommandLine,
  versionRefusal,
} from '../main/core/hub/server';
import { systemTimers } from '../main/core/time';
import { rmSync, existsSync, readFileSync } from 'node:fs';
import type { CliConfig } from './config';
import type { CliIo } from './main';
import { EXIT } from './usage';

export type HubCommand =
  | { readonly name: 'hub'; readonly action: 'create'; readonly listen: string; readonly counterName: string | null; readonly json: boolean }
  | { readonly name: 'hub'; readonly action: 'join'; readonly code: string; readonly counterName: string | null; readonly json: boolean }
  | { readonly name: 'hub'; readonly action: 'leave' | 'status'; readonly json: boolean };

/** The port the hub listens on unless told otherwise (NATS's own). */
export const DEFAULT_HUB_PORT = 4222;

export interface HubCliDeps {
  readonly secrets?: HubSecretStore;
  /** This PC's network addresses (injected by tests). */
  readonly interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
}

/** The address other counters reach a hub at: the listen address, or this PC's first LAN IPv4 when it listens on all. */
export function reachableAddress(listenHost: string, interfaces: () => NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces): string {
  if (listenHost !== '0.0.0.0' && listenHost !== '') return listenHost;
  for (const list of Object.values(interfaces())) for (const info of list ?? []) if (info.family === 'IPv4' && !info.internal) return info.address;
  return '127.0.0.1';
}

/** Runs one hub command; resolves with the exit code. */
export async function runHub(command: HubCommand, config: CliConfig, io: CliIo, deps: HubCliDeps = {}): Promise<number> {
  const secrets = deps.secrets ?? keychainHubSecrets({ environment: config.environment });
  const out = (json: unknown, text: string): void => io.write(command.json ? `${JSON.stringify(json, null, 2)}\n` : text);
  const refuse = (code: number, message: string): number => {
    if (command.json) io.write(`${JSON.stringify({ ok: false, message }, null, 2)}\n`);
    else io.writeError(`packdesk hub ${command.action}: ${message}\n`);
    return code;
  };
  const read = loadHubConfig(config.dataDir);
  if (!read.ok) return command.action === 'leave' ? leave(null) : refuse(EXIT.DATA_FILE, read.message);
  const current = read.config;

  async function keychain<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: number }> {
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      return { ok: false, code: refuse(EXIT.CONFIG, error instanceof Error ? error.message : String(error)) };
    }
  }

  async function leave(config_: HubConfig | null): Promise<number> {
    const secret = await keychain(() => secrets.get());
    if (!secret.ok) return secret.code;
    if (config_?.role === 'counter' && secret.value) {
      // Best effort: free this counter's name; leaving works with the hub away too.
      const joined = await connectHub(targetOf(config_, secret.value), { timeoutMs: 3000 });
      if (joined.ok) {
        await forgetCounterName(joined.connection.nc, config_.counterId).catch(() => undefined);
        await joined.connection.close();
      }
    }
    if (config_?.role === 'hub') {
      const files = hubFiles(config.dataDir);
      await clearOrphan({ pidPath: files.pidPath, configPath: files.configPath, commandLine: systemCommandLine(), timers: systemTimers, graceMs: 5000 });
      // The certificate goes with the hub: an old join code can never reach a hub made again later.
      rmSync(files.dir, { recursive: true, force: true });
    }
    clearHubConfig(config.dataDir);
    const cleared = await keychain(() => secrets.clear());
    if (!cleared.ok) return cleared.code;
    const was = config_?.role ?? 'none';
    out({ ok: true, left: was }, was === 'none' ? 'This PC was not part of a store hub.\n' : was === 'hub' ? 'This PC is no longer the store hub; its counters now work on their own.\n' : 'This counter has left the store hub and works on its own.\n');
    return EXIT.OK;
  }

  switch (command.action) {
    case 'leave':
      return leave(current);
    case 'status':
      return status(current);
    case 'create':
      return create(command.listen, command.counterName);
    case 'join':
      return join(command.code, command.counterName);
  }

  async function create(listen: string, wantedName: string | null): Promise<number> {
    if (current?.role === 'counter') return refuse(EXIT.REFUSED, `This PC is a counter of the hub at ${current.host}:${current.port}; run \`packdesk hub leave\` first.`);
    const [listenHost = '', listenPort = ''] = splitHostPort(listen);
    const port = Number(listenPort);
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(listenHost) || !Number.isInteger(port) || port < 1 || port > 65_535)
      return refuse(EXIT.USAGE, `--listen must be an IPv4 address and port, like 0.0.0.0:${DEFAULT_HUB_PORT} (got "${listen}")`);
    const host = reachableAddress(listenHost, deps.interfaces);
    if (current?.role === 'hub') {
      if (current.listen !== listen) return refuse(EXIT.REFUSED, `This PC is already the hub, listening on ${current.listen}; run \`packdesk hub leave\` first to make it again elsewhere.`);
      const secret = await keychain(() => secrets.get());
      if (!secret.ok) return secret.code;
      if (!secret.value) return refuse(EXIT.CONFIG, 'The store\'s secret is missing from the keychain; run `packdesk hub leave`, then create the hub again.');
      return printCreated(current, formatJoinCode(targetOf(current, secret.value)), null);
    }
    const prepared = await prepareHubServer({ dataDir: config.dataDir, listen, explicitProgram: io.env.PACKDESK_NATS_SERVER });
    if (!prepared.ok) return refuse(EXIT.HUB, prepared.message);
    const refusal = versionRefusal(prepared.version, listenHost);
    if (refusal) return refuse(EXIT.HUB, refusal);
    const secret = newHubSecret();
    const stored = await keychain(() => secrets.set(secret));
    if (!stored.ok) return stored.code;
    const files = hubFiles(config.dataDir);
    const { fingerprint } = await createHubFiles(files, { listen, secret, now: new Date(), ips: [host] });
    const counterId = counterIdOf(config.terminalId);
    // Prove the new hub works before saying so: start it, connect as a counter would, take a name.
    const health = await prepared.supervisor.start();
    let name: string | null = null;
    let problem: string | null = health.problem;
    if (health.running) {
      const joined = await connectHub({ host: listenHost === '0.0.0.0' ? '127.0.0.1' : listenHost, port, secret, fingerprint }, { name: 'packdesk hub create' });
      if (joined.ok) {
        const claimed = await claimCounterName(joined.connection.nc, counterId, wantedName ?? 'Counter 1').catch((e: unknown) => ({ ok: false as const, message: String(e) }));
        if (claimed.ok) name = claimed.counterName;
        else problem = claimed.message;
        await joined.connection.close();
      } else problem = joined.problem.message;
    }
    await prepared.supervisor.stop();
    if (name === null) {
      rmSync(files.dir, { recursive: true, force: true });
      await secrets.clear().catch(() => undefined);
      return refuse(EXIT.HUB, `The hub could not be started: ${problem ?? 'unknown reason'}`);
    }
    const made: HubConfig = { version: 1, role: 'hub', counterId, counterName: name, host, port, fingerprint, listen, since: Date.now() };
    saveHubConfig(config.dataDir, made);
    return printCreated(made, formatJoinCode({ host, port, secret, fingerprint }), prepared);
  }

  function printCreated(made: HubConfig, code: string, prepared: { program: string; version: string } | null): number {
    out(
      { ok: true, role: 'hub', counterName: made.counterName, listen: made.listen, address: `${made.host}:${made.port}`, fingerprint: made.fingerprint, program: prepared?.program ?? null, version: prepared?.version ?? null, joinCode: code },
      [
        `This PC is the store hub, "${made.counterName}", listening on ${made.listen}.`,
        prepared ? `Hub program: nats-server ${prepared.version} (${prepared.program}); it runs while Packdesk (or \`packdesk run\`) runs on this PC.` : 'The hub runs while Packdesk (or `packdesk run`) runs on this PC.',
        `Certificate fingerprint (SHA-256): ${made.fingerprint}`,
        'On each other counter: packdesk hub join CODE (or Settings -> Counters -> Join). The join code:',
        code,
        '',
      ].join('\n'),
    );
    return EXIT.OK;
  }

  async function join(text: string, wantedName: string | null): Promise<number> {
    if (current?.role === 'hub') return refuse(EXIT.REFUSED, 'This PC is the store hub; a hub cannot join another. Run `packdesk hub leave` first.');
    const parsed = parseJoinCode(text);
    if (!parsed.ok) return refuse(EXIT.USAGE, parsed.message);
    const counterId = counterIdOf(config.terminalId);
    const joined = await connectHub(parsed.code, { name: wantedName ?? counterId });
    if (!joined.ok) return refuse(EXIT.HUB, joined.problem.message);
    let claimed: Awaited<ReturnType<typeof claimCounterName>>;
    try {
      claimed = await claimCounterName(joined.connection.nc, counterId, wantedName);
    } catch {
      claimed = { ok: false, message: 'The hub could not give this counter a name; pass --name NAME (for example --name "Counter 2").' };
    } finally {
      await joined.connection.close();
    }
    if (!claimed.ok) return refuse(EXIT.REFUSED, claimed.message);
    const stored = await keychain(() => secrets.set(parsed.code.secret));
    if (!stored.ok) return stored.code;
    const made: HubConfig = { version: 1, role: 'counter', counterId, counterName: claimed.counterName, host: parsed.code.host, port: parsed.code.port, fingerprint: joined.connection.fingerprint, listen: null, since: Date.now() };
    saveHubConfig(config.dataDir, made);
    out({ ok: true, role: 'counter', counterName: made.counterName, address: `${made.host}:${made.port}` }, `Joined the store hub at ${made.host}:${made.port} as "${made.counterName}".\n`);
    return EXIT.OK;
  }

  async function status(config_: HubConfig | null): Promise<number> {
    const base: HubStatus = { mode: 'solo', role: 'none', counterId: null, counterName: null, since: null, intakeHolder: null, counters: [], server: null, problem: null };
    if (!config_) {
      out(HubStatusSchema.parse(base), 'Role: none (a one-counter store: no hub)\n');
      return EXIT.OK;
    }
    const secret = await keychain(() => secrets.get());
    if (!secret.ok) return secret.code;
    const server = config_.role === 'hub' ? await serverHealthFromDisk(config_) : null;
    let problem: string | null = server?.problem ?? null;
    let connected = false;
    if (!secret.value) problem = 'The store\'s secret is missing from the keychain; leave the hub and join (or create it) again.';
    else {
      const local = config_.role === 'hub' && config_.listen?.startsWith('0.0.0.0') ? { ...targetOf(config_, secret.value), host: '127.0.0.1' } : targetOf(config_, secret.value);
      const joined = await connectHub(local, { timeoutMs: 3000, name: `${config_.counterName} (status)` });
      if (joined.ok) {
        connected = true;
        await joined.connection.close();
      } else problem = joined.problem.message;
    }
    // Lease holder and counters come from the running session (the app or `packdesk run`); a one-off CLI has none.
    const result = HubStatusSchema.parse({ ...base, mode: connected ? 'connected' : 'away', role: config_.role, counterId: config_.counterId, counterName: config_.counterName, since: config_.since, server, problem: connected ? null : problem });
    out(
      { ...result, address: `${config_.host}:${config_.port}`, fingerprint: config_.fingerprint },
      [
        `Role: ${config_.role === 'hub' ? 'store hub' : 'counter'}, "${config_.counterName}"`,
        `Hub: ${config_.host}:${config_.port} ${connected ? 'connected' : `NOT connected: ${problem ?? ''}`}`,
        ...(server ? [`Hub program: ${server.running ? `running (pid ${server.pid})` : 'not running'}, nats-server ${server.version ?? '?'}, listening on ${server.listen}${server.problem ? `: ${server.problem}` : ''}`] : []),
        'Lease holder and counters: shown by the running app (Settings -> Counters) and `packdesk run`.',
        '',
      ].join('\n'),
    );
    return connected ? EXIT.OK : EXIT.HUB;
  }

  async function serverHealthFromDisk(config_: HubConfig): Promise<ServerHealth> {
    const files = hubFiles(config.dataDir);
    const found = findNatsServer({ explicit: io.env.PACKDESK_NATS_SERVER });
    const version = found.ok ? await readNatsVersion(found.program) : null;
    const listen = config_.listen ?? `${config_.host}:${config_.port}`;
    const pid = existsSync(files.pidPath) ? Number.parseInt(readFileSync(files.pidPath, 'utf8'), 10) : NaN;
    const line = Number.isInteger(pid) && processAlive(pid) ? await systemCommandLine()(pid) : null;
    const running = line !== null && /nats-server/.test(line);
    const versionText = version?.ok ? version.version : null;
    const refusal = versionText ? versionRefusal(versionText, listen.replace(/:\d+$/, '')) : null;
    return {
      running,
      pid: running ? pid : null,
      restarts: 0,
      version: versionText,
      listen,
      problem: !found.ok ? found.message : refusal ?? (running ? null : 'The hub program is not running: start Packdesk (or `packdesk run`) on this PC.'),
    };
  }
}

function targetOf(config: HubConfig, secret: string): HubTarget {
  return { host: config.host, port: config.port, secret, fingerprint: config.fingerprint };
}

function splitHostPort(text: string): [string, string] {
  const at = text.lastIndexOf(':');
  return at < 0 ? [text, String(DEFAULT_HUB_PORT)] : [text.slice(0, at), text.slice(at + 1)];
}
