/**
 * Order intake: orders arrive by themselves. On a timer (default 30 s, never more often than 10 s)
 * it runs a pass (pass.ts); 429/5xx and network failures back off (Retry-After honoured); a 403/404
 * on a read call is said once and nothing is polled again until the settings change. Between passes
 * — or while intake cannot poll — a light probe keeps the reachability signal true to life.
 * Scanned ids the terminal does not know are fetched at once with `status`. A storage failure (a full
 * disk) stops the pass, is said in the status, and the timer tries again: nothing is lost, as every
 * page and body is kept in SQLite before the cursor moves past it.
 */
import { buildChangesRequest } from '../../../shared/protocol/intake';
import { type IntakeState, type PendingId, storageProblem } from '../db';
import { type BackoffPolicy, backoffDelay } from '../outbox/backoff';
import type { Logger } from '../log';
import { type Timers, TimerSlot } from '../time';
import { DEFAULT_MAX_PAGES_PER_PASS, type PassResult, runPass } from './pass';
import { accessOf, type AccessReport, type FetchReport, type PassReport, STORE_FULL_SAID, stillToFetchSaid } from './reports';
import type { IntakeReader, IntakeStore } from './ports';
import type { IntakeStatus } from '../../../shared/ipc';
import type { ServiceNow } from '../time/service-clock';

export const DEFAULT_INTAKE_INTERVAL_MS = 30_000;
/** The platform rate-limits `changes`; decisions.md: never more often than every 10 s. */
export const MIN_INTAKE_INTERVAL_MS = 10_000;
export const DEFAULT_OVERLAP_MS = 2 * 60_000;
const DEFAULT_LOOKBACK_MS = 24 * 60 * 60_000;
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 5 * 60_000 };
/** An id whose `status` answer failed is asked again after this backoff (full jitter, capped at 10 minutes). */
const FETCH_RETRY: BackoffPolicy = { baseMs: 30_000, capMs: 10 * 60_000 };
/** Ids still to fetch named in a report at most. */
const PENDING_SHOWN = 20;
/** While the outbox is sending, a pass looks again this often before its next read. */
export const OUTBOX_WAIT_MS = 100;
/** A resumed intake (this counter took the store's intake lease) reads soon, after the hand-over settles. */
const RESUME_DELAY_MS = 50;

export interface IntakeOptions {
  readonly reader: IntakeReader;
  readonly store: IntakeStore;
  /** The store's service provider id from settings; null: intake cannot poll (scan/type still fetches). */
  readonly serviceProviderId: () => string | null;
  /** A fingerprint of the settings a refusal of access was said for (addresses, provider id, client). */
  readonly settingsKey: () => string;
  readonly now: () => number;
  /**
   * The order service's clock as its witnesses read it (core/time/service-clock), which the
   * windows of `changes` are read on: on a terminal whose clock runs ahead, windows on its own
   * clock start after changes the service has yet to stamp, and those orders never arrive.
   * Default: `now`.
   */
  readonly serviceNow?: () => Promise<ServiceNow>;
  readonly random: () => number;
  readonly timers: Timers;
  readonly newRequestId: () => string;
  /** Poll interval, ms; raised to `minIntervalMs` when lower. */
  readonly intervalMs: () => number;
  /** Tests only: the floor of the interval (default 10 s). */
  readonly minIntervalMs?: number;
  readonly overlapMs?: number;
  readonly initialLookbackMs?: number;
  readonly pageSize?: number;
  /** Pages of `changes` read in one pass at most (default 20). */
  readonly maxPagesPerPass?: number;
  readonly concurrency?: number;
  readonly backoff?: BackoffPolicy;
  /** Sends in flight from the outbox; intake waits while there are any. */
  readonly outboxSending: () => number;
  readonly log: Logger;
  /** Orders stored (new or changed bodies). */
  readonly onStored: (orderIds: readonly string[]) => void;
  /** Every change of the status. */
  readonly onStatus: (status: IntakeStatus) => void;
  /** Whether the service answered (any HTTP status) or not, after every read and probe. */
  readonly onReachable: (reachable: boolean) => void;
}


export interface Intake {
  /** Starts polling: the first pass at once, or after `firstInMs` (when one was just run). */
  start(firstInMs?: number): void;
  /** Stops timers and aborts a pass in flight (its cursor stays where it was). */
  stop(): Promise<void>;
  /**
   * Stops asking the service on the timer (another counter of the store polls for it): no pass, no
   * probe; a pass in flight is aborted, its cursor stays. A scan's fetchOrder and passOnce still ask.
   */
  pause(): void;
  /** Polls again after pause(): a pass soon, then on the interval. */
  resume(): void;
  /**
   * One full pass now from the stored cursor (the CLI's `intake --once`), begun after a pass in
   * flight ends. `askAllNow`: every id still to fetch is asked, pauses or not (support asked for it
   * by hand).
   */
  passOnce(options?: { readonly askAllNow?: boolean }): Promise<PassReport>;
  /** One `status` call for an order, stored when newer. */
  fetchOrder(orderId: string): Promise<FetchReport>;
  /** One tiny `changes` request (one id, the last second) to see whether this client may poll; stores nothing. */
  checkAccess(): Promise<AccessReport>;
  /** The settings changed: a refusal of access is forgotten and polling resumes. */
  settingsChanged(): void;
  /**
   * The order service answers again (a tap went through, or a probe): a pass soon, not at the end of
   * the backoff the outage built up, so new orders are checked within one poll interval of it.
   */
  serviceBack(): void;
  status(): IntakeStatus;
  /** Ids `changes` listed whose bodies are not stored yet (up to `limit`), the longest waiting first. */
  stillToFetch(limit?: number): readonly PendingId[];
}

/** Builds the intake; nothing runs until start(). */
export function createIntake(o: IntakeOptions): Intake {
  const log = o.log.child('intake');
  const minInterval = o.minIntervalMs ?? MIN_INTAKE_INTERVAL_MS;
  const interval = (): number => Math.max(minInterval, o.intervalMs());
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  const serviceNow = o.serviceNow ?? (() => Promise.resolve({ earliest: o.now(), latest: o.now() }));
  let running = false;
  let paused = false;
  /** Counts pauses: a step that began before one does not arm the timer after it (resume() does). */
  let pauses = 0;
  let passing: Promise<PassReport> | null = null;
  let failures = 0;
  let lastTried: number | null = null;
  let reachable: boolean | null = null;
  let problem: string | null = null;
  /** The last pass brought new orders and stopped at its page cap: a backlog being read. */
  let catchingUp = false;
  let nextAt: number | null = null;
  let lastStatusJson = '';
  let controller: AbortController | null = null;
  let retryAfterMs: number | undefined;
  /** The data file's refusal to take writes, in words; null while it takes them. */
  let storage: string | null = null;
  let lastState: IntakeState | null = null;

  const timer = new TimerSlot(o.timers, o.now, () => void tick());

  // A pass's waits hold the process open: `intake --once` awaits the pass, and a Retry-After waited
  // out on an unref'd timer let the process end mid-pass, printing nothing, exit 0. stop() and
  // pause() abort them, so the app never waits on one for long.
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      o.timers.setTimeout(resolve, ms, { keepAlive: true });
    });
  /** Waits `ms`, or less when `signal` aborts (stop() must not wait out a Retry-After). */
  const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const handle = o.timers.setTimeout(done, ms, { keepAlive: true });
      function done(): void {
        o.timers.clearTimeout(handle);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  const yieldToOutbox = async (): Promise<void> => {
    while (o.outboxSending() > 0 && !controller?.signal.aborted) await wait(OUTBOX_WAIT_MS);
  };

  const blocked = (): string | null => {
    const held = readState().noAccess;
    if (!held) return null;
    if (held.settings === o.settingsKey()) return held.message;
    o.store.setNoAccess(null); // other settings now: try again
    return null;
  };

  /** The stored state; the last one read when the data file cannot be read now. */
  const readState = (): IntakeState => {
    try {
      lastState = o.store.state();
    } catch (e) {
      if (!lastState) throw e;
    }
    return lastState;
  };

  const computeStatus = (): IntakeStatus => {
    const state = readState();
    const noAccess = blocked();
    const provider = o.serviceProviderId();
    let condition: IntakeStatus['condition'];
    if (noAccess) condition = 'noAccess';
    else if (!provider) condition = 'notConfigured';
    else if (storage !== null) condition = 'storage';
    else if (reachable === false) condition = 'offline';
    else if (failures > 0 || problem !== null) condition = 'retrying';
    else condition = 'ok';
    return {
      condition,
      lastCompleteAt: state.lastPassAt,
      cursorAt: state.cursorTo,
      lastTriedAt: lastTried,
      nextAt,
      intervalMs: interval(),
      stillToFetch: state.stillToFetch,
      ...(catchingUp && condition === 'retrying' ? { catchingUp: true } : {}),
      message:
        noAccess ??
        (!provider ? 'New orders are not checked: a manager must enter the service provider id in Settings' : null) ??
        storage ??
        (condition === 'offline' || condition === 'retrying' ? problem : null) ??
        state.windowProblem ??
        (state.stillToFetch > 0 ? stillToFetchSaid(state.stillToFetch, o.store.stillToFetch(3)) : null),
    };
  };
  const publish = (): void => {
    const status = computeStatus();
    const json = JSON.stringify(status);
    if (json === lastStatusJson) return;
    lastStatusJson = json;
    o.onStatus(status);
  };
  const seen = (ok: boolean): void => {
    if (reachable !== ok) {
      reachable = ok;
      publish();
    }
    o.onReachable(ok);
  };

  const schedule = (ms: number): void => {
    if (!running || paused) return;
    timer.clear();
    nextAt = o.now() + ms;
    timer.arm(ms);
    publish();
  };

  const pass = (askAllNow = false): Promise<PassReport> => {
    passing ??= (async (): Promise<PassReport> => {
      const provider = o.serviceProviderId();
      if (!provider) return { kind: 'notConfigured', message: 'No service provider id is set; a manager enters it in Settings with the credentials' };
      controller = new AbortController();
      const signal = controller.signal;
      lastTried = o.now();
      // Nothing a pass meets escapes it: the timer must be armed again whatever happened (a full disk above all).
      try {
        const noAccess = blocked();
        if (noAccess) return { kind: 'noAccess', call: 'changes', message: noAccess };
        const result: PassResult = await runPass({
          reader: o.reader,
          store: o.store,
          serviceProviderId: provider,
          settingsKey: o.settingsKey(),
          now: o.now,
          serviceNow,
          newRequestId: o.newRequestId,
          overlapMs: o.overlapMs ?? DEFAULT_OVERLAP_MS,
          initialLookbackMs: o.initialLookbackMs ?? DEFAULT_LOOKBACK_MS,
          pageSize: o.pageSize ?? 100,
          concurrency: o.concurrency ?? 4,
          yieldToOutbox,
          onStored: (id) => o.onStored([id]),
          onReachable: seen,
          signal,
          maxPages: o.maxPagesPerPass ?? DEFAULT_MAX_PAGES_PER_PASS,
          askAllNow,
          sleep: (ms) => sleep(ms, signal),
          retryDelayMs: (attempts) => backoffDelay(attempts, FETCH_RETRY, o.random) + FETCH_RETRY.baseMs / 2,
        });
        return remember(report(result));
      } catch (e) {
        return thrown(e);
      } finally {
        controller = null;
      }
    })().finally(() => {
      passing = null;
      try {
        publish();
      } catch (e) {
        log.error('intake status could not be read', { error: e });
      }
    });
    return passing;
  };

  /** Keeps how the pass ended in the data file (doctor says it instead of asking the service too soon). */
  const remember = (r: PassReport): PassReport => {
    const reading = r.kind === 'completed' || r.kind === 'incomplete' || r.kind === 'unfinished';
    const notBefore = r.kind === 'unreachable' && r.retryAfterMs !== undefined ? o.now() + r.retryAfterMs : null;
    keep(() => o.store.readEnded({ at: o.now(), by: 'pass', ok: reading, kind: r.kind, message: 'message' in r ? r.message : null, settings: o.settingsKey() }, notBefore));
    return r;
  };
  /** A note for doctor written, or not: a data file that stopped taking writes is said elsewhere. */
  const keep = (write: () => void): void => {
    try {
      write();
    } catch (e) {
      log.warn('a note on the last call to changes could not be kept', { error: e });
    }
  };

  /** A pass that threw: a storage failure said as such (and tried again at the next tick), anything else as a failure. */
  const thrown = (e: unknown): PassReport => {
    catchingUp = false;
    retryAfterMs = undefined;
    const full = storageProblem(e);
    if (full) {
      if (storage === null) log.error('data file not writable: intake paused', { error: e });
      storage = full.code === 'STORE_FULL' ? STORE_FULL_SAID : full.message;
      return { kind: 'storage', message: storage };
    }
    failures++;
    problem = `Checking for new orders failed: ${e instanceof Error ? e.message : String(e)}`;
    log.error('pass failed', { error: e });
    return { kind: 'failed', counts: { new: 0, updated: 0, unchanged: 0, failed: 0, unreadable: 0 }, message: problem };
  };

  const report = (result: PassResult): PassReport => {
    catchingUp = false;
    if (storage !== null) log.info('data file takes writes again: intake resumes');
    storage = null;
    if (result.kind === 'completed') {
      failures = 0;
      problem = null;
      log.info('pass completed', { ...result.counts, from: result.window.from, to: result.window.to });
      const pending = o.store.stillToFetch(PENDING_SHOWN);
      if (pending.length === 0) return { kind: 'completed', counts: result.counts };
      const count = o.store.state().stillToFetch;
      log.warn('orders still to fetch', { count, first: pending[0]?.orderId });
      return { kind: 'incomplete', counts: result.counts, message: stillToFetchSaid(count, pending), stillToFetch: pending };
    }
    if (result.kind === 'unfinished') {
      // The next pass reads on after a pause that grows while the pages keep coming and bring no
      // new order, so a nextPage that never ends costs a few pages now and then, never a stream of
      // calls. Pages that brought new orders are a backlog being read (a store back after a long
      // outage): made headway, so the pause does not grow (as for a stopped pass that kept a page).
      const headway = result.reason === 'pageCap' && result.counts.new > 0;
      failures = headway ? 1 : failures + 1;
      catchingUp = headway;
      retryAfterMs = undefined;
      problem = result.message;
      log.warn('window unfinished', { reason: result.reason, ...result.counts });
      return { kind: 'unfinished', counts: result.counts, reason: result.reason, message: result.message };
    }
    const { failure, call, counts } = result;
    if (failure.kind === 'noAccess') {
      // Said once, and kept until the settings change: polling a refused call is abuse.
      o.store.setNoAccess({ message: failure.message, settings: o.settingsKey() });
      log.warn('no access to a read call; intake stops until the settings change', { call, status: failure.status });
      return { kind: 'noAccess', call, message: failure.message };
    }
    // A pass that kept a page or a body before it stopped made headway: its pause does not grow.
    failures = result.progressed ? 1 : failures + 1;
    problem = failure.message;
    retryAfterMs = failure.kind === 'transient' ? failure.retryAfterMs : undefined;
    log.warn('pass stopped; the cursor stays', { call, kind: failure.kind, message: failure.message, ...counts });
    if (failure.kind === 'transient')
      return {
        kind: 'unreachable',
        counts,
        message: failure.message,
        ...(failure.certificate ? { certificate: true as const } : {}),
        ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
      };
    if (failure.kind === 'auth') return { kind: 'auth', counts, message: failure.message };
    return { kind: 'failed', counts, message: failure.message };
  };

  const tick = async (): Promise<void> => {
    try {
      await step();
    } catch (e) {
      // Whatever went wrong (the data file, above all), the timer is armed again.
      log.error('intake timer step failed', { error: e });
      schedule(interval());
    }
  };
  const step = async (): Promise<void> => {
    if (!running || paused) return;
    const epoch = pauses;
    nextAt = null;
    if (!o.serviceProviderId() || blocked()) {
      // Intake cannot poll, but the sync bar must still learn when the network goes: one light probe.
      seen(await o.reader.probe().catch(() => false));
      if (epoch === pauses) schedule(interval());
      return;
    }
    const r = await pass();
    if (!running || paused || epoch !== pauses) return;
    if (r.kind === 'completed' || r.kind === 'incomplete' || r.kind === 'noAccess' || r.kind === 'notConfigured' || r.kind === 'storage' || failures === 0) schedule(interval());
    else schedule(Math.max(backoffDelay(failures, backoff, o.random, retryAfterMs), backoff.baseMs / 2));
  };

  return {
    start(firstInMs = 0) {
      if (running) return;
      running = true;
      schedule(firstInMs);
    },
    async stop() {
      running = false;
      timer.clear();
      controller?.abort();
      await passing?.catch(() => undefined);
    },
    pause() {
      if (paused) return;
      paused = true;
      pauses++;
      timer.clear();
      nextAt = null;
      controller?.abort();
      publish();
    },
    resume() {
      if (!paused) return;
      paused = false;
      // A pass aborted by the pause may still be settling: the next one starts after it.
      if (passing) void passing.then(() => schedule(RESUME_DELAY_MS));
      else schedule(RESUME_DELAY_MS);
    },
    async passOnce(options) {
      // A check asked for now reads the service from now: a pass in flight may have read its pages
      // before what prompted the check (a counter taking over intake, an order just placed).
      if (passing) await passing;
      return pass(options?.askAllNow ?? false);
    },
    async fetchOrder(orderId) {
      const outcome = await o.reader.status(orderId);
      seen(!(outcome.kind === 'transient' && outcome.network));
      switch (outcome.kind) {
        case 'order': {
          if (outcome.order.id !== orderId) return { kind: 'failed', message: `The service answered with order ${outcome.order.id} instead of ${orderId}` };
          let result: 'new' | 'updated' | 'unchanged';
          try {
            result = o.store.saveIfNewer(outcome.order, o.now());
          } catch (e) {
            const full = storageProblem(e);
            if (!full) throw e;
            return { kind: 'storage', message: full.code === 'STORE_FULL' ? STORE_FULL_SAID : full.message };
          }
          if (result !== 'unchanged') o.onStored([orderId]);
          publish();
          return { kind: 'stored', result };
        }
        case 'unreadableOrder':
          o.store.setAside(orderId, outcome.rawBody, o.now());
          o.onStored([orderId]);
          return { kind: 'failed', message: outcome.message };
        case 'notFound':
          return { kind: 'notFound', message: outcome.message };
        case 'transient':
          return { kind: 'unreachable', message: outcome.message, ...(outcome.certificate ? { certificate: true as const } : {}) };
        case 'accepted':
          return { kind: 'failed', message: `The service answered HTTP ${outcome.status} without the order` };
        default:
          return { kind: 'failed', message: outcome.message };
      }
    },
    async checkAccess() {
      const provider = o.serviceProviderId();
      if (!provider) return { kind: 'notConfigured', message: 'no service provider id is set' };
      const held = readState();
      const at = o.now();
      const settings = o.settingsKey();
      // The service limits `changes` (decisions.md): a check right after a pass (with these settings) would only be refused.
      const asked = held.changesAsked?.settings === settings ? held.changesAsked : null;
      const last = held.lastRead?.settings === settings ? held.lastRead : null;
      if (asked !== null && held.changesNotBefore !== null && at < held.changesNotBefore)
        return { kind: 'notNow', message: `the order service asked for no calls until ${new Date(held.changesNotBefore).toISOString()}`, last, pausedUntil: held.changesNotBefore };
      if (asked !== null && at - asked.at < minInterval && at >= asked.at)
        return { kind: 'notNow', message: `this terminal asked ${Math.round((at - asked.at) / 1000)} s ago, and the service takes one such call every ${Math.round(minInterval / 1000)} s`, last, pausedUntil: null };
      const to = (await serviceNow()).latest;
      keep(() => o.store.changesAsked(o.now(), settings));
      const outcome = await o.reader.changes(
        buildChangesRequest({ requestId: o.newRequestId(), serviceProviderId: provider, fromTimestamp: to - 1_000, toTimestamp: to, size: 1 }),
      );
      const access = accessOf(outcome);
      const notBefore = outcome.kind === 'transient' && outcome.retryAfterMs !== undefined ? o.now() + outcome.retryAfterMs : null;
      keep(() => o.store.readEnded({ at: o.now(), by: 'check', ok: access.kind === 'ok', kind: access.kind, message: 'message' in access ? access.message : null, settings }, notBefore));
      return access;
    },
    settingsChanged() {
      o.store.setNoAccess(null);
      failures = 0;
      publish();
      if (running) schedule(0);
    },
    serviceBack() {
      if (!running || paused || passing) return;
      if (reachable !== false && failures === 0) return;
      if (nextAt !== null && nextAt - o.now() <= RESUME_DELAY_MS) return;
      log.info('the order service answers again: checking for new orders now');
      schedule(RESUME_DELAY_MS);
    },
    status: computeStatus,
    stillToFetch: (limit = PENDING_SHOWN) => o.store.stillToFetch(limit),
  };
}
