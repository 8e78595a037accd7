/**
 * One handler per IPC command. Payloads arrive parsed (the dispatcher ran the contract's zod
 * schema); a handler checks the manager PIN first where the command needs it, then asks the
 * engine, the settings, the PIN store or the shell. Reads answer something useful even while the
 * engine is down (an empty queue, a status that says why); actions answer a Problem.
 */
import type { HostListener } from './events';
import { withSettingsNotice } from './settings-notice';
import { SEARCH_LIMIT, type AppInfo, type CsvSaved, type IntakeStatus, type PackerStatus, type ShiftCsvTable, type ShiftCsvWords, type SyncStatus, type UpdateStatus } from '../../../shared/ipc';
import { CANCEL_REASONS, ITEM_UNIT_REASONS, findReason, type ActionInput } from '../../../shared/protocol';
import { FIND_LIMIT, queueHead, summarize } from '../../../shared/orders';
import { fail, ok, type Problem, type Result } from '../../../shared/result';
import type { Engine } from '../engine';
import { storeSettingsOf } from '../hub/store-settings';
import type { Logger } from '../log';
import type { PinStore } from '../pin';
import type { PrintPort } from '../print';
import type { SettingsStore } from '../settings';
import type { HandlerTable } from './dispatch';
import type { Runtime } from './runtime';
import type { HubLink } from './hub';
import { awaitWithin, systemTimers } from '../time';
import type { QueueRows } from './queueRows';
import type { CredentialsAnswer, CredentialsRequest } from './credentials';
import type { UpdateController } from './types';

export interface HandlerDeps {
  readonly runtime: Runtime;
  /** The store hub: views with other counters' word, claims before taps, Settings -> Counters. */
  readonly hub: HubLink;
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
  /** Writes a day's shift as CSV where the manager finds it; answers the file's path. */
  readonly exportShiftCsv: (day: string, table: ShiftCsvTable, words: ShiftCsvWords) => Promise<Result<CsvSaved>>;
  /** Today's local day (YYYY-MM-DD), on the host's clock. */
  readonly today: () => string;
  /** The queue's rows for orders.head and orders.list (kept while nothing changes; listed ahead of a page's first ask, when the shell says one is coming). */
  readonly queue: QueueRows;
  readonly log: Logger;
  /** Events to the screens (the sync bar hears when a manager's save clears the settings problem). */
  readonly emit?: HostListener;
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
  const { runtime, settings, pins, log, hub } = deps;

  const noEngine = (): Result<never> =>
    fail('transient', runtime.problem() ?? 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
  const engineOr = <T>(use: (engine: Engine) => Result<T>): Result<T> => {
    const engine = runtime.engine();
    if (!engine) return noEngine();
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

  /**
   * A scanned or typed id the terminal does not know, asked of the service at once: its items show
   * before Accept, and an id the service does not know is never added. 'unknown' when the service
   * cannot be asked now (offline) or did not answer within the packer's patience.
   */
  const fetchUnknown = async (orderId: string): Promise<'found' | 'notFound' | 'unknown'> => {
    const service = runtime.service();
    if (!service || service.engine.status().connectivity === 'offline') return 'unknown';
    const fetching = service.intake.fetchOrder(orderId);
    // The packer waits at most this long; a slower answer still arrives as an orders.changed event.
    const report = await awaitWithin(fetching, FETCH_PATIENCE_MS, 'late' as const, systemTimers, { keepAlive: true });
    if (report === 'late') {
      // Added meanwhile as still unknown: a late "no such order" takes it off again, so it does not
      // wait for its items for good.
      void fetching.then((late) => {
        if (late.kind === 'notFound') dropUnknown(orderId);
      });
      return 'unknown';
    }
    if (report.kind === 'stored') return 'found';
    return report.kind === 'notFound' ? 'notFound' : 'unknown';
  };

  /** Takes off an order the service does not know, when nothing was tapped on it. */
  const dropUnknown = (orderId: string): void => {
    const engine = runtime.engine();
    const view = engine?.getOrder(orderId);
    if (!engine || !view || view.order !== null || view.waiting > 0 || view.failed > 0) return;
    const removed = engine.removeOrder(orderId);
    log.info('an id the order service does not know was taken off again', { ok: removed.ok });
  };

  const intakeWithoutEngine = (): IntakeStatus => ({
    condition: 'offline',
    lastCompleteAt: null,
    cursorAt: null,
    lastTriedAt: null,
    nextAt: null,
    intervalMs: settings.get().intakeIntervalMs,
    message: runtime.problem(),
    stillToFetch: 0,
  });

  return {
    'app.info': async () => ok(await deps.info()),
    // Queue rows, not whole views: 5,000 bodies are about 23 MB to carry and check on every start.
    'orders.list': async () => ok(deps.queue.rows()),
    'orders.get': async ({ orderId }) =>
      engineOr((e) => {
        const view = e.getOrder(orderId);
        return ok(view ? hub.decorate(view) : null);
      }),
    'orders.add': async ({ orderId }) => {
      const known = runtime.engine()?.getOrder(orderId);
      if (known?.order) return ok(hub.decorate(known));
      const fetched = await fetchUnknown(orderId);
      if (fetched === 'notFound') {
        // Added earlier while offline, perhaps: it is not waiting for items that will never come.
        if (known) dropUnknown(orderId);
        return fail('invalid', `The order service does not know order ${orderId}.`, 'ORDER_NOT_FOUND', { orderId });
      }
      return engineOr((e) => e.addOrder(orderId));
    },
    'orders.find': async ({ text }) =>
      engineOr((e) => {
        const { matches, more } = e.findOrders(text, FIND_LIMIT);
        return ok({ matches: matches.map(({ view, by }) => ({ order: summarize(hub.decorate(view)), by })), more });
      }),
    'orders.search': async ({ text, standing, day }) =>
      engineOr((e) => {
        const { hits, more } = e.searchOrders({ text, standing, day }, SEARCH_LIMIT);
        return ok({
          hits: hits.map(({ view, ...hit }) => ({ ...hit, order: view ? summarize(hub.decorate(view)) : null })),
          more,
        });
      }),
    'orders.remove': async ({ orderId }) => engineOr((e) => done(e.removeOrder(orderId))),
    'orders.head': async ({ rows }) => ok(queueHead(deps.queue.rows(), rows)),
    'orders.acknowledge': async ({ orderId }) => engineOr((e) => done(e.acknowledgeAlarm(orderId))),
    'taps.submit': async ({ orderId, input, pin }) => {
      const tap = async (): Promise<ReturnType<Engine['submitTap']>> => {
        // With a store hub, the order is claimed for this counter first: never two counters packing one order.
        const claimed = await hub.beforeTap(orderId, input);
        if (!claimed.ok) return claimed;
        return engineOr((e) => e.submitTap(orderId, input, claimed.value));
      };
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
    'sync.status': async () => ok(withSettingsNotice(runtime.engine()?.status() ?? statusWithoutEngine(), settings.problem())),
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
        const hadProblem = settings.problem() !== null;
        const next = settings.update(patch);
        // The engine's own status did not change, so it would not say so: the settings sentence goes now.
        if (hadProblem) deps.emit?.('sync.status', runtime.engine()?.status() ?? statusWithoutEngine());
        runtime.engine()?.setOptions({ undoWindowMs: next.undoWindowMs, concurrency: next.concurrency });
        // The store's settings (scan to pack, how long an order stays with its counter) go to every counter of its hub.
        hub.storeSettingsChanged(storeSettingsOf(patch));
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
      // The manager PIN stays apart from every packer's: a packer typing theirs must never unlock Settings.
      if (await runtime.engine()?.staff.isPackerPin(newPin))
        return fail('invalid', "A packer already has this PIN. The manager PIN must be different.", 'PIN_IS_PACKERS');
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
    'hub.status': async () => ok(hub.status()),
    'chain.status': async () => ok(await hub.chainStatus()),
    'chain.link': async ({ pin, link }) => withPin(pin, () => hub.linkChain(link)),
    'chain.unlink': async ({ pin }) => withPin(pin, () => hub.unlinkChain()),
    'orders.takeOver': async ({ orderId }) => hub.takeOver(orderId),
    'orders.settleConflict': async ({ orderId, keeperId }) => done(hub.settleConflict(orderId, keeperId)),
    'orders.putBack': async ({ orderId }) => done(hub.putBack(orderId)),
    'hub.create': async ({ pin, name }) => withPin(pin, () => hub.create(name ?? null)),
    'hub.joinCode': async ({ pin }) => withPin(pin, () => hub.joinCode()),
    'hub.join': async ({ pin, code, name }) => withPin(pin, () => hub.join(code, name ?? null)),
    'hub.leave': async ({ pin }) =>
      withPin(pin, async () => {
        const left = await hub.leave();
        return left.ok ? ok({ done: true as const }) : left;
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
    // The shift's figures are open to everyone at the counter: they name no customer, and a packer
    // sees how the shift goes as the manager does. The same for the CSV of them.
    'shift.report': async ({ day }) => engineOr((e) => ok(hub.shift(e, day ?? deps.today()))),
    'shift.exportCsv': async ({ day, table, words }) => deps.exportShiftCsv(day, table, words),
    'orders.timeline': async ({ orderId }) =>
      engineOr((e) => {
        const timeline = e.timeline(orderId);
        return timeline ? ok(timeline) : fail('invalid', `This terminal never had order ${orderId}.`, 'ORDER_NOT_FOUND', { orderId });
      }),
    'prints.record': async ({ orderId, document, outcome }) => engineOr((e) => done(e.recordPrint(orderId, document, outcome))),
    'staff.list': async ({ pin }) => withPin(pin, () => engineOr((e) => ok(e.staff.list()))),
    'staff.add': async ({ pin, name, packerPin }) =>
      withPin(pin, async () => {
        const engine = runtime.engine();
        if (!engine) return noEngine();
        const added = await engine.staff.add(name, packerPin);
        // Names are the store's own words; PINs never appear in a log line.
        if (added.ok) log.info('packer added to the staff list', { id: added.value.id, withPin: added.value.hasPin });
        return added;
      }),
    'staff.update': async ({ pin, id, name, packerPin, newBadge }) =>
      withPin(pin, async () => {
        const engine = runtime.engine();
        if (!engine) return noEngine();
        const patch = {
          ...(name !== undefined ? { name } : {}),
          ...(packerPin !== undefined ? { pin: packerPin } : {}),
          ...(newBadge ? { newBadge } : {}),
        };
        const updated = await engine.staff.update(id, patch);
        if (updated.ok) log.info('packer changed on the staff list', { id, keys: Object.keys(patch) });
        return updated;
      }),
    'staff.remove': async ({ pin, id }) => withPin(pin, () => engineOr((e) => done(e.staff.remove(id)))),
    'staff.current': async () => ok(packerStatus()),
    'staff.signIn': async (payload) => {
      const engine = runtime.engine();
      if (!engine) return noEngine();
      const r = 'badge' in payload ? engine.staff.signInByBadge(payload.badge) : await engine.staff.signInByPin(payload.packerPin);
      if (!r.ok) return r;
      log.info('packer signed in', { id: r.value.id, by: 'badge' in payload ? 'badge' : 'pin' });
      return ok(packerStatus());
    },
    'staff.signOut': async () => {
      runtime.engine()?.staff.signOut();
      return ok(packerStatus());
    },
    'packing.get': async ({ orderId }) => engineOr((e) => e.packState(orderId)),
    'packing.scan': async ({ orderId, code }) => engineOr((e) => e.packScan(orderId, code)),
    'packing.teach': async ({ orderId, code, itemId }) => engineOr((e) => e.packTeach(orderId, code, itemId)),
  };

  function packerStatus(): PackerStatus {
    const staff = runtime.engine()?.staff;
    return { packer: staff?.current() ?? null, named: staff?.named() ?? false };
  }
}

function done(r: Result<true>): Result<{ done: true }> {
  return r.ok ? ok({ done: true as const }) : r;
}
