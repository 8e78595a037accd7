/**
 * Order intake: orders arrive by themselves. On a timer (default 30 s, never more often than 10 s)
 * it runs a pass (pass.ts); 429/5xx and network failures back off (Retry-After honoured); a 403/404
 * on a read call is said once and nothing is polled again until the settings change. Between passes
 * — or while intake cannot poll — a light probe keeps the reachability signal true to life.
 * Scanned ids the terminal does not know are fetched at once with `status`.
 */
import { buildChangesRequest } from '../../../shared/protocol/intake';
import { type BackoffPolicy, backoffDelay } from '../outbox/backoff';
import type { Logger } from '../log';
import { type Timers, TimerSlot } from '../time';
import { type PassCounts, type PassResult, runPass } from './pass';
import type { IntakeReader, IntakeStore } from './ports';
import type { IntakeStatus } from '../../../shared/ipc';
import type { ServiceNow } from '../time/service-clock';

export const DEFAULT_INTAKE_INTERVAL_MS = 30_000;
/** The platform rate-limits `changes`; decisions.md: never more often than every 10 s. */
export const MIN_INTAKE_INTERVAL_MS = 10_000;
export const DEFAULT_OVERLAP_MS = 2 * 60_000;
const DEFAULT_LOOKBACK_MS = 24 * 60 * 60_000;
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 5 * 60_000 };
const OUTBOX_WAIT_MS = 100;

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

/** The result of one pass as the CLI reports it. */
export type PassReport =
  | { readonly kind: 'completed'; readonly counts: PassCounts }
  | { readonly kind: 'unreachable'; readonly counts: PassCounts; readonly message: string; readonly certificate?: true }
  | { readonly kind: 'noAccess'; readonly call: 'changes' | 'status'; readonly message: string }
  | { readonly kind: 'notConfigured'; readonly message: string }
  /** Credentials missing or rejected (after the single-flight refresh). */
  | { readonly kind: 'auth'; readonly counts: PassCounts; readonly message: string }
  | { readonly kind: 'failed'; readonly counts: PassCounts; readonly message: string };

/** A scanned or typed id fetched at once. */
export type FetchReport =
  | { readonly kind: 'stored'; readonly result: 'new' | 'updated' | 'unchanged' }
  | { readonly kind: 'notFound'; readonly message: string }
  | { readonly kind: 'unreachable'; readonly message: string; readonly certificate?: true }
  | { readonly kind: 'failed'; readonly message: string };

/** What a one-request access check found. */
export type AccessReport =
  | { readonly kind: 'ok' }
  | { readonly kind: 'noAccess' | 'unreachable' | 'notConfigured' | 'failed'; readonly message: string };

export interface Intake {
  /** Starts polling: the first pass at once, or after `firstInMs` (when one was just run). */
  start(firstInMs?: number): void;
  /** Stops timers and aborts a pass in flight (its cursor stays where it was). */
  stop(): Promise<void>;
  /** One full pass now from the stored cursor (the CLI's `intake --once`). */
  passOnce(): Promise<PassReport>;
  /** One `status` call for an order, stored when newer. */
  fetchOrder(orderId: string): Promise<FetchReport>;
  /** One tiny `changes` request (one id, the last second) to see whether this client may poll; stores nothing. */
  checkAccess(): Promise<AccessReport>;
  /** The settings changed: a refusal of access is forgotten and polling resumes. */
  settingsChanged(): void;
  status(): IntakeStatus;
}

/** Builds the intake; nothing runs until start(). */
export function createIntake(o: IntakeOptions): Intake {
  const log = o.log.child('intake');
  const minInterval = o.minIntervalMs ?? MIN_INTAKE_INTERVAL_MS;
  const interval = (): number => Math.max(minInterval, o.intervalMs());
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  const serviceNow = o.serviceNow ?? (() => Promise.resolve({ earliest: o.now(), latest: o.now() }));
  let running = false;
  let passing: Promise<PassReport> | null = null;
  let failures = 0;
  let lastTried: number | null = null;
  let reachable: boolean | null = null;
  let problem: string | null = null;
  let nextAt: number | null = null;
  let lastStatusJson = '';
  let controller: AbortController | null = null;
  let retryAfterMs: number | undefined;

  const timer = new TimerSlot(o.timers, o.now, () => void tick());

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      o.timers.setTimeout(resolve, ms);
    });
  const yieldToOutbox = async (): Promise<void> => {
    while (o.outboxSending() > 0 && !controller?.signal.aborted) await wait(OUTBOX_WAIT_MS);
  };

  const blocked = (): string | null => {
    const held = o.store.state().noAccess;
    if (!held) return null;
    if (held.settings === o.settingsKey()) return held.message;
    o.store.setNoAccess(null); // other settings now: try again
    return null;
  };

  const computeStatus = (): IntakeStatus => {
    const state = o.store.state();
    const noAccess = blocked();
    const provider = o.serviceProviderId();
    let condition: IntakeStatus['condition'];
    if (noAccess) condition = 'noAccess';
    else if (!provider) condition = 'notConfigured';
    else if (reachable === false) condition = 'offline';
    else if (failures > 0) condition = 'retrying';
    else condition = 'ok';
    return {
      condition,
      lastCompleteAt: state.lastPassAt,
      cursorAt: state.cursorTo,
      lastTriedAt: lastTried,
      nextAt,
      intervalMs: interval(),
      message:
        noAccess ??
        (!provider ? 'New orders are not checked: a manager must enter the service provider id in Settings' : null) ??
        (condition === 'offline' || condition === 'retrying' ? problem : null),
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
    if (!running) return;
    timer.clear();
    nextAt = o.now() + ms;
    timer.arm(ms);
    publish();
  };

  const pass = (): Promise<PassReport> => {
    passing ??= (async (): Promise<PassReport> => {
      const provider = o.serviceProviderId();
      if (!provider) return { kind: 'notConfigured', message: 'No service provider id is set; a manager enters it in Settings with the credentials' };
      const noAccess = blocked();
      if (noAccess) return { kind: 'noAccess', call: 'changes', message: noAccess };
      controller = new AbortController();
      lastTried = o.now();
      let result: PassResult;
      try {
        result = await runPass({
          reader: o.reader,
          store: o.store,
          serviceProviderId: provider,
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
          signal: controller.signal,
        });
      } finally {
        controller = null;
      }
      return report(result);
    })().finally(() => {
      passing = null;
      publish();
    });
    return passing;
  };

  const report = (result: PassResult): PassReport => {
    if (result.kind === 'completed') {
      failures = 0;
      problem = null;
      log.info('pass completed', { ...result.counts, from: result.window.from, to: result.window.to });
      return { kind: 'completed', counts: result.counts };
    }
    const { failure, call, counts } = result;
    if (failure.kind === 'noAccess') {
      // Said once, and kept until the settings change: polling a refused call is abuse.
      o.store.setNoAccess({ message: failure.message, settings: o.settingsKey() });
      log.warn('no access to a read call; intake stops until the settings change', { call, status: failure.status });
      return { kind: 'noAccess', call, message: failure.message };
    }
    failures++;
    problem = failure.message;
    retryAfterMs = failure.kind === 'transient' ? failure.retryAfterMs : undefined;
    log.warn('pass stopped; the cursor stays', { call, kind: failure.kind, message: failure.message, ...counts });
    if (failure.kind === 'transient') return { kind: 'unreachable', counts, message: failure.message, ...(failure.certificate ? { certificate: true as const } : {}) };
    if (failure.kind === 'auth') return { kind: 'auth', counts, message: failure.message };
    return { kind: 'failed', counts, message: failure.message };
  };

  const tick = async (): Promise<void> => {
    if (!running) return;
    nextAt = null;
    if (!o.serviceProviderId() || blocked()) {
      // Intake cannot poll, but the sync bar must still learn when the network goes: one light probe.
      seen(await o.reader.probe().catch(() => false));
      schedule(interval());
      return;
    }
    const r = await pass();
    if (!running) return;
    if (r.kind === 'completed' || r.kind === 'noAccess' || r.kind === 'notConfigured') schedule(interval());
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
    passOnce: () => pass(),
    async fetchOrder(orderId) {
      const outcome = await o.reader.status(orderId);
      seen(!(outcome.kind === 'transient' && outcome.network));
      switch (outcome.kind) {
        case 'order': {
          if (outcome.order.id !== orderId) return { kind: 'failed', message: `The service answered with order ${outcome.order.id} instead of ${orderId}` };
          const result = o.store.saveIfNewer(outcome.order, o.now());
          if (result !== 'unchanged') o.onStored([orderId]);
          return { kind: 'stored', result };
        }
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
      const to = (await serviceNow()).latest;
      const outcome = await o.reader.changes(
        buildChangesRequest({ requestId: o.newRequestId(), serviceProviderId: provider, fromTimestamp: to - 1_000, toTimestamp: to, size: 1 }),
      );
      switch (outcome.kind) {
        case 'ok':
        case 'accepted':
          return { kind: 'ok' };
        case 'noAccess':
          return { kind: 'noAccess', message: outcome.message };
        case 'transient':
          return { kind: 'unreachable', message: outcome.message };
        default:
          return { kind: 'failed', message: outcome.message };
      }
    },
    settingsChanged() {
      o.store.setNoAccess(null);
      failures = 0;
      publish();
      if (running) schedule(0);
    },
    status: computeStatus,
  };
}
