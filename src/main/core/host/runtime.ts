/**
 * Which service the terminal works with right now: the engine for the environment in settings,
 * and in training the in-app sandbox it talks to. Starting, stopping and switching run one at a
 * time. When the engine cannot start (no addresses, unusable data file), the host keeps running
 * and `problem()` says why, so the screen can tell the manager what to do.
 *
 * Each environment keeps its own engine data under `<dataDir>/environments/<env>/`: a practice tap
 * queued in training must never be sent to production after a switch.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from '../../../shared/ipc';
import { ProblemError } from '../../../shared/result';
import { hostOf } from '../api/http';
import type { CredentialVault } from '../auth';
import { openEngineWithService, type Engine, type IntakeEvent, type ServiceEngine } from '../engine';
import type { ServiceEngineOptions } from '../engine/compose';
import type { Logger } from '../log';
import type { Addresses, SettingsStore } from '../settings';
import type { HostListener } from './events';
import type { EngineTuning, OnlineSignal, TrainingService } from './types';
import { oneAtATime } from '../serial';
import { systemTimers } from '../time';
import { createHeapTrim, fullCollection, type HeapTrim } from './heap-trim';

export interface RuntimeDeps<S extends TrainingService> {
  readonly dataDir: string;
  readonly settings: SettingsStore;
  readonly vault: (env: Environment) => CredentialVault;
  readonly terminalId: string;
  /** The root logger (the engine and sandbox get children of it). */
  readonly rootLog: Logger;
  readonly now: () => number;
  readonly emit: HostListener;
  readonly online?: OnlineSignal;
  /** Starts training mode's service; absent, training cannot start. */
  readonly startTraining?: (log: Logger) => Promise<S>;
  readonly engineOptions?: EngineTuning;
  /** An engine started (before its intake's first pass): the store hub binds this counter to it. */
  readonly onActivated?: (service: ServiceEngine, place: { readonly environment: Environment; readonly dataDir: string }) => void;
  /** The engine is about to close (a switch of service, a damaged file, the quit). */
  readonly onDeactivating?: () => Promise<void>;
  /** Whether a PIN is the manager's, counting no wrong guess (a packer's PIN may not be it). */
  readonly isManagerPin?: (pin: string) => Promise<boolean>;
  /** The store hub's ports for the staff list and taught barcodes (host/hub/ HubLink.sharing). */
  readonly sharing?: Pick<ServiceEngineOptions, 'staffSharing' | 'taughtSharing'>;
  /** V8's full collection, run once after a large intake (heap-trim.ts); null: never. Default: `fullCollection()`. */
  readonly collectGarbage?: (() => void) | null;
}

export interface Runtime<S extends TrainingService = TrainingService> {
  /** Starts the engine (and in training the sandbox) for the environment in settings. */
  start(): Promise<void>;
  /** Stops the engine and the sandbox. */
  stop(): Promise<void>;
  /** Stops the engine, saves the new environment (and its addresses), starts again. */
  switchTo(env: Environment, addresses: Addresses | null): Promise<void>;
  service(): ServiceEngine | null;
  engine(): Engine | null;
  sandbox(): S | null;
  /** Why there is no engine, or null while it runs. */
  problem(): string | null;
}

const ENGINE_EVENTS = ['orders.changed', 'orders.removed', 'outbox.changed', 'sync.status', 'staff.changed'] as const;

/**
 * Intake's events for the screens. Ids stored together (intake writes a batch of bodies at once)
 * go out as one orders.changed: one event per order would mean thousands of events, each one
 * validated and merged on its own, while a first pass fills the queue.
 */
function intakeEvents(engine: Engine, emit: HostListener, live: () => boolean, trim: HeapTrim): (event: IntakeEvent) => void {
  let pending = new Set<string>();
  const flush = (): void => {
    const ids = pending;
    pending = new Set();
    // The engine may have been closed (a switch of service) since the ids were stored.
    if (!live()) return;
    const orders = [...ids].map((id) => engine.getOrder(id)).filter((v) => v !== null);
    if (orders.length > 0) emit('orders.changed', { orders });
    // An order cancelled elsewhere had its waiting taps set aside by intake: the screens hear why.
    const entries = orders.filter((v) => v.alarm !== undefined).flatMap((v) => engine.entriesOf(v.id));
    if (entries.length === 0) return;
    emit('outbox.changed', { entries });
    engine.tapsChangedElsewhere();
  };
  return (event) => {
    if (event.kind === 'status') {
      trim.passed();
      return emit('intake.status', event.status);
    }
    if (pending.size === 0 && event.orderIds.length > 0) queueMicrotask(flush);
    for (const id of event.orderIds) pending.add(id);
    trim.stored(event.orderIds.length);
  };
}

/** Creates the runtime; nothing starts before start(). */
export function createRuntime<S extends TrainingService>(deps: RuntimeDeps<S>): Runtime<S> {
  const log = deps.rootLog.child('host');
  let sandbox: S | null = null;
  let service: ServiceEngine | null = null;
  let problem: string | null = 'The terminal is starting.';
  let unsubscribes: (() => void)[] = [];
  const serially = oneAtATime();
  const engineDir = (env: Environment): string => join(deps.dataDir, 'environments', env);
  const trim = createHeapTrim({
    timers: deps.engineOptions?.timers ?? systemTimers,
    now: deps.now,
    log,
    collect: deps.collectGarbage === undefined ? fullCollection() : deps.collectGarbage,
    letGo: () => service?.letGoBusyCaches(),
  });

  const closeSandbox = async (): Promise<void> => {
    const closing = sandbox;
    sandbox = null;
    if (closing) await closing.close();
  };

  /** Points settings at the training sandbox, starting it if needed, on a fresh practice queue. */
  const prepareTraining = async (): Promise<void> => {
    if (!sandbox) {
      if (!deps.startTraining) throw new ProblemError({ kind: 'permanent', message: 'Training mode is not available in this build. A manager must enter service addresses in settings.' });
      sandbox = await deps.startTraining(deps.rootLog.child('sandbox'));
      log.info('training sandbox started', { url: sandbox.url });
    }
    deps.settings.setTrainingAddresses({ authUrl: sandbox.url, baseUrl: sandbox.url });
    // Training starts fresh every time: the sandbox's orders are fresh too, and practice taps
    // from an earlier session have nowhere meaningful to go.
    rmSync(engineDir('training'), { recursive: true, force: true });
  };

  const activate = async (): Promise<void> => {
    const env = deps.settings.get().environment;
    try {
      if (env === 'training') await prepareTraining();
      else await closeSandbox();
      const current = deps.settings.get();
      if (!current.authUrl || !current.baseUrl) {
        problem = `No service addresses are saved for ${env}. A manager must enter them in settings.`;
        log.warn('engine not started', { environment: env, problem });
        return;
      }
      mkdirSync(engineDir(env), { recursive: true });
      const opened = openEngineWithService({
        ...deps.engineOptions,
        dataDir: engineDir(env),
        authUrl: current.authUrl,
        baseUrl: current.baseUrl,
        vault: deps.vault(env),
        terminalId: deps.terminalId,
        log: deps.rootLog.child(env),
        now: deps.now,
        undoWindowMs: current.undoWindowMs,
        concurrency: current.concurrency,
        // In training the sandbox's store is this terminal's store, whatever settings say.
        serviceProviderId: () =>
          env === 'training' ? (sandbox?.serviceProviderId ?? null) : deps.settings.get().serviceProviderId.trim() || null,
        intakeIntervalMs: () => deps.settings.get().intakeIntervalMs,
        ...(deps.online ? { online: deps.online } : {}),
        // The packer need not wait for every page of a large file to be read: the check runs
        // beside the engine, and damage it finds is handled as at open, by opening again.
        openingCheck: 'later',
        // Damage may be found while the engine is still being opened (a start-up read meets the bad
        // page): the engine is reopened once this open has returned, never from inside it.
        onDamaged: () => queueMicrotask(() => void reopenAfterDamage(opened)),
        ...(deps.isManagerPin ? { isManagerPin: deps.isManagerPin } : {}),
        ...deps.sharing,
      });
      service = opened;
      problem = null;
      for (const name of ENGINE_EVENTS) unsubscribes.push(opened.engine.on(name, (body) => deps.emit(name, body)));
      unsubscribes.push(opened.onIntake(intakeEvents(opened.engine, deps.emit, () => service === opened, trim)));
      // The host's collection pauses it: never in the middle of a packer's taps (heap-trim.ts).
      unsubscribes.push(opened.engine.on('outbox.changed', () => trim.tapped()));
      opened.engine.start();
      // Before intake's first pass: with a store hub, another counter may be the one that polls.
      deps.onActivated?.(opened, { environment: env, dataDir: engineDir(env) });
      // Orders come in by themselves, in training too: the first pass reads every seeded order
      // with a status call each, which takes seconds with thousands of them, so it runs after
      // start rather than before it. The queue fills in as intake stores them (orders.changed).
      opened.intake.start();
      log.info('engine started', { environment: env, orderService: hostOf(current.baseUrl) });
      deps.emit('sync.status', opened.engine.status());
    } catch (err) {
      const why = err instanceof ProblemError ? err.problem.message : 'The terminal could not start its engine; see the log.';
      log.error('engine could not start', { environment: env, error: err });
      await deactivate();
      problem = why;
    }
  };

  /** The engine's page check found its file damaged: open again (the file is set aside, its taps salvaged). */
  const reopenAfterDamage = (damaged: ServiceEngine): Promise<void> =>
    serially(async () => {
      if (service !== damaged) return;
      log.error('the data file is damaged; opening the engine again to set it aside');
      await deactivate();
      await activate();
    });

  const deactivate = async (): Promise<void> => {
    if (service) await deps.onDeactivating?.().catch((e: unknown) => log.error('the store hub did not let go of the engine', { error: e }));
    for (const u of unsubscribes) u();
    unsubscribes = [];
    trim.stop();
    const closing = service;
    service = null;
    problem = 'The terminal is switching services; try again in a moment.';
    if (closing) await closing.close();
  };

  return {
    start: () => serially(activate),
    stop: () =>
      serially(async () => {
        await deactivate();
        await closeSandbox();
        problem = 'The terminal has stopped.';
      }),
    switchTo: (env, addresses) =>
      serially(async () => {
        await deactivate();
        deps.settings.switchTo(env, addresses);
        await activate();
      }),
    service: () => service,
    engine: () => service?.engine ?? null,
    sandbox: () => sandbox,
    problem: () => problem,
  };
}
