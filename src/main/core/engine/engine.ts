/**
 * The engine facade: the one object the Electron shell, the web harness, the CLI and the tests
 * drive. It opens the store, puts the outbox (the queue) and the sync engine (the scheduler)
 * together, and turns their changes into the events, views and status of src/shared/ipc.ts.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { EventBody, EventName, OrderTimeline, OrderView, OrderPrint, OutboxEntryView, PackScanAnswer, PackState, ShiftReport, SyncStatus, Words } from '../../../shared/ipc';
import type { ActionInput, Order } from '../../../shared/protocol';
import type { MatchKind } from '../../../shared/orders';
import { fail, ok, type Problem, ProblemError, type Result } from '../../../shared/result';
import type { UpdateSender } from '../api/outcome';
import { TOKEN_SERVER_FAULT, TOKEN_UNUSABLE } from '../api/token-source';
import { CERTIFICATE_UNTRUSTED } from '../api/http';
import { CLOCK_SKEW_LIMIT_MS } from '../auth/expiry';
import {
  brokenFiles,
  checkLater,
  damageIn,
  DATA_FILE_NAME,
  describeSalvage,
  type EntryRow,
  type LaterCheck,
  markDamaged,
  openStore,
  type ShapingEntry,
  type Store,
  storageProblem,
} from '../db';
import { type Logger, silentLogger } from '../log';
import {
  createOutbox,
  DEFAULT_BACKOFF,
  entryView,
  FINISHED_KEEP_MS,
  HISTORY_KEEP_MS,
  type LeaseResult,
  orderView,
  type Outbox,
  Projector,
  type RetireCursor,
  mergeFinder,
  pruneHistory,
  reclaimSpace,
  retireFinished,
  type StatusCheck,
  type TapHubContext,
} from '../outbox';
import { searchOrders, type SearchHit, type SearchQuery } from '../search';
import { createShiftReader, keepDays, orderTimeline } from '../shift';
import { createSync, type OnlineSignal, type Sync } from '../sync';
import { createPacking, itemsNamed, type ProductElsewhere, type TaughtCodesSharing } from '../packing';
import { createStaff, type Staff, type StaffSharing } from '../staff';
import { sharedRecords, type SharedRecords } from './shared-records';
import { createEngineConflicts, type EngineConflicts } from './conflicts';
import { systemTimers, type Timers, TimerSlot } from '../time';
import { EventHub } from './events';

export interface EngineOptions {
  dataDir: string;
  sender: UpdateSender;
  terminalId: string;
  now?: () => number;
  random?: () => number;
  undoWindowMs?: number;
  concurrency?: number;
  backlogThresholdMs?: number;
  backoff?: { baseMs: number; capMs: number };
  online?: OnlineSignal;
  log?: Logger;
  /** Timers for retries, probes and the undo window (tests and benchmarks drive them). */
  timers?: Timers;
  /** How often to look for taps queued by another process, ms (default 5000). */
  pollMs?: number;
  /** How long stop() lets in-flight sends finish before aborting them, ms (default 3000). */
  stopGraceMs?: number;
  /** What the token manager knows of the credentials, so the status can tell "missing" from "rejected". */
  credentialsState?: () => 'unknown' | 'ok' | 'missing' | 'rejected';
  /** This terminal's clock minus the order service's, as the clock's witnesses tell it (ServiceClock), or null. */
  clockSkewMs?: () => number | null;
  /** The token server's clock reading less the order service's when they disagree, else null (ServiceClock). */
  clockDisagreementMs?: () => number | null;
  /**
   * Asked before resending an entry whose earlier attempt got no answer, and after a refusal that
   * may mean "already done" (decisions.md, "Check before resend"). Absent: resend as before.
   */
  statusCheck?: StatusCheck;
  /** The token manager's last problem getting a token (null once one is issued), for the status line. */
  tokenProblem?: () => Problem | null;
  /** The order service's certificate refusal on its last call, in words (null when it answers). */
  serviceCertificate?: () => string | null;
  /**
   * When the data file's pages are checked: 'now' (default) before the engine is built, or 'later'
   * on a worker thread from start() (the app: a packer can tap while a large file is read). Damage
   * found later marks the file (the next open sets it aside and salvages it) and calls onDamaged.
   */
  openingCheck?: 'now' | 'later';
  /** Told when the later check found the data file damaged: the host opens the engine again. */
  onDamaged?: (reason: string) => void;
  /** How long a finished order stays on the terminal once nothing happens to it, ms (default three days; retire.ts). */
  finishedKeepMs?: number;
  /** Tests only: when it first looks for finished orders after it starts sending, ms (default a minute). */
  retireFirstMs?: number;
  /** Whether a PIN is the manager's (counting no wrong guess): a packer's PIN may not be it. */
  isManagerPin?: (pin: string) => Promise<boolean>;
  /** scrypt cost of packers' PINs (tests lower it). */
  staffPinCost?: { N: number; r: number; p: number };
  /** The store hub's port for the staff list (issue 23; absent on one counter). */
  staffSharing?: StaffSharing;
  /** The store hub's port for taught barcodes (issue 23; absent on one counter). */
  taughtSharing?: TaughtCodesSharing;
}

export interface Engine {
  /** Recovers entries left `sending`, then starts draining. */
  start(): void;
  /** Stops timers, lets in-flight sends settle, closes the data file. */
  stop(): Promise<void>;
  /** A scanned or typed order id: returns the existing view or adds a new "unknown" order. */
  addOrder(orderId: string): Result<OrderView>;
  /** Takes an order none of whose taps reached the service off the terminal (its unsent taps are discarded). */
  removeOrder(orderId: string): Result<true>;
  /** Validates a tap against the projected order and queues it durably; with a store hub, `hub` says whether other counters could be checked. */
  submitTap(orderId: string, input: ActionInput, hub?: TapHubContext | null): Result<OutboxEntryView>;
  /** Takes a tap back, only inside the undo window and while queued. */
  undo(entryId: number): Result<true>;
  /** A person has seen the order's alarm (cancelled or changed elsewhere): it is no longer raised. */
  acknowledgeAlarm(orderId: string): Result<true>;
  /** Every tap of one order, finished ones too (an order's alarm explains its taps set aside). */
  entriesOf(orderId: string): OutboxEntryView[];
  /** A failed entry is queued again now (a backing-off one goes at the next chance). */
  retry(entryId: number): Result<true>;
  /** A failed or queued entry is discarded (the PIN is checked by the caller). */
  discard(entryId: number): Result<true>;
  listOrders(): OrderView[];
  getOrder(orderId: string): OrderView | null;
  /** Orders on the terminal that typed text finds (id, last digits, name, phone, invoice), most certain first. */
  findOrders(text: string, limit: number): { matches: { view: OrderView; by: MatchKind }[]; more: boolean };
  /** The Orders search: text or a day, orders gone from the terminal included, filtered (core/search). */
  searchOrders(query: SearchQuery, limit: number): { hits: SearchHit[]; more: boolean };
  listOutbox(options?: { includeDone?: boolean; limit?: number }): OutboxEntryView[];
  status(): SyncStatus;
  /** Sends what can be sent; with untilEmpty, until nothing more can go (or the timeout). */
  drain(options: { untilEmpty: boolean; timeoutMs: number }): Promise<{ sent: number; failed: number; remaining: number }>;
  /** The data file stopped taking writes (disk full, read-only): sending is paused; null when all is well. */
  storage(): Problem | null;
  /** New credentials were saved: resume a paused outbox. */
  credentialsChanged(): void;
  /** A token measured the clock difference anew: the status carries it. */
  clockSkewChanged(): void;
  /** Intake (beside the engine) set taps aside: the status counts them again. */
  tapsChangedElsewhere(): void;
  setOptions(patch: { undoWindowMs?: number; concurrency?: number }): void;
  lastTapAt(): number | null;
  sendingCount(): number;
  health(): { dataFile: string; integrity: 'ok' | string; schemaVersion: number };
  on<E extends EventName>(event: E, listener: (body: EventBody<E>) => void): () => void;
  /** A day's shift at this counter, from the terminal's own records (core/shift); with a store hub, the store's taps this counter holds too. */
  shift(day: string): ShiftReport;
  /** This counter's name in its store hub (null: none): its own taps are counted under it beside the other counters'. */
  setCounterName(name: string | null): void;
  /** The store hub's side of what the counters share (core/hub/store-records.ts): staff, taught barcodes, shift taps. */
  readonly shared: SharedRecords;
  /** Orders packed twice while counters could not see each other, and other counters' taps heard (engine/conflicts.ts). */
  readonly conflicts: EngineConflicts;
  /** What happened to an order on this terminal, oldest first; null when it never had it. */
  timeline(orderId: string): OrderTimeline | null;
  /** A slip or pick list of an order went to the printer: kept for its timeline. */
  recordPrint(orderId: string, document: OrderPrint, outcome: string): Result<true>;
  /** The store's packers and who is packing at this counter now (stamped on every tap). */
  readonly staff: Staff;
  /** An order's scan-to-pack counts and who marked it packed here. */
  packState(orderId: string): Result<PackState>;
  /** A product code scanned on an order being packed: ticks one unit, or says why not. */
  packScan(orderId: string, code: string): Result<PackScanAnswer>;
  /** "Which item is this?": remembers the barcode as the item's and ticks one unit of it. */
  packTeach(orderId: string, code: string, itemId: string): Result<PackScanAnswer>;
}

const DEFAULT_UNDO_MS = 5000;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_BACKLOG_MS = 15 * 60 * 1000;
const DEFAULT_LIST_LIMIT = 500;
const CHECKPOINT_DELAY_MS = 250;
/**
 * Finished orders are looked for a minute after the engine starts sending (not on the way to the
 * first tap), then every six hours: a walk through the orders, one short transaction a step, with
 * the event loop free in between (a tap waits at most one step).
 */
const RETIRE_FIRST_MS = 60_000;
const RETIRE_EVERY_MS = 6 * 60 * 60 * 1000;
const RETIRE_STEP_MS = 100;
/**
 * A file made before auto-vacuum is switched to it (one VACUUM of the whole file, retire.ts
 * reclaimSpace) only with no tap on this terminal for this long since the engine started (looked at
 * after a pruning run, and again each such period until it is quiet): the VACUUM
 * holds the main thread for as long as it takes (seconds for a year's history).
 */
const QUIET_FOR_SWITCH_MS = 10 * 60 * 1000;

/** Opens the data folder and builds the engine; throws ProblemError only when no data file can be used at all. */
export function createEngine(options: EngineOptions): Engine {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const timers = options.timers ?? systemTimers;
  const log = (options.log ?? silentLogger).child('engine');
  const openingCheck = options.openingCheck ?? 'now';
  const { store, notice: storeNotice, salvage: storeSalvage } = openOrReplace(options.dataDir, now, options.terminalId, log, openingCheck);

  let undoWindowMs = clamp(options.undoWindowMs ?? DEFAULT_UNDO_MS, 0, 60_000);
  let concurrency = clamp(options.concurrency ?? DEFAULT_CONCURRENCY, 1, 16);
  const backlogThresholdMs = options.backlogThresholdMs ?? DEFAULT_BACKLOG_MS;
  const hub = new EventHub(log);
  let started = false;
  let stopped = false;
  let lock: LeaseResult | null = null;
  // The data file refused the writes of taking the lease or recovering (disk full…), until they succeed.
  let startStorage: Problem | null = null;
  let lastTap: number | null = null;
  let startedAt: number | null = null;
  let lastStatusJson = '';
  // The later page check while it runs, and what it found wrong (until the host reopens the engine).
  let pageCheck: LaterCheck | null = null;
  let damage: string | null = null;

  const staff = createStaff({
    store,
    now,
    ...(options.isManagerPin ? { isManagerPin: options.isManagerPin } : {}),
    ...(options.staffPinCost ? { cost: options.staffPinCost } : {}),
    ...(options.staffSharing ? { sharing: options.staffSharing } : {}),
    onChange: (packer) => hub.emit('staff.changed', { packer, named: staff.named() }),
  });
  const packing = createPacking({
    store,
    now,
    packer: () => staff.packerName(),
    ...(options.taughtSharing ? { sharing: options.taughtSharing } : {}),
  });

  /** This counter's name in its store hub, or null (set by the host's hub binding). */
  let counterName: string | null = null;

  const projector = new Projector();
  const projectWith = (id: string, body: Order | null, entries: readonly ShapingEntry[], t: number): Order | null =>
    projector.project(id, body, entries, t);
  const outbox: Outbox = createOutbox({
    store,
    terminalId: options.terminalId,
    now,
    random,
    newRequestId: randomUUID,
    undoWindowMs: () => undoWindowMs,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    serviceNow: () => now() - (options.clockSkewMs?.() ?? 0),
    packer: () => staff.packerName(),
  });

  const sync: Sync = createSync(
    {
      outbox,
      sender: options.sender,
      ...(options.statusCheck ? { statusCheck: options.statusCheck } : {}),
      now,
      random,
      timers,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      concurrency: () => concurrency,
      online: options.online,
      log: log.child('sync'),
      pollMs: options.pollMs,
      stopGraceMs: options.stopGraceMs,
    },
    {
      claimed: (entries) => publish(entries, false),
      settled: (s) => publish([s.entry, ...(s.others ?? [])], s.orderChanged),
      changed: () => publishStatus(),
    },
  );

  // Re-evaluates the status when the oldest waiting tap crosses the backlog threshold.
  const backlogTimer = new TimerSlot(timers, now, () => publishStatus());
  // Folds the WAL into the main file shortly after writes, between taps rather than inside one.
  const checkpointTimer = new TimerSlot(timers, now, () => {
    if (stopped) return;
    try {
      store.checkpoint();
    } catch (e) {
      log.warn('checkpoint failed', { error: e });
    }
  });
  const wrote = (): void => checkpointTimer.arm(CHECKPOINT_DELAY_MS);
  // Finished orders leave the terminal; only the process that sends the queue does it.
  const retireTimer = new TimerSlot(timers, now, () => retireNow(), { keepAlive: false });
  // Where the walk through the orders is, and how many have left in it so far.
  let retiring: { after: RetireCursor | null; left: number } = { after: null, left: 0 };
  // Orders left but the WAL still holds older copies of their pages: emptied at the next walk.
  let walToEmpty = false;
  // After each walk, history past the keep period is pruned, a step at a time (retire.ts pruneHistory).
  const pruneTimer = new TimerSlot(timers, now, () => pruneNow(), { keepAlive: false });
  let pruned = { entries: 0, orders: 0 };
  // After each pruning run, the pages it freed go back to the disk, a step at a time (retire.ts reclaimSpace).
  // Between the two, the order finder's index is merged, a step at a time (retire.ts mergeFinder).
  const mergeTimer = new TimerSlot(timers, now, () => mergeNow(), { keepAlive: false });
  const reclaimTimer = new TimerSlot(timers, now, () => reclaimNow(), { keepAlive: false });
  let reclaimed = 0;

  const lockNotice = (): string | null =>
    lock && !lock.ok
      ? `Another Packdesk (process ${lock.holderPid}) is sending this terminal's queue; this one shows and queues taps only`
      : null;

  // ---- views -----------------------------------------------------------------------------------

  const ordersById = (ids: Iterable<string>): Map<string, Order | null> => {
    const out = new Map<string, Order | null>();
    for (const id of ids) if (!out.has(id)) out.set(id, store.orders.get(id)?.body ?? null);
    return out;
  };

  const entryViews = (entries: readonly EntryRow[]): OutboxEntryView[] => {
    const orders = ordersById(entries.map((e) => e.orderId));
    return entries.map((e) => entryView(e, orders.get(e.orderId) ?? null));
  };

  // A day's shift, kept until the data file changes (opening the Shift screen again costs nothing).
  const shiftOf = createShiftReader(store);

  const viewOf = (orderId: string): OrderView | null => {
    const row = store.orders.get(orderId);
    return row
      ? orderView(row, store.outbox.projectedForOrder(orderId), now(), projectWith, store.alarms.get(orderId), [...store.hubTaps.cutsForOrder(orderId), ...store.outbox.cutsForOrder(orderId)])
      : null;
  };

  const computeStatus = (): SyncStatus => {
    const counts = store.outbox.counts();
    const t = now();
    const backlogAlarm = counts.oldestWaitingAt !== null && t - counts.oldestWaitingAt >= backlogThresholdMs;
    if (!backlogAlarm && counts.oldestWaitingAt !== null && !stopped)
      backlogTimer.arm(counts.oldestWaitingAt + backlogThresholdMs - t);
    const connectivity = sync.connectivity();
    const known = options.credentialsState?.();
    const credentials: SyncStatus['credentials'] =
      known === 'missing' ? 'missing' : sync.credentials() === 'rejected' || known === 'rejected' ? 'rejected' : 'ok';
    const plainFailed = counts.failed - counts.mayBeApplied;
    const tokenProblem = options.tokenProblem?.() ?? null;
    const serviceCertificate = options.serviceCertificate?.() ?? null;
    // Whole seconds: each token measures it anew, network delay included, and the status is only
    // sent when it changes.
    const skew = options.clockSkewMs?.() ?? null;
    const clockSkewMs = skew === null ? null : Math.round(skew / 1000) * 1000;
    // Whole minutes: both readings move by a second or so with each answer.
    const apart = options.clockDisagreementMs?.() ?? null;
    const disagreementMs = apart === null ? null : Math.round(apart / 60_000) * 60_000;
    // The English sentence (CLI, logs, fallback) and the same by code and values for the renderer.
    let message: string | null = null;
    let notice: Words | null = null;
    const say = (text: string, code: string, values?: Words['values']): void => {
      message = text;
      notice = values === undefined ? { code } : { code, values };
    };
    const syncProblem = sync.problem();
    const lockHeld = lockNotice();
    if (damage) say(damagedWords(damage), 'STORE_DAMAGED');
    else if (storeNotice) say(storeNotice, 'STORE_REPLACED', storeSalvage ?? undefined);
    else if (startStorage) say(startStorage.message, 'STORAGE');
    else if (syncProblem) say(syncProblem, sync.storage() ? 'STORAGE' : 'SYNC_PROBLEM');
    else if (lockHeld) say(lockHeld, 'LOCK_HELD');
    // A certificate this computer refuses: the network is fine, and a person must look at the address or the certificate.
    else if (tokenProblem?.code === CERTIFICATE_UNTRUSTED)
      say(`${tokenProblem.message}. ${kept(counts.waiting)}`, 'CERTIFICATE', { count: counts.waiting });
    else if (serviceCertificate !== null)
      say(`${serviceCertificate}. ${kept(counts.waiting)}`, 'SERVICE_CERTIFICATE', { count: counts.waiting });
    // The token server answered but gave nothing usable: say so, rather than "no connection" or "rejected credentials".
    else if (tokenProblem && (tokenProblem.code === TOKEN_SERVER_FAULT || tokenProblem.code === TOKEN_UNUSABLE))
      say(`${tokenProblem.message}. ${kept(counts.waiting)}`, 'TOKEN_SERVER', { count: counts.waiting });
    else if (credentials === 'missing')
      say(
        `No credentials are saved for the order service. ${kept(counts.waiting)}; a manager must enter the client id and secret in Settings`,
        'CREDENTIALS_MISSING',
        { count: counts.waiting },
      );
    else if (credentials === 'rejected')
      say(
        `The order service rejected this terminal's credentials. ${kept(counts.waiting)}; a manager must enter new credentials in Settings`,
        'CREDENTIALS_REJECTED',
        { count: counts.waiting },
      );
    else if (connectivity === 'offline')
      say(`No connection to the order service. ${kept(counts.waiting)} and will be sent when it is back`, 'OFFLINE', {
        count: counts.waiting,
      });
    else if (counts.mayBeApplied > 0)
      say(
        `${counts.mayBeApplied} tap(s) may already have been applied by the service: check the order before retrying or discarding`,
        'TO_CHECK',
        { count: counts.mayBeApplied },
      );
    else if (plainFailed > 0)
      say(`${plainFailed} tap(s) were refused by the service and hold their orders: retry or discard them`, 'REFUSED', {
        count: plainFailed,
      });
    else if (backlogAlarm)
      say(`A tap has waited more than ${spanWords(backlogThresholdMs)} to be sent: check the connection`, 'BACKLOG', {
        thresholdMs: backlogThresholdMs,
      });
    else if (disagreementMs !== null)
      say(
        `The token server's clock and the order service's disagree by ${spanWords(Math.abs(disagreementMs))}; new orders are read on both clocks, so none is missed. Tell support`,
        'CLOCKS_DISAGREE',
        { offsetMs: Math.abs(disagreementMs) },
      );
    else if (clockSkewMs !== null && Math.abs(clockSkewMs) > CLOCK_SKEW_LIMIT_MS) {
      const ahead = clockSkewMs > 0;
      say(
        `This computer's clock is ${spanWords(Math.abs(clockSkewMs))} ${ahead ? 'ahead of' : 'behind'} the order service's; countdowns follow the service's clock. Have the computer's clock set right`,
        ahead ? 'CLOCK_AHEAD' : 'CLOCK_BEHIND',
        { offsetMs: Math.abs(clockSkewMs) },
      );
    }
    return {
      connectivity,
      waiting: counts.waiting,
      failed: plainFailed,
      toCheck: counts.mayBeApplied,
      oldestWaitingAt: counts.oldestWaitingAt,
      lastSuccessAt: sync.lastSuccessAt(),
      credentials,
      backlogAlarm,
      clockSkewMs,
      message,
      notice,
    };
  };

  // ---- events ----------------------------------------------------------------------------------

  /** The status; on a damaged file whose counts cannot be read, what can still be said. */
  function currentStatus(): SyncStatus {
    try {
      return computeStatus();
    } catch (e) {
      if (!damaged(e)) throw e;
      return {
        connectivity: sync.connectivity(),
        waiting: 0,
        failed: 0,
        toCheck: 0,
        oldestWaitingAt: null,
        lastSuccessAt: sync.lastSuccessAt(),
        credentials: 'ok',
        backlogAlarm: false,
        clockSkewMs: null,
        message: damagedWords(damage ?? ''),
        notice: { code: 'STORE_DAMAGED' },
      };
    }
  }

  function publishStatus(): void {
    if (stopped || !hub.wanted('sync.status')) return;
    try {
      const status = currentStatus();
      const json = JSON.stringify(status);
      if (json === lastStatusJson) return;
      lastStatusJson = json;
      hub.emit('sync.status', status);
    } catch (e) {
      log.error('status failed', { error: e });
    }
  }

  function publish(entries: readonly EntryRow[], alwaysOrders: boolean): void {
    if (stopped) return;
    wrote();
    try {
      // Orders first: the order's new state is what the packer waits to see after a tap, and each
      // event is its own message for the page to parse.
      if (hub.wanted('orders.changed') && (entries.length > 0 || alwaysOrders)) {
        const views = [...new Set(entries.map((e) => e.orderId))].map(viewOf).filter((v): v is OrderView => v !== null);
        if (views.length > 0) hub.emit('orders.changed', { orders: views });
      }
      if (hub.wanted('outbox.changed') && entries.length > 0) hub.emit('outbox.changed', { entries: entryViews(entries) });
    } catch (e) {
      if (!damaged(e)) log.error('publishing changes failed', { error: e });
    }
    publishStatus();
  }

  // ---- guarded calls ---------------------------------------------------------------------------

  const guard = <T>(fn: () => Result<T>): Result<T> => {
    if (stopped) return fail('permanent', 'Packdesk is shutting down; try again when it is back', 'STOPPED');
    try {
      return fn();
    } catch (e) {
      if (e instanceof ProblemError) return { ok: false, problem: e.problem };
      // A full disk is said as one (the CLI's exit 6), not as a data file support must look at.
      const storage = storageProblem(e);
      if (storage) return fail('storage', storage.code === 'STORE_FULL' ? 'The disk holding the data file is full: this was not saved. Free disk space, then try again' : storage.message, storage.code);
      if (damaged(e))
        return fail('permanent', 'The data file is damaged: Packdesk sets it aside and starts a new one with the taps it can read', 'STORE_BROKEN');
      log.error('engine call failed', { error: e });
      return fail('permanent', `The data file could not be used: ${e instanceof Error ? e.message : String(e)}`, 'STORE_ERROR');
    }
  };

  const afterChange = (entry: EntryRow): void => {
    publish([entry], false);
    sync.wake();
  };

  // While another process holds the sender lock (a CLI drain), try again now and then.
  const lockRetry = new TimerSlot(timers, now, () => takeLockAndSend());

  /** Runs from a timer too: it never throws (a failure is logged, said in the status, and tried again). */
  function takeLockAndSend(): void {
    if (stopped) return;
    try {
      lock = outbox.takeLease();
      startStorage = null;
    } catch (e) {
      lock = null;
      startStorage = storageProblem(e);
      log.error('the sender lease could not be taken', { error: e });
      publishStatus();
      lockRetry.arm(options.pollMs ?? 5000);
      return;
    }
    if (!lock.ok) {
      log.warn('another process sends this queue', { pid: lock.holderPid });
      publishStatus();
      lockRetry.arm(options.pollMs ?? 5000);
      return;
    }
    try {
      const recovered = outbox.recover();
      if (recovered.length > 0) {
        log.warn('entries left sending were queued again', { count: recovered.length });
        publish(recovered, false);
      }
      store.audit.prune(now() - HISTORY_KEEP_MS);
      store.storeTaps.prune(now() - HISTORY_KEEP_MS);
      store.hubTaps.prune(now() - HISTORY_KEEP_MS);
    } catch (e) {
      log.error('recovery failed', { error: e });
    }
    sync.start();
    publishStatus();
    retireTimer.arm(options.retireFirstMs ?? RETIRE_FIRST_MS);
  }

  /** The page check beside the engine ('later'): damage marks the file and is said at once. */
  function checkPagesLater(): void {
    if (stopped) return;
    pageCheck = checkLater(store.file);
    void pageCheck.result.then((found) => {
      pageCheck = null;
      if (stopped) return;
      if (found.kind === 'unchecked') log.warn('the data file could not be checked', { reason: found.reason });
      else if (found.kind === 'damaged') foundDamage(found.reason);
    });
  }

  /**
   * The file is damaged (the later check, or SQLite reading a bad page meanwhile): marked, so the
   * next open sets it aside and salvages it, said in the status, and told to the host once.
   */
  function foundDamage(reason: string): void {
    if (damage !== null || stopped) return;
    log.error('the data file is damaged', { reason });
    damage = reason;
    try {
      markDamaged(store.file, reason);
    } catch (e) {
      log.error('the damaged data file could not be marked', { error: e });
    }
    publishStatus();
    options.onDamaged?.(reason);
  }

  /** One step of the walk that takes finished orders off the terminal (retire.ts); runs from a timer, never throws. */
  function retireNow(): void {
    if (stopped) return;
    try {
      // Each finished day's figures are kept before its orders' details can leave (core/shift).
      if (retiring.after === null && keepDays(store, { now: now(), terminal: options.terminalId, counterName }).length > 0) wrote();
      const step = retireFinished(store, { now: now(), keepMs: options.finishedKeepMs ?? FINISHED_KEEP_MS, after: retiring.after });
      retiring = { after: step.next, left: retiring.left + step.orderIds.length };
      if (step.orderIds.length > 0) {
        wrote();
        hub.emit('orders.removed', { orderIds: [...step.orderIds] });
      }
      if (step.next !== null) return retireTimer.arm(RETIRE_STEP_MS);
      if (retiring.left > 0) log.info('finished orders left the terminal', { count: retiring.left });
      if (retiring.left > 0 || walToEmpty) {
        // Older copies of their pages go from the WAL too; while another process reads the file, at the next walk.
        walToEmpty = !store.emptyWal();
        if (walToEmpty) log.info('the WAL could not be emptied now (another process reads the data file)');
      }
    } catch (e) {
      if (!damaged(e)) log.warn('finished orders could not be taken off the terminal', { error: e });
    }
    retiring = { after: null, left: 0 };
    retireTimer.arm(RETIRE_EVERY_MS);
    pruneTimer.arm(RETIRE_STEP_MS);
  }

  /** One step of pruning history past the keep period; runs from a timer after a walk, never throws. */
  function pruneNow(): void {
    if (stopped) return;
    try {
      const step = pruneHistory(store, { now: now(), keepMs: HISTORY_KEEP_MS, terminal: options.terminalId });
      pruned = { entries: pruned.entries + step.entries, orders: pruned.orders + step.orders };
      if (step.entries + step.orders > 0) wrote();
      if (step.more) return pruneTimer.arm(RETIRE_STEP_MS);
      if (pruned.entries + pruned.orders > 0) log.info('history past the keep period was pruned', pruned);
    } catch (e) {
      if (!damaged(e)) log.warn('history could not be pruned', { error: e });
    }
    pruned = { entries: 0, orders: 0 };
    mergeTimer.arm(RETIRE_STEP_MS);
  }

  /** One step of merging the order finder's index after pruning; runs from a timer, never throws. */
  function mergeNow(): void {
    if (stopped) return;
    try {
      if (mergeFinder(store)) {
        wrote();
        return mergeTimer.arm(RETIRE_STEP_MS);
      }
    } catch (e) {
      if (!damaged(e)) log.warn("the order finder's index could not be merged", { error: e });
    }
    reclaimTimer.arm(RETIRE_STEP_MS);
  }

  /** One step of giving freed pages back to the disk (or the one-time switch to do so); runs from a timer after pruning, never throws. */
  function reclaimNow(): void {
    if (stopped) return;
    try {
      // No tap since the start counts from the start: right after a start (a packer about to work,
      // or a CLI command among other processes on the file) is never quiet.
      const quiet = now() - (lastTap ?? startedAt ?? now()) >= QUIET_FOR_SWITCH_MS;
      const step = reclaimSpace(store, { quiet });
      if (step.kind === 'given-back') {
        reclaimed += step.pages;
        // The file is cut to its new end when the WAL is folded back.
        if (step.pages > 0) wrote();
        if (step.more) return reclaimTimer.arm(RETIRE_STEP_MS);
        if (reclaimed > 0) log.info('free pages were given back to the disk', { pages: reclaimed });
      } else if (step.kind === 'switched') {
        log.info('the data file now gives its free pages back to the disk (one-time VACUUM)', { bytesBefore: step.bytesBefore, pagesAfter: step.pagesAfter, ms: step.ms });
      } else if (step.kind === 'no-room') {
        log.warn('the data file waits for room on the disk to give its free pages back', { needBytes: step.needBytes, freeBytes: step.freeBytes, where: step.where });
      }
      // Not quiet: looked at again once it could be (a busy store may never be quiet at a pruning run).
      else if (step.kind === 'not-quiet') reclaimTimer.arm(QUIET_FOR_SWITCH_MS);
    } catch (e) {
      if (!damaged(e)) log.warn('free pages could not be given back to the disk', { error: e });
    }
    reclaimed = 0;
  }

  /** True when `e` said the file is damaged (and that is now handled). */
  const damaged = (e: unknown): boolean => {
    const reason = damageIn(e);
    if (reason !== null) foundDamage(reason);
    return reason !== null;
  };

  const start = (): void => {
    if (started || stopped) return;
    started = true;
    startedAt = now();
    takeLockAndSend();
    // Right after the start, not inside it: starting the worker thread is itself a few ms of this thread.
    if (openingCheck === 'later') timers.setTimeout(() => checkPagesLater(), 0);
  };

  return {
    start,

    async stop() {
      if (stopped) return;
      lockRetry.clear();
      pageCheck?.cancel();
      await sync.stop();
      stopped = true;
      backlogTimer.clear();
      checkpointTimer.clear();
      retireTimer.clear();
      pruneTimer.clear();
      mergeTimer.clear();
      reclaimTimer.clear();
      hub.clear();
      try {
        if (lock?.ok) lock.release();
      } catch (e) {
        // Left in the file: the next process finds this one gone and takes it over.
        log.warn('the sender lease could not be released', { error: e });
      }
      store.close();
    },

    addOrder(orderId) {
      return guard(() => {
        const r = outbox.addOrder(orderId);
        if (!r.ok) return r;
        const view = viewOf(r.value.row.id);
        if (!view) return fail('permanent', `Order ${r.value.row.id} could not be read back`, 'STORE_ERROR');
        if (r.value.added) wrote();
        if (r.value.added && hub.wanted('orders.changed')) hub.emit('orders.changed', { orders: [view] });
        return ok(view);
      });
    },

    removeOrder(orderId) {
      return guard(() => {
        const r = outbox.removeOrder(orderId);
        if (!r.ok) return r;
        wrote();
        if (r.value.length > 0) publish(r.value, false);
        else publishStatus();
        // Every screen hears of it (another window, or none asked: a late "no such order").
        hub.emit('orders.removed', { orderIds: [orderId.trim()] });
        return ok(true as const);
      });
    },

    submitTap(orderId, input, hubContext = null) {
      return guard(() => {
        const r = outbox.enqueue(orderId, input, hubContext);
        if (!r.ok) return r;
        lastTap = now();
        afterChange(r.value.entry);
        return ok(entryView(r.value.entry, r.value.order));
      });
    },

    undo(entryId) {
      return guard(() => {
        const r = outbox.undo(entryId);
        if (!r.ok) return r;
        afterChange(r.value);
        return ok(true as const);
      });
    },

    acknowledgeAlarm(orderId) {
      return guard(() => {
        const id = orderId.trim();
        // The alarm's row keeps when it was acknowledged.
        const known = store.transaction(() => store.alarms.acknowledge(id, now()));
        if (!known) return fail('invalid', `Order ${id} has no alarm to acknowledge`, 'NO_ALARM', { orderId: id });
        wrote();
        const view = viewOf(id);
        if (view && hub.wanted('orders.changed')) hub.emit('orders.changed', { orders: [view] });
        return ok(true as const);
      });
    },

    entriesOf(orderId) {
      if (stopped) return [];
      return entryViews(store.outbox.forOrder(orderId.trim()));
    },

    retry(entryId) {
      return guard(() => {
        const r = outbox.retry(entryId);
        if (!r.ok) return r;
        afterChange(r.value);
        return ok(true as const);
      });
    },

    discard(entryId) {
      return guard(() => {
        const r = outbox.discard(entryId);
        if (!r.ok) return r;
        afterChange(r.value);
        return ok(true as const);
      });
    },

    listOrders() {
      if (stopped) return [];
      const byOrder = new Map<string, EntryRow[]>();
      for (const e of store.outbox.projectedAll()) {
        const list = byOrder.get(e.orderId);
        if (list) list.push(e);
        else byOrder.set(e.orderId, [e]);
      }
      const t = now();
      const alarms = store.alarms.open();
      return store.orders.list().map((row) => {
        try {
          return orderView(row, byOrder.get(row.id) ?? [], t, projectWith, alarms.get(row.id));
        } catch (e) {
          // One order whose taps cannot be laid over its body is set aside, never the whole queue.
          log.error('an order could not be shown', { orderId: row.id, error: e });
          return orderView({ ...row, body: null, bodyUnreadable: true, needsRefresh: true }, [], t);
        }
      });
    },

    getOrder(orderId) {
      if (stopped) return null;
      return viewOf(orderId.trim());
    },

    shift(day) {
      return { ...shiftOf({ day, terminal: options.terminalId, counterName }), counterName };
    },

    setCounterName(name) {
      counterName = name;
    },

    shared: sharedRecords({ store, staff, packing, now, log }),

    conflicts: createEngineConflicts({ store, packing, now, order: (id) => viewOf(id)?.order ?? null }),

    timeline(orderId) {
      if (stopped) return null;
      return orderTimeline(store, orderId.trim(), { terminal: options.terminalId, counterName });
    },

    recordPrint(orderId, document, outcome) {
      return guard(() => {
        store.transaction(() => store.history.addPrint({ orderId: orderId.trim(), document, time: now(), terminal: options.terminalId, outcome }));
        wrote();
        return ok(true as const);
      });
    },

    findOrders(text, limit) {
      if (stopped) return { matches: [], more: false };
      const { found, more } = store.search.find(text, limit);
      const matches = found.flatMap(({ id, by }) => {
        const view = viewOf(id);
        return view ? [{ view, by }] : [];
      });
      return { matches, more };
    },

    searchOrders(query, limit) {
      if (stopped) return { hits: [], more: false };
      return searchOrders(store.search, viewOf, query, limit);
    },

    listOutbox(listOptions = {}) {
      if (stopped) return [];
      const limit = clamp(listOptions.limit ?? DEFAULT_LIST_LIMIT, 1, 100_000);
      return entryViews(listOptions.includeDone ? store.outbox.recent(limit) : store.outbox.pending(limit));
    },

    status() {
      return currentStatus();
    },

    async drain(drainOptions) {
      if (stopped) return { sent: 0, failed: 0, remaining: 0 };
      start();
      if (!lock?.ok) {
        // An explicit drain tries for the lock at once rather than at the next retry.
        lockRetry.clear();
        takeLockAndSend();
      }
      if (!lock?.ok) return { sent: 0, failed: 0, remaining: store.outbox.counts().waiting };
      return sync.drain({ untilEmpty: drainOptions.untilEmpty, timeoutMs: Math.max(0, drainOptions.timeoutMs) });
    },

    storage: () => startStorage ?? sync.storage(),

    credentialsChanged() {
      sync.credentialsChanged();
    },

    clockSkewChanged() {
      publishStatus();
    },

    tapsChangedElsewhere() {
      publishStatus();
    },

    setOptions(patch) {
      if (patch.undoWindowMs !== undefined) undoWindowMs = clamp(patch.undoWindowMs, 0, 60_000);
      if (patch.concurrency !== undefined) concurrency = clamp(patch.concurrency, 1, 16);
      sync.wake();
    },

    lastTapAt: () => lastTap,
    sendingCount: () => sync.inFlight(),

    health() {
      const current = stopped ? 'ok' : store.integrity();
      const setAside = brokenFiles(options.dataDir);
      let integrity: string = current;
      if (storeNotice) integrity = storeNotice;
      else if (current === 'ok' && setAside.length > 0)
        integrity = `a damaged data file was set aside earlier (${setAside.join(', ')}); give it to support, then delete it. ${lastSalvage(store)}`.trim();
      return { dataFile: store.file, integrity, schemaVersion: store.schemaVersion };
    },

    on(event, listener) {
      return hub.on(event, listener);
    },

    staff,

    packState(orderId) {
      return guard(() => ok(packStateOf(orderId.trim())));
    },

    packScan(orderId, code) {
      return packWith(orderId, (order) => packing.scan(order, code, (c) => productOnTerminal(c, order.id)));
    },

    packTeach(orderId, code, itemId) {
      return packWith(orderId, (order) => packing.teach(order, code, itemId));
    },
  };

  /** Runs one scan-to-pack step on the order as the screen shows it; answers its outcome with the counts after it. */
  function packWith(orderId: string, step: (order: Order) => ReturnType<typeof packing.scan>): Result<PackScanAnswer> {
    return guard(() => {
      const order = packable(orderId.trim());
      if (!order.ok) return order;
      const r = step(order.value);
      if (!r.ok) return r;
      wrote();
      return ok(scanAnswer(order.value.id, r.value));
    });
  }

  /** The product `code` is an item code of in other orders on the terminal, and up to three of them (a walk over the held bodies: a scan, not a tap). */
  function productOnTerminal(code: string, except: string): ProductElsewhere | null {
    let name: string | null = null;
    const orderIds: string[] = [];
    for (const row of store.orders.list()) {
      if (row.body === null || row.body.id === except) continue;
      const item = itemsNamed(row.body, code, null)[0];
      if (!item) continue;
      name ??= item.name ?? null;
      if (orderIds.length < 3) orderIds.push(row.body.id);
    }
    return orderIds.length > 0 ? { name, orderIds } : null;
  }

  /** The order as the screen shows it (taps waiting applied), when it has details to pack. */
  function packable(orderId: string): Result<Order> {
    const order = viewOf(orderId)?.order;
    if (!order) return fail('invalid', `Order ${orderId} has no items on this terminal yet`, 'PACK_NO_DETAILS', { orderId });
    return ok(order);
  }

  function scanAnswer(orderId: string, scan: ReturnType<typeof packing.scan> extends Result<infer S> ? S : never): PackScanAnswer {
    return {
      outcome: scan.kind,
      ...('itemId' in scan ? { itemId: scan.itemId } : {}),
      ...(scan.kind === 'notInOrder' && scan.product ? { product: { name: scan.product.name, orderIds: [...scan.product.orderIds] } } : {}),
      state: packStateOf(orderId),
    };
  }

  /** Counts, and the packer of the order's latest PACKED tap on this counter that was not taken back or discarded. */
  function packStateOf(orderId: string): PackState {
    const packed = store.outbox
      .forOrder(orderId)
      .filter((e) => e.state !== 'discarded' && e.action.type === 'ORDER_FULFILMENT_STATE_UPDATE' && e.action.fulfillmentState === 'PACKED')
      .at(-1);
    const counts = packing.counts(orderId);
    // Packed at another counter of the store: who and where, as heard through the hub (a slip reprinted here says so too).
    const elsewhere = packed === undefined ? store.hubTaps.packedBy(orderId) : null;
    return {
      orderId,
      items: [...counts.items],
      packedBy: packed?.packer ?? elsewhere?.packer ?? null,
      packedHere: packed !== undefined,
      packedAt: packed !== undefined ? counterName : (elsewhere?.counterName ?? null),
    };
  }
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(n)));
}

/** What the last salvage recovered, in words, from the audit log ('' when it is no longer there). */
function lastSalvage(store: Store): string {
  return store.audit.lastOutcome('recover', 'salvaged')?.message ?? '';
}

/**
 * Opens the store; a damaged file has been set aside by openStore, and only then is a fresh one
 * created, with the event written to the new file's audit log, the log and the status line.
 */
/** What the manager is told of a damaged file's taps: how many were carried over and how many could not be read ('?' unknown). */
type SalvageWords = { recovered: number; lost: number | string };

function openOrReplace(
  dataDir: string,
  now: () => number,
  terminalId: string,
  log: Logger,
  openingCheck: 'now' | 'later',
): { store: Store; notice: string | null; salvage: SalvageWords | null } {
  let setAside: string | null = null;
  const first = openStore({ dataDir, now, openingCheck, onSetAside: (target) => (setAside = target) });
  if (first.ok) return { store: first.value, notice: null, salvage: null };
  if (first.problem.code !== 'STORE_BROKEN') throw new ProblemError(first.problem);
  log.error('data file damaged and set aside; starting a new one', { message: first.problem.message });
  const fresh = openStore({ dataDir, now });
  if (!fresh.ok) throw new ProblemError(fresh.problem);
  // Queued taps must not silently leave the queue: carry over whatever SQLite can still read.
  let salvaged = 'No taps could be recovered from it; taps in it were not sent by this terminal.';
  let empty = true;
  let salvage: SalvageWords = { recovered: 0, lost: '?' };
  if (setAside !== null) {
    try {
      const report = fresh.value.salvageFrom(setAside, now());
      salvaged = describeSalvage(report);
      empty = report.tapsRecovered === 0 && report.ordersRecovered === 0;
      salvage = { recovered: report.tapsRecovered, lost: report.tapsLost ?? '?' };
      log.warn('salvaged the damaged data file', { ...report });
    } catch (e) {
      log.error('salvage of the damaged data file failed', { error: e });
    }
  }
  // What was saved comes first: the sync bar shows one line, and this is what the manager must know.
  const notice = `Damaged data file replaced. ${salvaged} ${first.problem.message} A new${empty ? ', empty' : ''} data file was started at ${path.join(dataDir, DATA_FILE_NAME)}.`;
  fresh.value.transaction(() => {
    fresh.value.audit.add({ time: now(), terminal: terminalId, kind: 'recover', outcome: 'store-replaced', message: notice });
    fresh.value.audit.add({ time: now(), terminal: terminalId, kind: 'recover', outcome: 'salvaged', message: salvaged });
  });
  return { store: fresh.value, notice, salvage };
}

function damagedWords(reason: string): string {
  return `The data file is damaged (${reason}). Packdesk sets it aside and starts a new one with the taps it can read`;
}

/** What is kept while taps cannot go: never "0 tap(s) are kept" (the words for nothing waiting say what a tap made now does). */
function kept(waiting: number): string {
  return waiting === 0 ? 'Taps made meanwhile are kept' : `${waiting} tap(s) are kept`;
}

/** A span in words, the backlog threshold or a clock difference ("15 minutes", "45 seconds"): never "0 minutes". */
function spanWords(ms: number): string {
  if (ms >= 60_000) {
    const minutes = Math.round(ms / 60_000);
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
