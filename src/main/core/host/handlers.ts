/**
 * One handler per IPC command. Payloads arrive parsed (the dispatcher ran the contract's zod
 * schema); a handler checks the manager PIN first where the command needs it, then asks the
 * engine, the settings, the PIN store or the shell. Reads answer something useful even while the
 * engine is down (an empty queue, a status that says why); actions answer a Problem.
 */
import type { AppInfo, IntakeStatus, OrderView, SyncStatus, UpdateStatus } from '../../../shared/ipc';
import { CANCEL_REASONS, ITEM_UNIT_REASONS, findReason, type ActionInput } from '../../../shared/protocol';
import { summarize } from '../../../shared/orders';
import { fail, ok, type Problem, type Result } from '../../../shared/result';
import type { Engine } from '../engine';
import type { Logger } from '../log';
import type { PinStore } from '../pin';
import type { PrintPort } from '../print';
import type { SettingsStore } from '../settings';
import type { HandlerTable } from './dispatch';
import type { Runtime } from './runtime';
import type { CredentialsAnswer, CredentialsRequest } from './credentials';
import type { UpdateController } from './types';

export interface HandlerDeps {
  readonly runtime: Runtime;
  readonly settings: SettingsStore;
  readonly pins: PinStore | null;
  /** Why the PIN store could not be opened, or null. */
  readonly pinProblem: Problem | null;
  /** app.info, once the keychain check had a moment to answer. */
  readonly info: () => Promise<AppInfo>;
  readonly updates: UpdateController | undefined;
  readonly kiosk: { leave(): void } | undefined;
  /** Absent (browser harness): the page prints through the browser's own dialog. */
  readonly printing: PrintPort | undefined;
  readonly version: string;
  readonly shell: 'electron' | 'web';
  readonly saveCredentials: (request: CredentialsRequest) => Promise<Result<CredentialsAnswer>>;
  readonly exportBundle: () => Promise<Result<{ path: string }>>;
  readonly log: Logger;
}

/** A cancellation (or unit cut) whose reason is marked needsManager, e.g. FRAUD_PRESCRIPTION, needs the PIN. */
export function needsManager(input: ActionInput): boolean {
  if (input.kind === 'orderState' && input.reason) return findReason(CANCEL_REASONS, input.reason)?.needsManager === true;
  if (input.kind === 'units') return findReason(ITEM_UNIT_REASONS, input.reason)?.needsManager === true;
  return false;
}

const FETCH_PATIENCE_MS = 2_500;

/** Builds the handler table over the host's parts. */
export function createHandlers(deps: HandlerDeps): HandlerTable {
  const { runtime, settings, pins, log } = deps;

  const engineOr = <T>(use: (engine: Engine) => Result<T>): Result<T> => {
    const engine = runtime.engine();
    if (!engine) return fail('transient', runtime.problem() ?? 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
    return use(engine);
  };

  const pinUnavailable = (): Result<never> => ({
    ok: false,
    problem: deps.pinProblem ?? { kind: 'permanent', message: 'The manager PIN is unavailable.', code: 'PIN_UNAVAILABLE' },
  });

  /** Runs `run` only after the manager PIN checked out. */
  const withPin = async <T>(pin: string | undefined, run: () => Promise<Result<T>> | Result<T>): Promise<Result<T>> => {
    if (!pins) return pinUnavailable();
    if (pin === undefined) return fail('auth', 'The manager PIN is needed for this.', 'PIN_REQUIRED');
    const checked = await pins.check(pin);
    if (!checked.ok) {
      log.warn('manager PIN refused', { code: checked.problem.code });
      return checked;
    }
    return run();
  };

  const statusWithoutEngine = (): SyncStatus => ({
    connectivity: 'unknown',
    waiting: 0,
    failed: 0,
    toCheck: 0,
    oldestWaitingAt: null,
    lastSuccessAt: null,
    credentials: 'missing',
    backlogAlarm: false,
    clockSkewMs: null,
    message: runtime.problem(),
  });

  const updateStatus = (): UpdateStatus =>
    deps.updates?.status() ?? {
      state: 'disabled',
      currentVersion: deps.version,
      availableVersion: null,
      message: deps.shell === 'web' ? 'Updates are not used in the browser harness.' : 'Updates are turned off in this build.',
      lastCheckAt: null,
    };

  /** A scanned or typed id the terminal does not know: fetched with `status` at once, so its items show before Accept. */
  const fetchUnknown = async (view: OrderView): Promise<OrderView> => {
    const service = runtime.service();
    if (!service || service.engine.status().connectivity === 'offline') return view;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The packer waits at most this long; a slower answer still arrives as an orders.changed event.
    const patience = new Promise<void>((resolve) => (timer = setTimeout(resolve, FETCH_PATIENCE_MS)));
    await Promise.race([service.intake.fetchOrder(view.id).then(() => undefined), patience]);
    clearTimeout(timer);
    return runtime.engine()?.getOrder(view.id) ?? view;
  };

  const intakeWithoutEngine = (): IntakeStatus => ({
    condition: 'offline',
    lastCompleteAt: null,
    cursorAt: null,
    lastTriedAt: null,
    nextAt: null,
    intervalMs: settings.get().intakeIntervalMs,
    message: runtime.problem(),
  });

  return {
    'app.info': async () => ok(await deps.info()),
    // Queue rows, not whole views: 5,000 bodies are about 23 MB to carry and check on every start.
    'orders.list': async () => ok((runtime.engine()?.listOrders() ?? []).map(summarize)),
    'orders.get': async ({ orderId }) => engineOr((e) => ok(e.getOrder(orderId))),
    'orders.add': async ({ orderId }) => {
      const added = engineOr((e) => e.addOrder(orderId));
      if (!added.ok || added.value.order !== null) return added;
      return ok(await fetchUnknown(added.value));
    },
    'orders.remove': async ({ orderId }) => engineOr((e) => done(e.removeOrder(orderId))),
    'orders.acknowledge': async ({ orderId }) => engineOr((e) => done(e.acknowledgeAlarm(orderId))),
    'taps.submit': async ({ orderId, input, pin }) => {
      const tap = (): ReturnType<Engine['submitTap']> => engineOr((e) => e.submitTap(orderId, input));
      return needsManager(input) ? withPin(pin, tap) : tap();
    },
    'taps.undo': async ({ entryId }) => engineOr((e) => done(e.undo(entryId))),
    'outbox.list': async () => ok(runtime.engine()?.listOutbox() ?? []),
    'outbox.retry': async ({ entryId }) => engineOr((e) => done(e.retry(entryId))),
    'outbox.discard': async ({ entryId, pin }) =>
      withPin(pin, () =>
        engineOr((e) => {
          const r = e.discard(entryId);
          if (r.ok) log.warn('outbox entry discarded by a manager', { entryId });
          return done(r);
        }),
      ),
    'sync.status': async () => ok(runtime.engine()?.status() ?? statusWithoutEngine()),
    'intake.status': async () => ok(runtime.service()?.intake.status() ?? intakeWithoutEngine()),
    'intake.checkNow': async () => {
      const service = runtime.service();
      if (!service) return fail('transient', runtime.problem() ?? 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
      await service.intake.passOnce();
      return ok(service.intake.status());
    },
    'settings.get': async () => ok(settings.get()),
    'settings.update': async ({ pin, patch }) =>
      withPin(pin, () => {
        const next = settings.update(patch);
        runtime.engine()?.setOptions({ undoWindowMs: next.undoWindowMs, concurrency: next.concurrency });
        // A new provider id or interval: forget a refusal of access and check again at once.
        if (patch.serviceProviderId !== undefined || patch.intakeIntervalMs !== undefined) runtime.service()?.intake.settingsChanged();
        log.info('settings changed', { keys: Object.keys(patch) });
        return ok(next);
      }),
    'credentials.save': async ({ pin, serviceProviderId, ...request }) =>
      withPin(pin, async () => {
        // The provider id comes with the credentials in the marketplace's e-mail; it is a setting, not a secret.
        if (serviceProviderId !== undefined) settings.update({ serviceProviderId });
        const saved = await deps.saveCredentials(request);
        if (saved.ok && saved.value.result === 'saved') runtime.service()?.intake.settingsChanged();
        return saved;
      }),
    'pin.verify': async ({ pin }) => {
      if (!pins) return pinUnavailable();
      const r = await pins.verify(pin);
      return r.ok ? ok({ valid: r.value }) : r;
    },
    'pin.set': async ({ currentPin, newPin }) => {
      if (!pins) return pinUnavailable();
      const r = await pins.set(newPin, currentPin);
      if (r.ok) log.info('manager PIN set');
      return done(r);
    },
    'updates.status': async () => ok(updateStatus()),
    'updates.installNow': async ({ pin }) =>
      withPin(pin, async () => {
        if (!deps.updates) return fail('invalid', 'Updates are not available here.', 'UPDATES_DISABLED');
        return done(await deps.updates.installNow());
      }),
    'support.exportBundle': async ({ pin }) => withPin(pin, deps.exportBundle),
    'kiosk.leave': async ({ pin }) =>
      withPin(pin, () => {
        if (!deps.kiosk) return fail('invalid', 'This terminal is not in kiosk mode.', 'NOT_IN_KIOSK');
        deps.kiosk.leave();
        log.info('kiosk mode left by a manager');
        return ok({ done: true as const });
      }),
    'printers.list': async () => (deps.printing ? deps.printing.printers() : ok([])),
    'print.run': async ({ document, contentHeightMm }) => {
      if (!deps.printing) return ok({ outcome: 'browser' as const });
      const { paper, printer } = settings.get();
      const printed = await deps.printing.print({ paper, printer, contentHeightMm });
      if (printed.ok) log.info('printed', { document, paper, printer: printer ?? 'dialog', outcome: printed.value.outcome });
      else log.warn('printing failed', { document, paper, printer: printer ?? 'dialog', problem: printed.problem.message });
      return printed;
    },
  };
}

function done(r: Result<true>): Result<{ done: true }> {
  return r.ok ? ok({ done: true as const }) : r;
}
