/**
 * The app host: everything the main process does that is not Electron API. It composes settings,
 * the manager PIN, the credential vaults, the engine (against the in-app training sandbox or a
 * real service), the log files and the support bundle, and answers the IPC contract through one
 * validating door (`handle`). The Electron shell and the browser harness both sit on it, so the
 * two shells cannot drift apart.
 */
import { withSettingsNotice } from './settings-notice';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppInfo, EventBody, SyncStatus } from '../../../shared/ipc';
import { createLogger, createRotatingFileSink, logFilesIn, type LogSink } from '../log';
import { openPinStore } from '../pin';
import { openSettingsStore } from '../settings';
import { exportSupportBundle } from './bundle';
import { exportShiftCsv } from './shift-export';
import { dayOf } from '../shift';
import { fail } from '../../../shared/result';
import { createDispatcher } from './dispatch';
import { createKeychainWatch, createVaults, saveCredentials } from './credentials';
import { createBroadcaster } from './events';
import { createHandlers } from './handlers';
import { createQueueRows } from './queueRows';
import { createRuntime } from './runtime';
import { createHubLink } from './hub';
import { loadTerminalId } from './terminal-id';
import type { AppHost, HostOptions, TrainingService } from './types';

export type { AppHost, EngineTuning, HostOptions, OnlineSignal, TrainingService, UpdateController } from './types';
export { createDispatcher, INTERNAL_PROBLEM, type Dispatch, type Handler, type HandlerTable } from './dispatch';
export { needsManager } from './handlers';
export { checkCredentials, type CredentialCheck } from './credentials';
export { loadTerminalId } from './terminal-id';

/** Builds the host (reads settings, PIN and terminal id, opens the log files); nothing runs until start(). */
export async function createAppHost<S extends TrainingService = TrainingService>(options: HostOptions<S>): Promise<AppHost<S>> {
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

  const settings = openSettingsStore({ file: join(dataDir, 'settings.json'), override: options.settingsOverride, now });
  if (settings.loadProblem) log.warn('settings file set aside', { problem: settings.loadProblem });
  const pinOpened = openPinStore({ file: join(dataDir, 'pin.json'), now });
  const pins = pinOpened.ok ? pinOpened.value : null;
  const pinProblem = pinOpened.ok ? null : pinOpened.problem;
  if (pinProblem) log.error('manager PIN file unreadable', { problem: pinProblem.message });
  const terminal = loadTerminalId(join(dataDir, 'terminal-id'));
  if (terminal.created) log.info('new terminal id created', { terminalId: terminal.id });

  const vault = createVaults({ vaultFor: options.vaultFor, trainingCredentials: options.trainingCredentials, log: rootLog });

  const events = createBroadcaster(log);
  const keychain = createKeychainWatch(vault);
  const hub = createHubLink({
    terminalId: terminal.id,
    version: options.version,
    // Other counters' taps and claims are laid over the views the engine sends.
    emit: (name, body) => events.emit(name, body),
    log: rootLog,
    now,
    claimQuietMs: () => settings.get().claimQuietMs,
    // Scan to pack and the claims' quiet period are the store's: shared through its hub (hub/store-settings.ts).
    storeSettings: { get: () => settings.get(), apply: (patch) => settings.update(patch) },
    // Made below, with the hub's word on each row; read only once the engine runs.
    rows: () => queue.rows(),
    ...(process.env.PACKDESK_NATS_SERVER ? { explicitProgram: process.env.PACKDESK_NATS_SERVER } : {}),
    ...(options.resourcesPath ? { resourcesPath: options.resourcesPath } : {}),
    ...(options.hubTuning ? { tuning: options.hubTuning } : {}),
  });
  /** An orders.changed body with the hub's word laid over each view. */
  const withHubViews = (body: unknown): unknown => {
    const { orders } = body as EventBody<'orders.changed'>;
    return { orders: orders.map((v) => hub.decorate(v)) };
  };
  const runtime = createRuntime({
    dataDir,
    settings,
    vault,
    terminalId: terminal.id,
    rootLog,
    now,
    // The engine's status goes out with the settings problem laid over it (settings-notice.ts).
    emit: (name, body) => events.emit(name, name === 'sync.status' ? withSettingsNotice(body as SyncStatus, settings.problem()) : name === 'orders.changed' ? withHubViews(body) : body),
    onActivated: (service, place) => hub.attach(service, place),
    onDeactivating: () => hub.detach(),
    ...(options.online ? { online: options.online } : {}),
    ...(options.startTraining ? { startTraining: options.startTraining } : {}),
    ...(options.engineOptions ? { engineOptions: options.engineOptions } : {}),
    ...(pins ? { isManagerPin: (pin: string) => pins.matches(pin) } : {}),
    // The staff list and taught barcodes go to the other counters through the store hub, when there is one.
    sharing: hub.sharing,
  });

  const queue = createQueueRows({
    engine: () => runtime.engine(),
    // The hub's facts over each row, and what they all hang on, both from the one read path (hub/overlay.ts).
    decorate: (view) => hub.decorate(view),
    hubWord: () => hub.overlayWord(),
    now,
  });
  events.subscribe((event, body) => queue.noteEvent(event, body));

  const info = (): AppInfo => {
    const health = keychain.current();
    return {
      version: options.version,
      environment: settings.get().environment,
      shell: options.shell,
      terminalId: terminal.id,
      keychain: { ok: health.ok, message: health.message, ...(health.checking ? { checking: true } : {}) },
      pinSet: pins?.isSet() ?? false,
    };
  };

  const handlers = createHandlers({
    runtime,
    hub,
    settings,
    emit: events.emit,
    pins,
    pinProblem,
    info: async () => {
      await keychain.settled(2_000);
      return info();
    },
    updates: options.updates,
    kiosk: options.kiosk,
    printing: options.printing,
    version: options.version,
    shell: options.shell,
    log,
    queue,
    saveCredentials: (request) =>
      saveCredentials({ runtime, settings, vault, log, now, switched: (env) => keychain.refresh(env) }, request),
    today: () => dayOf(now()),
    exportShiftCsv: async (day, table, words) => {
      const engine = runtime.engine();
      if (!engine) return fail('transient', runtime.problem() ?? 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
      return exportShiftCsv({ report: hub.shift(engine, day), table, words, files: options.files, log });
    },
    exportBundle: () =>
      exportSupportBundle({
        dataDir,
        runtime,
        keychain,
        settings: () => settings.get(),
        settingsProblem: settings.problem(),
        pins,
        pinProblem: pinProblem?.message ?? null,
        info,
        // The whole folder, not just this sink's files: the Electron shell writes shell.log there.
        logFiles: () => logFilesIn(logDir),
        log,
        hub: () => hub.status(),
        chain: () => hub.chainStatus(),
        now,
      }),
  });
  const dispatch = createDispatcher(handlers, rootLog.child('ipc'));

  // start() and stop() are idempotent; a second caller waits for the same work to finish.
  let starting: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  let updatesUnsubscribe: (() => void) | null = null;

  return {
    logDir,
    log: rootLog,
    get sandbox() {
      return runtime.sandbox();
    },
    engine: () => runtime.engine(),
    hub,
    info,
    settings: () => settings.get(),
    subscribe: (listener) => events.subscribe(listener),
    handle: (command, payload) => dispatch(command, payload),
    prepareQueue: () => queue.prepare(),
    start() {
      starting ??= (async () => {
        stopping = null;
        log.info('Packdesk host starting', { version: options.version, shell: options.shell, terminalId: terminal.id, environment: settings.get().environment });
        keychain.refresh(settings.get().environment);
        if (options.updates) updatesUnsubscribe = options.updates.onStatus((s) => events.emit('updates.status', s));
        await runtime.start();
      })();
      return starting;
    },
    stop() {
      if (!starting) return Promise.resolve();
      const started = starting;
      stopping ??= (async () => {
        await started.catch(() => undefined);
        updatesUnsubscribe?.();
        updatesUnsubscribe = null;
        await runtime.stop();
        log.info('Packdesk host stopped');
        fileSink.close();
        starting = null;
      })();
      return stopping;
    },
  };
}
