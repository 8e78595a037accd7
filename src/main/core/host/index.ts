/**
 * The app host: everything the main process does that is not Electron API. It composes settings,
 * the manager PIN, the credential vaults, the engine (against the in-app training sandbox or a
 * real service), the log files and the support bundle, and answers the IPC contract through one
 * validating door (`handle`). The Electron shell and the browser harness both sit on it, so the
 * two shells cannot drift apart.
 *
 * Each environment keeps its own engine data under `<dataDir>/environments/<env>/`: a practice tap
 * queued in training must never be sent to production after a switch.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppInfo, Environment, EventName, Reply, Settings, SyncStatus, UpdateStatus } from '../../../shared/ipc';
import { CANCEL_REASONS, ITEM_UNIT_REASONS, findReason, type ActionInput } from '../../../shared/protocol';
import { fail, ok, ProblemError, type Problem, type Result } from '../../../shared/result';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../sandbox';
import { hostOf } from '../api/http';
import { KeytarVault, MemoryVault, type ClientCredentials, type CredentialVault, type VaultHealth } from '../auth';
import { openEngineWithService, type Engine, type ServiceEngine } from '../engine';
import { createLogger, createRotatingFileSink, secrets, type LogSink, type Logger } from '../log';
import { openPinStore, type PinStore } from '../pin';
import { checkAddress, openSettingsStore, type Addresses, type SettingsStore } from '../settings';
import { writeSupportBundle } from '../support';
import { checkCredentials } from './credentials';
import { createDispatcher, type HandlerTable } from './dispatch';
import { createBroadcaster } from './events';
import { hostHealth } from './health';
import { loadTerminalId } from './terminal-id';

export { createDispatcher, INTERNAL_PROBLEM, type Dispatch, type Handler, type HandlerTable } from './dispatch';
export { checkCredentials, type CredentialCheck } from './credentials';
export { loadTerminalId } from './terminal-id';

/** The OS's online/offline signal, when the shell has one. */
export interface OnlineSignal {
  current(): boolean | undefined;
  subscribe(cb: (online: boolean) => void): () => void;
}

/** What the Electron glue's updater offers the host. */
export interface UpdateController {
  status(): UpdateStatus;
  installNow(): Promise<Result<true>>;
  onStatus(cb: (s: UpdateStatus) => void): () => void;
}

export interface HostOptions {
  shell: 'electron' | 'web';
  dataDir: string;
  version: string;
  /** The vault per environment; default: training -> MemoryVault with the training credentials, else KeytarVault. */
  vaultFor?: (env: Environment) => CredentialVault;
  online?: OnlineSignal;
  /** Absent: `updates.status` answers state 'disabled'. */
  updates?: UpdateController;
  /** Absent (web): `kiosk.leave` answers "not in kiosk mode". */
  kiosk?: { leave(): void };
  /** Training mode's in-app sandbox (port 0 by default). */
  sandboxOptions?: SandboxOptions;
  /** Laid over settings.json at start (tests: `{ undoWindowMs: 1500 }`; the harness forces training). */
  settingsOverride?: Partial<Settings>;
  /** Also receives every log line (already redacted); the log files always do. */
  log?: Logger;
  now?: () => number;
  /** Engine fine-tuning for tests (poll interval, backoff, request deadlines). */
  engineOptions?: EngineTuning;
  /** Log file rotation; default 1 MiB x 5 files. */
  logFiles?: { maxBytes?: number; keep?: number };
}

/** The parts of the engine's options a host may tune (tests). */
export type EngineTuning = Partial<
  Pick<Parameters<typeof openEngineWithService>[0], 'pollMs' | 'stopGraceMs' | 'backoff' | 'requestTimeoutMs' | 'probeTimeoutMs' | 'backlogThresholdMs' | 'random' | 'timers'>
>;

export interface AppHost {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Validates the command name and payload (COMMANDS), runs it, validates the result; never throws. */
  handle(command: unknown, payload: unknown): Promise<Reply<unknown>>;
  subscribe(listener: (event: EventName, body: unknown) => void): () => void;
  info(): AppInfo;
  settings(): Settings;
  readonly logDir: string;
  /** The host's redacting logger (log files, plus `options.log`), for the shell's own lines. */
  readonly log: Logger;
  /** The training sandbox, when in training mode. */
  readonly sandbox: Sandbox | null;
  engine(): Engine | null;
}

const TRAINING_CLIENT_ID = 'training';
const TRAINING_CLIENT_SECRET = 'training-secret';
const KEYCHAIN_CHECKING: VaultHealth = { ok: false, message: 'Checking the keychain…' };

/** Builds the host (reads settings, PIN and terminal id); nothing runs until start(). */
export async function createAppHost(options: HostOptions): Promise<AppHost> {
  const now = options.now ?? Date.now;
  const dataDir = options.dataDir;
  mkdirSync(dataDir, { recursive: true });
  const logDir = join(dataDir, 'logs');
  const fileSink = createRotatingFileSink({ dir: logDir, ...options.logFiles });
  const sinks: LogSink[] = [fileSink];
  if (options.log) {
    const outer = options.log;
    sinks.push({ write: (r) => outer.child(r.scope)[r.level](r.msg, r.fields) });
  }
  const rootLog = createLogger(sinks, { now });
  const log = rootLog.child('host');

  const settings: SettingsStore = openSettingsStore({ file: join(dataDir, 'settings.json'), override: options.settingsOverride, now });
  if (settings.loadProblem) log.warn('settings file set aside', { problem: settings.loadProblem });
  const pinOpened = openPinStore({ file: join(dataDir, 'pin.json'), now });
  const pins: PinStore | null = pinOpened.ok ? pinOpened.value : null;
  const pinProblem: Problem | null = pinOpened.ok ? null : pinOpened.problem;
  if (pinProblem) log.error('manager PIN file unreadable', { problem: pinProblem.message });
  const terminal = loadTerminalId(join(dataDir, 'terminal-id'));
  if (terminal.created) log.info('new terminal id created', { terminalId: terminal.id });

  const trainingCredentials: ClientCredentials = {
    clientId: options.sandboxOptions?.clientId ?? TRAINING_CLIENT_ID,
    clientSecret: options.sandboxOptions?.clientSecret ?? TRAINING_CLIENT_SECRET,
  };
  const vaultFor =
    options.vaultFor ??
    ((env: Environment): CredentialVault =>
      env === 'training' ? new MemoryVault({ credentials: trainingCredentials }) : new KeytarVault({ environment: env, logger: rootLog }));
  const vaults = new Map<Environment, CredentialVault>();
  const vault = (env: Environment): CredentialVault => {
    let v = vaults.get(env);
    if (!v) vaults.set(env, (v = vaultFor(env)));
    return v;
  };

  const events = createBroadcaster(log);
  let sandbox: Sandbox | null = null;
  let service: ServiceEngine | null = null;
  let engineProblem: string | null = 'The terminal is starting.';
  let engineUnsubscribes: (() => void)[] = [];
  let updatesUnsubscribe: (() => void) | null = null;
  let keychain: VaultHealth = KEYCHAIN_CHECKING;
  let keychainCheck: Promise<VaultHealth> | null = null;
  let running = false;
  // Start, stop and environment switches never overlap.
  let lifecycle: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const next = lifecycle.then(task, task);
    lifecycle = next.catch(() => undefined);
    return next;
  };

  const engineDir = (env: Environment): string => join(dataDir, 'environments', env);

  /** The keychain a manager will need: the current environment's, or production's while training. */
  const refreshKeychain = (): Promise<VaultHealth> => {
    const env = settings.get().environment;
    const check = vault(env === 'training' ? 'production' : env)
      .health()
      .catch((err: unknown) => ({ ok: false, message: err instanceof Error ? err.message : String(err) }))
      .then((h) => {
        if (keychainCheck === check) keychain = h;
        return h;
      });
    keychainCheck = check;
    return check;
  };

  /** Starts the engine for the environment in settings; on failure the host runs on and says why. */
  const activate = async (): Promise<void> => {
    const env = settings.get().environment;
    try {
      if (env === 'training') {
        if (!sandbox) {
          sandbox = await startSandbox({ ...options.sandboxOptions, log: rootLog.child('sandbox') });
          log.info('training sandbox started', { url: sandbox.url });
        }
        settings.setTrainingAddresses({ authUrl: sandbox.url, baseUrl: sandbox.url });
        // Training starts fresh every time: the sandbox's orders are fresh too, and practice taps
        // from an earlier session have nowhere meaningful to go.
        rmSync(engineDir('training'), { recursive: true, force: true });
      } else if (sandbox) {
        await sandbox.close();
        sandbox = null;
      }
      const current = settings.get();
      if (!current.authUrl || !current.baseUrl) {
        engineProblem = `No service addresses are saved for ${env}. A manager must enter them in settings.`;
        log.warn('engine not started', { environment: env, problem: engineProblem });
        return;
      }
      mkdirSync(engineDir(env), { recursive: true });
      const opened = openEngineWithService({
        ...options.engineOptions,
        dataDir: engineDir(env),
        authUrl: current.authUrl,
        baseUrl: current.baseUrl,
        vault: vault(env),
        terminalId: terminal.id,
        log: rootLog.child(env),
        now,
        undoWindowMs: current.undoWindowMs,
        concurrency: current.concurrency,
        ...(options.online ? { online: options.online } : {}),
      });
      service = opened;
      engineProblem = null;
      for (const name of ['orders.changed', 'outbox.changed', 'sync.status'] as const)
        engineUnsubscribes.push(opened.engine.on(name, (body) => events.emit(name, body)));
      opened.engine.start();
      if (env === 'training' && sandbox) {
        // The seeded orders fill the practice queue, as a store's morning orders would.
        for (const order of sandbox.orders()) {
          const added = opened.engine.addOrder(order.id);
          if (!added.ok) log.warn('a training order could not be added', { orderId: order.id, problem: added.problem.message });
        }
      }
      log.info('engine started', { environment: env, orderService: hostOf(current.baseUrl) });
      events.emit('sync.status', opened.engine.status());
    } catch (err) {
      engineProblem = problemText(err, 'The terminal could not start its engine.');
      log.error('engine could not start', { environment: env, error: err });
      await deactivate();
      engineProblem ??= 'The terminal could not start its engine.';
    }
  };

  const deactivate = async (): Promise<void> => {
    for (const u of engineUnsubscribes) u();
    engineUnsubscribes = [];
    const closing = service;
    service = null;
    engineProblem = 'The terminal is switching services; try again in a moment.';
    if (closing) await closing.close();
  };

  const engineOr = <T>(use: (engine: Engine) => Result<T>): Result<T> => {
    const engine = service?.engine;
    if (!engine) return fail('transient', engineProblem ?? 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
    return use(engine);
  };

  /** Checks the manager PIN before a guarded command runs. */
  const withPin = async <T>(pin: string | undefined, run: () => Promise<Result<T>> | Result<T>): Promise<Result<T>> => {
    if (!pins) return pinProblem ? { ok: false, problem: pinProblem } : fail('permanent', 'The manager PIN is unavailable.');
    if (pin === undefined) return fail('auth', 'The manager PIN is needed for this.', 'PIN_REQUIRED');
    const checked = await pins.check(pin);
    if (!checked.ok) {
      log.warn('manager PIN refused', { code: checked.problem.code });
      return checked;
    }
    return run();
  };

  const info = (): AppInfo => ({
    version: options.version,
    environment: settings.get().environment,
    shell: options.shell,
    terminalId: terminal.id,
    keychain: { ok: keychain.ok, message: keychain.message },
    pinSet: pins?.isSet() ?? false,
  });

  const statusWithoutEngine = (): SyncStatus => ({
    connectivity: 'unknown',
    waiting: 0,
    failed: 0,
    oldestWaitingAt: null,
    lastSuccessAt: null,
    credentials: 'missing',
    backlogAlarm: false,
    message: engineProblem,
  });

  const updateStatus = (): UpdateStatus =>
    options.updates?.status() ?? {
      state: 'disabled',
      currentVersion: options.version,
      availableVersion: null,
      message: options.shell === 'web' ? 'Updates are not used in the browser harness.' : 'Updates are turned off in this build.',
      lastCheckAt: null,
    };

  /** Switches (or re-keys) the service: check everything, save, restart the engine. */
  const saveCredentials = async (p: {
    environment: Environment;
    authUrl?: string | undefined;
    baseUrl?: string | undefined;
    clientId?: string | undefined;
    clientSecret?: string | undefined;
  }): Promise<Result<{ result: 'saved' | 'rejected'; message: string }>> => {
    const env = p.environment;
    if (p.clientSecret) secrets.add(p.clientSecret);
    if (env === 'training') {
      await serially(async () => {
        await deactivate();
        settings.switchTo('training', null);
        await activate();
      });
      void refreshKeychain();
      return ok({ result: 'saved', message: 'Training mode: practice orders on the service built into Packdesk. Nothing is sent to the marketplace.' });
    }
    // Addresses: the ones typed, else the ones saved for that environment before.
    const remembered = settings.addressesFor(env);
    const rawAuth = p.authUrl ?? remembered?.authUrl;
    const rawBase = p.baseUrl ?? remembered?.baseUrl;
    if (!rawAuth || !rawBase) return fail('invalid', `Enter the token server and order service addresses for ${env}.`, 'ADDRESS_MISSING');
    const authUrl = checkAddress(env, 'token server', rawAuth);
    if (!authUrl.ok) return authUrl;
    const baseUrl = checkAddress(env, 'order service', rawBase);
    if (!baseUrl.ok) return baseUrl;
    const addresses: Addresses = { authUrl: authUrl.value, baseUrl: baseUrl.value };

    // Credentials: the ones typed, else the ones already in this environment's keychain entry.
    if ((p.clientId === undefined) !== (p.clientSecret === undefined))
      return fail('invalid', 'Enter both the client id and the client secret from the e-mail.', 'CREDENTIALS_INCOMPLETE');
    let credentials: ClientCredentials | null;
    try {
      credentials =
        p.clientId !== undefined && p.clientSecret !== undefined
          ? { clientId: p.clientId, clientSecret: p.clientSecret }
          : await vault(env).getCredentials();
    } catch (err) {
      return problemResult(err, 'The keychain could not be read.');
    }
    if (!credentials) return fail('invalid', `No credentials are saved for ${env}: enter the client id and secret from the e-mail.`, 'CREDENTIALS_MISSING');

    const check = await checkCredentials(addresses.authUrl, credentials, { registry: secrets, now });
    if (check.kind === 'refused') {
      log.warn('new credentials refused by the token server; nothing saved', { environment: env, tokenServer: hostOf(addresses.authUrl) });
      return ok({ result: 'rejected', message: check.message });
    }
    if (check.kind === 'unreachable') return fail('transient', check.message, 'TOKEN_SERVER_UNREACHABLE');

    try {
      await vault(env).setCredentials(credentials);
      // Tokens of the old credentials (or the old server) must not be offered to the new one.
      await vault(env).setTokens(null);
    } catch (err) {
      return problemResult(err, 'The credentials could not be stored in the keychain.');
    }
    await serially(async () => {
      await deactivate();
      settings.switchTo(env, addresses);
      await activate();
      service?.engine.credentialsChanged();
    });
    void refreshKeychain();
    log.info('credentials saved and service switched', { environment: env, tokenServer: hostOf(addresses.authUrl), orderService: hostOf(addresses.baseUrl) });
    if (engineProblem) return fail('transient', `The credentials were saved, but ${lowerFirst(engineProblem)}`, 'ENGINE_UNAVAILABLE');
    return ok({ result: 'saved', message: `Saved. This terminal now works with ${env} (${hostOf(addresses.baseUrl)}).` });
  };

  const exportBundle = async (): Promise<Result<{ path: string }>> => {
    if (keychainCheck) await keychainCheck;
    const engine = service?.engine ?? null;
    const status = engine ? engine.status() : null;
    let engineHealth: ReturnType<Engine['health']> | null = null;
    try {
      engineHealth = engine ? engine.health() : null;
    } catch (err) {
      log.warn('engine health could not be read for the bundle', { error: err });
    }
    const current = settings.get();
    const health = hostHealth({
      dataDir,
      environment: current.environment,
      settings: current,
      settingsProblem: settings.loadProblem,
      pin: { set: pins?.isSet() ?? false, problem: pinProblem?.message ?? null, lockedUntil: pins?.lockedUntil() ?? null },
      keychain,
      engineProblem,
      engineHealth,
      status,
      tokens: service?.tokens.status() ?? null,
      now: now(),
    });
    log.info('support bundle requested');
    const written = writeSupportBundle({
      dir: join(dataDir, 'support'),
      now: now(),
      info: info(),
      settings: current,
      health,
      outbox: engine ? engine.listOutbox({ includeDone: true }) : null,
      status,
      logFiles: fileSink.files(),
    });
    if (!written.ok) return written;
    log.info('support bundle written', { path: written.value });
    return ok({ path: written.value });
  };

  const handlers: HandlerTable = {
    'app.info': async () => {
      if (keychainCheck && keychain === KEYCHAIN_CHECKING) await Promise.race([keychainCheck, delay(2_000)]);
      return ok(info());
    },
    'orders.list': async () => ok(service?.engine.listOrders() ?? []),
    'orders.get': async ({ orderId }) => engineOr((e) => ok(e.getOrder(orderId))),
    'orders.add': async ({ orderId }) => engineOr((e) => e.addOrder(orderId)),
    'taps.submit': async ({ orderId, input, pin }) => {
      const tap = (): Result<ReturnType<Engine['submitTap']> extends Result<infer T> ? T : never> =>
        engineOr((e) => e.submitTap(orderId, input as ActionInput));
      return needsManager(input as ActionInput) ? withPin(pin, tap) : tap();
    },
    'taps.undo': async ({ entryId }) => engineOr((e) => done(e.undo(entryId))),
    'outbox.list': async () => ok(service?.engine.listOutbox() ?? []),
    'outbox.retry': async ({ entryId }) => engineOr((e) => done(e.retry(entryId))),
    'outbox.discard': async ({ entryId, pin }) =>
      withPin(pin, () =>
        engineOr((e) => {
          const r = e.discard(entryId);
          if (r.ok) log.warn('outbox entry discarded by a manager', { entryId });
          return done(r);
        }),
      ),
    'sync.status': async () => ok(service?.engine.status() ?? statusWithoutEngine()),
    'settings.get': async () => ok(settings.get()),
    'settings.update': async ({ pin, patch }) =>
      withPin(pin, () => {
        const next = settings.update(patch);
        service?.engine.setOptions({ undoWindowMs: next.undoWindowMs, concurrency: next.concurrency });
        log.info('settings changed', { keys: Object.keys(patch) });
        return ok(next);
      }),
    'credentials.save': async (p) => withPin(p.pin, () => saveCredentials(p)),
    'pin.verify': async ({ pin }) => {
      if (!pins) return { ok: false, problem: pinProblem ?? { kind: 'permanent', message: 'The manager PIN is unavailable.' } };
      const r = await pins.verify(pin);
      return r.ok ? ok({ valid: r.value }) : r;
    },
    'pin.set': async ({ currentPin, newPin }) => {
      if (!pins) return { ok: false, problem: pinProblem ?? { kind: 'permanent', message: 'The manager PIN is unavailable.' } };
      const r = await pins.set(newPin, currentPin);
      if (r.ok) log.info('manager PIN set');
      return r.ok ? ok({ done: true as const }) : r;
    },
    'updates.status': async () => ok(updateStatus()),
    'updates.installNow': async ({ pin }) =>
      withPin(pin, async () => {
        if (!options.updates) return fail('invalid', 'Updates are not available here.', 'UPDATES_DISABLED');
        const r = await options.updates.installNow();
        return r.ok ? ok({ done: true as const }) : r;
      }),
    'support.exportBundle': async ({ pin }) => withPin(pin, exportBundle),
    'kiosk.leave': async ({ pin }) =>
      withPin(pin, () => {
        if (!options.kiosk) return fail('invalid', 'This terminal is not in kiosk mode.', 'NOT_IN_KIOSK');
        options.kiosk.leave();
        log.info('kiosk mode left by a manager');
        return ok({ done: true as const });
      }),
  };
  const dispatch = createDispatcher(handlers, rootLog.child('ipc'));

  return {
    logDir,
    log: rootLog,
    get sandbox() {
      return sandbox;
    },
    engine: () => service?.engine ?? null,
    info,
    settings: () => settings.get(),
    subscribe: (listener) => events.subscribe(listener),
    handle: (command, payload) => dispatch(command, payload),
    start: () =>
      serially(async () => {
        if (running) return;
        running = true;
        log.info('Packdesk host starting', { version: options.version, shell: options.shell, terminalId: terminal.id, environment: settings.get().environment });
        void refreshKeychain();
        if (options.updates) updatesUnsubscribe = options.updates.onStatus((s) => events.emit('updates.status', s));
        await activate();
      }),
    stop: () =>
      serially(async () => {
        if (!running) return;
        running = false;
        updatesUnsubscribe?.();
        updatesUnsubscribe = null;
        await deactivate();
        engineProblem = 'The terminal has stopped.';
        if (sandbox) await sandbox.close();
        sandbox = null;
        log.info('Packdesk host stopped');
        fileSink.close();
      }),
  };
}

/** A FRAUD_PRESCRIPTION cancellation (or any reason marked needsManager) needs the manager PIN. */
export function needsManager(input: ActionInput): boolean {
  if (input.kind === 'orderState' && input.reason) return findReason(CANCEL_REASONS, input.reason)?.needsManager === true;
  if (input.kind === 'units') return findReason(ITEM_UNIT_REASONS, input.reason)?.needsManager === true;
  return false;
}

function done(r: Result<true>): Result<{ done: true }> {
  return r.ok ? ok({ done: true as const }) : r;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The message of a ProblemError (already written for people), or a fallback for anything else. */
function problemText(err: unknown, fallback: string): string {
  return err instanceof ProblemError ? err.problem.message : fallback;
}

function problemResult<T>(err: unknown, fallback: string): Result<T> {
  if (err instanceof ProblemError) return { ok: false, problem: err.problem };
  return fail('transient', fallback, 'INTERNAL');
}
