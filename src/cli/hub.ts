/**
 * `packdesk hub create|join|leave|status`: what a manager does on Settings -> Counters, from a
 * shell. The hub itself runs inside the app (or `packdesk run`); `create` starts nats-server once
 * to prove the new hub works, then stops it.
 */
import { existsSync, readFileSync } from 'node:fs';
import type os from 'node:os';
import { type HubStatus, hubStatusSchema } from '../shared/hub';
import type { HubStatusReader } from '../main/core/hub/read-status';
import type { Problem } from '../shared/result';
import { connectHub } from '../main/core/hub/nats/connection';
import { type HubConfig, loadHubConfig } from '../main/core/hub/hub-config';
import { createHub, joinHub, leaveHub, localTargetOf } from '../main/core/hub/membership';
import { findNatsServer, type HubSecretStore, hubFiles, keychainHubSecrets, processAlive, readNatsVersion, type ServerHealth, systemCommandLine, versionRefusal } from '../main/core/hub/server';
import type { CliConfig } from './config';
import type { CliIo } from './io';
import { EXIT } from './usage';

export type HubCommand =
  | { readonly name: 'hub'; readonly action: 'create'; readonly listen: string; readonly counterName: string | null; readonly json: boolean }
  | { readonly name: 'hub'; readonly action: 'join'; readonly code: string; readonly counterName: string | null; readonly json: boolean }
  | { readonly name: 'hub'; readonly action: 'leave' | 'status'; readonly json: boolean };

export type { HubStatusReader };

export interface HubCliDeps {
  readonly secrets?: HubSecretStore;
  /**
   * The seam for the hub's rules: reads the lease holder and the counters from the hub while
   * `status` is connected (the lease and presence modules' readers). Without it, `status` prints
   * the connection and the server only, with `intakeHolder: null` and `counters: []`.
   */
  readonly readStatus?: HubStatusReader;
  /** This PC's network addresses (injected by tests). */
  readonly interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
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
  if (!read.ok && command.action !== 'leave') return refuse(EXIT.DATA_FILE, read.message);
  const current = read.ok ? read.config : null;

  const place = { dataDir: config.dataDir, terminalId: config.terminalId, secrets, explicitProgram: io.env.PACKDESK_NATS_SERVER, interfaces: deps.interfaces };
  /** A refusal from the shared steps: usage mistakes exit 2, a keychain or settings problem 3, the hub itself 8. */
  const refused = (problem: Problem): number =>
    refuse(
      problem.code === 'HUB_LISTEN' || problem.code?.startsWith('HUB_CODE_')
        ? EXIT.USAGE
        : problem.code === 'KEYCHAIN' || problem.code === 'HUB_SECRET_MISSING'
          ? EXIT.CONFIG
          : problem.code === 'HUB_CONFIG'
            ? EXIT.DATA_FILE
            : problem.kind === 'invalid'
              ? EXIT.REFUSED
              : EXIT.HUB,
      problem.message,
    );

  async function leave(): Promise<number> {
    const left = await leaveHub(place);
    if (!left.ok) return refused(left.problem);
    const was = left.value.was;
    out({ ok: true, left: was }, was === 'none' ? 'This PC was not part of a store hub.\n' : was === 'hub' ? 'This PC is no longer the store hub; its counters now work on their own.\n' : 'This counter has left the store hub and works on its own.\n');
    return EXIT.OK;
  }

  switch (command.action) {
    case 'leave':
      return leave();
    case 'status':
      return status(current);
    case 'create':
      return create(command.listen, command.counterName);
    case 'join':
      return join(command.code, command.counterName);
  }

  async function create(listen: string, wantedName: string | null): Promise<number> {
    const made = await createHub(place, { listen, name: wantedName });
    if (!made.ok) return refused(made.problem);
    const { config: hub, join: shown, program, version } = made.value;
    out(
      { ok: true, role: 'hub', counterName: hub.counterName, listen: hub.listen, address: `${hub.host}:${hub.port}`, fingerprint: hub.fingerprint, program, version, joinCode: shown.code },
      [
        `This PC is the store hub, "${hub.counterName}", listening on ${hub.listen}.`,
        version ? `Hub program: nats-server ${version} (${program ?? ''}); it runs while Packdesk (or \`packdesk run\`) runs on this PC.` : 'The hub runs while Packdesk (or `packdesk run`) runs on this PC.',
        `Certificate fingerprint (SHA-256): ${hub.fingerprint}`,
        'On each other counter: packdesk hub join CODE (or Settings -> Counters -> Join). The join code:',
        shown.code,
        '',
      ].join('\n'),
    );
    return EXIT.OK;
  }

  async function join(text: string, wantedName: string | null): Promise<number> {
    const joined = await joinHub(place, { code: text, name: wantedName });
    if (!joined.ok) return refused(joined.problem);
    const made = joined.value;
    out({ ok: true, role: 'counter', counterName: made.counterName, address: `${made.host}:${made.port}` }, `Joined the store hub at ${made.host}:${made.port} as "${made.counterName}".\n`);
    return EXIT.OK;
  }

  async function keychain<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: number }> {
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      return { ok: false, code: refuse(EXIT.CONFIG, error instanceof Error ? error.message : String(error)) };
    }
  }

  async function status(config_: HubConfig | null): Promise<number> {
    const base: HubStatus = { mode: 'solo', role: 'none', counterId: null, counterName: null, since: null, intakeHolder: null, counters: [], server: null, problem: null };
    if (!config_) {
      out(hubStatusSchema().parse(base), 'Role: none (a one-counter store: no hub)\n');
      return EXIT.OK;
    }
    const secret = await keychain(() => secrets.get());
    if (!secret.ok) return secret.code;
    const server = config_.role === 'hub' ? await serverHealthFromDisk(config_) : null;
    let problem: string | null = server?.problem ?? null;
    let connected = false;
    let seen: Pick<HubStatus, 'intakeHolder' | 'counters'> = { intakeHolder: null, counters: [] };
    if (!secret.value) problem = 'The store\'s secret is missing from the keychain; leave the hub and join (or create it) again.';
    else {
      const local = localTargetOf(config_, secret.value);
      const joined = await connectHub(local, { timeoutMs: 3000, name: `${config_.counterName} (status)` });
      if (joined.ok) {
        connected = true;
        try {
          if (deps.readStatus) seen = await deps.readStatus(joined.connection.nc, { counterId: config_.counterId, counterName: config_.counterName });
        } catch (error) {
          problem = `The hub answered, but its counters could not be read: ${error instanceof Error ? error.message : String(error)}`;
        } finally {
          await joined.connection.close();
        }
      } else problem = joined.problem.message;
    }
    // Lease holder and counters: from deps.readStatus when given; a one-off CLI without it has none.
    const result = hubStatusSchema().parse({ ...base, ...seen, mode: connected ? 'connected' : 'away', role: config_.role, counterId: config_.counterId, counterName: config_.counterName, since: config_.since, server, problem: connected ? (problem === server?.problem ? null : problem) : problem });
    out(
      { ...result, address: `${config_.host}:${config_.port}`, fingerprint: config_.fingerprint },
      [
        `Role: ${config_.role === 'hub' ? 'store hub' : 'counter'}, "${config_.counterName}"`,
        `Hub: ${config_.host}:${config_.port} ${connected ? 'connected' : `NOT connected: ${problem ?? ''}`}`,
        ...(server ? [`Hub program: ${server.running ? `running (pid ${server.pid})` : 'not running'}, nats-server ${server.version ?? '?'}, listening on ${server.listen}${server.problem ? `: ${server.problem}` : ''}`] : []),
        ...(deps.readStatus && connected
          ? [`Intake polled by: ${result.intakeHolder?.counterName ?? 'nobody yet'}`, ...result.counters.map((c) => `  ${c.counterName}${c.isThisCounter ? ' (this PC)' : ''}: ${c.present ? 'present' : 'not heard from'}, taps waiting ${c.tapsWaiting}`)]
          : ['Lease holder and counters: shown by the running app (Settings -> Counters) and `packdesk run`.']),
        '',
      ].join('\n'),
    );
    return connected ? EXIT.OK : EXIT.HUB;
  }

  function serverHealthFromDisk(config_: HubConfig): Promise<ServerHealth> {
    return hubServerHealth(config.dataDir, config_, io.env);
  }
}

/** The hub program's health as the disk shows it (pid file, the process), for a one-off command on the hub PC. */
export async function hubServerHealth(dataDir: string, config_: HubConfig, env: CliIo['env']): Promise<ServerHealth> {
  const files = hubFiles(dataDir);
  const found = findNatsServer({ explicit: env.PACKDESK_NATS_SERVER });
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
