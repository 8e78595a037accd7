/**
 * One intake pass (decisions.md, "Order intake"): read the pages of `changes` for the window from
 * the cursor minus the overlap to now, keeping each page's ids as still to fetch and its `nextPage`
 * in SQLite, so a pass stopped by a rate limit resumes at the page it stopped at; once the last page
 * is kept, the cursor moves, and a resumed window is followed by one from there to now. Then every id still to fetch that is due is read with `status` (a few at
 * a time, after the outbox) and stored unless a newer body is held; an id whose answer fails stays
 * still to fetch and is asked again with backoff. No id leaves that list before its body is stored.
 */
import { buildChangesRequest } from '../../../shared/protocol/intake';
import type { ChangesOutcome, ReadFailure, StatusOutcome } from '../api/read-outcome';
import type { Order } from '../../../shared/protocol/schemas';
import type { IntakeWindow, PendingId } from '../db';
import type { ServiceNow } from '../time/service-clock';
import type { IntakeReader, IntakeStore } from './ports';
import { intakeWindow } from './window';

const BATCH_SIZE = 200;
const BATCH_WAIT_MS = 500;
/** A 429 (between pages, or on a `status`) asking for at most this long is waited out in the pass, at that pace from then on. */
const MAX_PAGE_WAIT_MS = 5_000;
/** 429s in a row for one page (or for the `status` calls) before the pass stops (it resumes at that page later). */
const MAX_PAGE_WAITS = 3;
/** Ids asked with `status` in one pass at most; the rest at the next pass. */
const MAX_FETCH_PER_PASS = 5_000;
/** Pages of `changes` read in one pass at most (decisions.md): a `nextPage` that never ends is not followed for ever. */
export const DEFAULT_MAX_PAGES_PER_PASS = 20;

export interface PassOptions {
  readonly reader: IntakeReader;
  readonly store: IntakeStore;
  readonly serviceProviderId: string;
  /** The settings the pass reads with (address, provider id), kept with the time `changes` was asked. */
  readonly settingsKey: string;
  readonly now: () => number;
  /** The order service's clock, which windows are read on (IntakeOptions.serviceNow). */
  readonly serviceNow: () => Promise<ServiceNow>;
  readonly newRequestId: () => string;
  readonly overlapMs: number;
  /** How far back the very first pass looks. */
  readonly initialLookbackMs: number;
  readonly pageSize: number;
  readonly concurrency: number;
  /** Resolves when the outbox leaves the network free (the outbox always goes first). */
  readonly yieldToOutbox: () => Promise<void>;
  /** Each id as it is stored, so the screen can show it at once. */
  readonly onStored: (orderId: string) => void;
  /** Every read that got an HTTP answer (true) or none (false). */
  readonly onReachable: (reachable: boolean) => void;
  readonly signal?: AbortSignal;
  /** Pages of `changes` read in one pass at most. */
  readonly maxPages: number;
  /** Ask every id still to fetch, whatever its pause (a pass asked for by hand). */
  readonly askAllNow?: boolean;
  /** Resolves after `ms`, or at once when the pass is aborted. */
  readonly sleep: (ms: number) => Promise<void>;
  /** How long an id whose answer failed for the `attempts`-th time waits before it is asked again. */
  readonly retryDelayMs: (attempts: number) => number;
}

export interface PassCounts {
  readonly new: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
  /** Read, but not believable (a count past 2^53, a date of 1e300, a bad id): set aside as unreadable, the answer kept. */
  readonly unreadable: number;
}

export type PassResult =
  /** Every page of the window read (the cursor moved) and every due id asked; some may still be to fetch. */
  | { readonly kind: 'completed'; readonly counts: PassCounts; readonly window: { from: number; to: number } }
  /**
   * The window is unfinished for the service's pages: too many for one pass (`pageCap`, it resumes
   * at the next pass) or a `nextPage` given before (`repeatedPage`, read again from its first page).
   */
  | { readonly kind: 'unfinished'; readonly counts: PassCounts; readonly reason: 'pageCap' | 'repeatedPage'; readonly message: string }
  /** The pass stopped on a failed read; the window resumes where it stopped. `progressed`: a page or a body was kept first. */
  | { readonly kind: 'stopped'; readonly counts: PassCounts; readonly call: 'changes' | 'status'; readonly failure: ReadFailure; readonly progressed: boolean };

type Paging = { readonly kind: 'complete' } | Extract<PassResult, { kind: 'unfinished' }> | Extract<PassResult, { kind: 'stopped' }>;

/** Runs one pass from the stored cursor; never throws for anything the service does (a storage error is thrown). */
export async function runPass(o: PassOptions): Promise<PassResult> {
  const counts = { new: 0, updated: 0, unchanged: 0, failed: 0, unreadable: 0 };
  const state = o.store.state();
  // The window's ends on the service's clock as its witnesses read it (window.ts decides them).
  const reading = { serviceNow: await o.serviceNow(), own: o.now(), overlapMs: o.overlapMs, initialLookbackMs: o.initialLookbackMs };
  const fresh = intakeWindow({ ...reading, cursor: state.cursorTo });
  // A window a stopped pass left is read on from its page; one ending after now (a clock that ran ahead) is not trusted.
  let window = state.window;
  const resumed = window !== null && window.to <= fresh.to;
  if (window === null || !resumed) {
    o.store.beginWindow(fresh.from, fresh.to);
    window = { ...fresh, nextPage: null, pages: 0 };
  }
  const from = window.from;
  const budget = { pages: o.maxPages };
  let paging = await readPages(o, window, counts, budget);
  if (resumed && paging.kind === 'complete' && window.to < fresh.to) {
    // The resumed window ends where the stopped pass's now was: the orders placed since are read
    // too before the pass calls itself complete, not left for the next pass (or none, from the CLI).
    const onward = intakeWindow({ ...reading, cursor: o.store.state().cursorTo });
    o.store.beginWindow(onward.from, onward.to);
    window = { ...onward, nextPage: null, pages: 0 };
    const further = await readPages(o, window, counts, budget);
    paging = further.kind === 'stopped' ? { ...further, progressed: true } : further;
  }
  if (paging.kind === 'stopped' && paging.failure.kind !== 'refused') return paging;
  const fetching = await fetchDue(o, counts);
  if (fetching !== null) return { ...fetching, progressed: fetching.progressed || paging.kind !== 'stopped' || paging.progressed };
  if (paging.kind !== 'complete') return paging;
  o.store.passCompleted(o.now());
  return { kind: 'completed', counts, window: { from, to: window.to } };
}

/** Reads the window's pages from where it stands, each kept before the next is asked for; `budget` is the pass's pages left. */
async function readPages(o: PassOptions, window: IntakeWindow, counts: PassCounts, budget: { pages: number }): Promise<Paging> {
  let nextPage = window.nextPage;
  const seen = new Set<string>(nextPage !== null ? [nextPage] : []);
  let pages = 0;
  let gap = 0;
  let waits = 0;
  const when = `the window from ${new Date(window.from).toISOString()} to ${new Date(window.to).toISOString()}`;
  for (;;) {
    if (budget.pages <= 0) {
      const message = `The order service's changed-orders call has given ${window.pages + pages} pages for ${when} and not ended: this pass stopped after ${o.maxPages}, and the next one reads on from there`;
      o.store.setWindowProblem(message);
      return { kind: 'unfinished', counts, reason: 'pageCap', message };
    }
    await o.yieldToOutbox();
    if (gap > 0) await o.sleep(gap);
    // A first page is what the service rate-limits: doctor keeps clear of the interval from here.
    if (nextPage === null) o.store.changesAsked(o.now(), o.settingsKey);
    const outcome: ChangesOutcome = await o.reader.changes(
      buildChangesRequest({ requestId: o.newRequestId(), serviceProviderId: o.serviceProviderId, fromTimestamp: window.from, toTimestamp: window.to, size: o.pageSize, nextPage }),
      o.signal,
    );
    o.onReachable(!(outcome.kind === 'transient' && outcome.network));
    if (outcome.kind === 'transient' && outcome.status === 429 && waits < MAX_PAGE_WAITS && !o.signal?.aborted && (outcome.retryAfterMs ?? 1_000) <= MAX_PAGE_WAIT_MS) {
      // The service lets pages through only so often: keep to its pace for the rest of the window.
      gap = Math.max(gap, outcome.retryAfterMs ?? 1_000);
      waits++;
      continue;
    }
    const progressed = pages > 0;
    if (outcome.kind === 'accepted') {
      // An empty 2xx: nothing on this page, nothing after it.
      o.store.savePage([], null, o.now());
      return { kind: 'complete' };
    }
    if (outcome.kind === 'notFound') return { kind: 'stopped', counts, call: 'changes', failure: { kind: 'noAccess', status: 404, message: outcome.message }, progressed };
    if (outcome.kind !== 'ok') {
      // A page the service will not read (its cursor expired, say) would stop every later pass: start the window again.
      if (outcome.kind === 'refused' && nextPage !== null) o.store.dropWindow(null);
      return { kind: 'stopped', counts, call: 'changes', failure: outcome, progressed };
    }
    waits = 0;
    const next = outcome.value.nextPage;
    o.store.savePage(outcome.value.orderIds, next, o.now());
    pages++;
    budget.pages--;
    if (next === null) return { kind: 'complete' };
    if (seen.has(next)) {
      const message = `The order service's changed-orders call gave a next page it had given before (page ${window.pages + pages} of ${when}): the pass stopped rather than ask for the same pages again; the window is read again from its first page after a pause`;
      o.store.dropWindow(message);
      return { kind: 'unfinished', counts, reason: 'repeatedPage', message };
    }
    seen.add(next);
    nextPage = next;
  }
}

/**
 * Asks `status` for every id still to fetch that is due; null when each was stored or set to be
 * asked again later, or the failure that stopped the asking (429/5xx, no access, credentials).
 */
async function fetchDue(o: PassOptions, counts: { -readonly [K in keyof PassCounts]: PassCounts[K] }): Promise<Extract<PassResult, { kind: 'stopped' }> | null> {
  // Bodies are written in small batches: a durable write per order would make a catch-up after an
  // outage cost one fsync per order; a short wait keeps a lone new order on screen at once.
  const batch: Order[] = [];
  let lastFlush = o.now();
  let stored = 0;
  // Holders, not locals: the workers set them while the pass awaits them.
  const halt: { failure: ReadFailure | null; error: unknown } = { failure: null, error: null };
  const guard = (write: () => void): void => {
    try {
      write();
    } catch (e) {
      // A storage failure: the ids stay still to fetch (their rows did not change); the pass says it.
      halt.error ??= e;
    }
  };
  const flush = (): void => {
    if (batch.length === 0) return;
    const orders = batch.splice(0);
    lastFlush = o.now();
    guard(() => {
      const results = o.store.saveAllIfNewer(orders, lastFlush);
      stored += orders.length;
      results.forEach((saved, i) => {
        counts[saved]++;
        if (saved !== 'unchanged') o.onStored(orders[i]!.id);
      });
    });
  };
  const failed = (p: PendingId, message: string): void => {
    counts.failed++;
    guard(() => o.store.fetchFailed(p.orderId, message, o.now() + o.retryDelayMs(p.attempts + 1)));
  };

  const queue = o.store.due(o.askAllNow ? Number.MAX_SAFE_INTEGER : o.now(), MAX_FETCH_PER_PASS);
  /** 429s in a row waited out; the workers share the service's pace. */
  const limit = { waits: 0, until: 0 };
  const worker = async (): Promise<void> => {
    while (halt.failure === null && halt.error === null && queue.length > 0) {
      await o.yieldToOutbox();
      if (limit.until > o.now()) await o.sleep(limit.until - o.now());
      const p = queue.shift();
      if (p === undefined) return;
      const outcome: StatusOutcome = await o.reader.status(p.orderId, o.signal);
      o.onReachable(!(outcome.kind === 'transient' && outcome.network));
      if (outcome.kind === 'transient' && outcome.status === 429 && limit.waits < MAX_PAGE_WAITS && !o.signal?.aborted && (outcome.retryAfterMs ?? 1_000) <= MAX_PAGE_WAIT_MS) {
        // As between pages: a short Retry-After is waited out and the id asked again, not the pass ended.
        limit.waits++;
        limit.until = Math.max(limit.until, o.now() + (outcome.retryAfterMs ?? 1_000));
        queue.unshift(p);
        continue;
      }
      if (outcome.kind !== 'transient') limit.waits = 0;
      switch (outcome.kind) {
        case 'order':
          if (outcome.order.id !== p.orderId) failed(p, `The service answered with order ${outcome.order.id} instead of ${p.orderId}`);
          else {
            batch.push(outcome.order);
            if (batch.length >= BATCH_SIZE || o.now() - lastFlush >= BATCH_WAIT_MS || queue.length === 0) flush();
          }
          break;
        case 'unreadableOrder':
          // Set aside (kept for support, said on screen and by doctor): stored, so no longer to fetch.
          guard(() => {
            o.store.setAside(p.orderId, outcome.rawBody, o.now());
            counts.unreadable++;
            o.onStored(p.orderId);
          });
          break;
        // Listed but not shown (yet), answered without a body, or an answer that cannot be read: asked again later.
        case 'notFound':
          failed(p, `The service does not show this order (yet): ${outcome.message}`);
          break;
        case 'accepted':
          failed(p, `The service answered HTTP ${outcome.status} without the order`);
          break;
        case 'refused':
          failed(p, outcome.message);
          break;
        default:
          // 429/5xx, the network, no access, credentials: the id stays as it is and the pass stops.
          halt.failure ??= outcome;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, queue.length)) }, worker));
  flush();
  if (halt.error !== null) throw halt.error;
  return halt.failure !== null ? { kind: 'stopped', counts, call: 'status', failure: halt.failure, progressed: stored > 0 } : null;
}
