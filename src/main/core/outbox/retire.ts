/**
 * Finished orders leave the terminal. Without this the queue, every `orders.list` and the data
 * file grow with every order a store ever had, and the customers' names, addresses and phones
 * stay on a counter PC for good.
 *
 * An order leaves when the service reports nothing left to do (completed or cancelled) or nothing
 * but closing it (delivered, "Complete order" never tapped), none of its taps is waiting, refused
 * or awaiting a refresh, and nothing about it changed (no new body, no tap moved) for the keep
 * period. Its details are dropped from the data file, their space zeroed; its taps stay in the
 * outbox as their record. Scanning its id again brings it back.
 *
 * History is kept in bounds too (pruneHistory): settled taps and the rows of orders that left are
 * dropped after 180 days, as the audit's lines are, so a year's history takes the place of the one
 * before instead of growing the file, and the pages pruning frees are given back to the disk
 * (reclaimSpace), so the file is the history it keeps, not the most it ever held; the order
 * finder's index is merged before that (mergeFinder), so it too is the size of what it holds.
 */
import { nextStep } from '../../../shared/fulfilment';
import type { Order } from '../../../shared/protocol';
import type { Store, SwitchOutcome } from '../db';
import { dayOf, keepDays } from '../shift';

/** How long a finished order stays on the terminal after anything last happened to it. */
export const FINISHED_KEEP_MS = 3 * 24 * 60 * 60 * 1000;
/** How long settled taps and the rows of orders that left stay in the data file (the audit keeps as long). */
export const HISTORY_KEEP_MS = 180 * 24 * 60 * 60 * 1000;
/** Rows deleted in one step of pruning: a transaction of a few milliseconds (bench/engine-start.ts --years 2). */
const PRUNE_BATCH = 500;
/** Orders looked at in one step: one transaction of a few tens of milliseconds, so a tap never waits long behind it. */
const BATCH = 100;

/** Where a walk through the orders goes on from: after this (syncedAt, id). */
export type RetireCursor = { readonly syncedAt: number; readonly id: string };

export interface RetireOptions {
  readonly now: number;
  readonly keepMs: number;
  /** Where the previous step stopped; null to start from the oldest order. */
  readonly after: RetireCursor | null;
}

export interface Retired {
  readonly orderIds: readonly string[];
  /** Where the next step goes on; null when every order has been looked at. */
  readonly next: RetireCursor | null;
}

/** One step of the walk: takes the finished orders of the next batch off the terminal; says which, and where to go on. */
export function retireFinished(store: Store, options: RetireOptions): Retired {
  const before = options.now - options.keepMs;
  // Read and acted on in one transaction: a tap another process queues meanwhile keeps its order.
  return store.scrubbing((): Retired => {
    const rows = store.orders.quietSince(before, options.after, BATCH);
    const orderIds: string[] = [];
    for (const row of rows)
      if (row.body !== null && finished(row.body) && store.orders.retire(row.id, options.now)) {
        orderIds.push(row.id);
        // Its scan-to-pack counts go with it (an order that comes back is packed afresh).
        store.packing.clear(row.id);
      }
    const last = rows.at(-1);
    // quietSince only returns rows with a syncedAt; the check keeps the cursor's type honest.
    const next = rows.length === BATCH && last && last.syncedAt !== null ? { syncedAt: last.syncedAt, id: last.id } : null;
    return { orderIds, next };
  });
}

/** Nothing left to do, or only closing a delivered order that nobody closes (it stays open at the marketplace, not here). */
function finished(order: Order): boolean {
  const step = nextStep(order);
  return step === null || step.key === 'COMPLETE';
}

export interface Pruned {
  /** Outbox entries deleted in this step. */
  readonly entries: number;
  /** Rows of orders that left, deleted in this step. */
  readonly orders: number;
  /** True when a step found a full batch: there may be more to prune now. */
  readonly more: boolean;
}

/**
 * One step of pruning history older than `keepMs`: settled taps first (sent with a readable
 * answer, or discarded), then the rows of orders that left the terminal and no kept tap points at.
 * A tap that is waiting, being sent, refused, "may already be applied" or awaiting a refresh is
 * never pruned, nor is an order on the terminal. One short transaction; call it again while `more`.
 * Given this counter's id (`terminal`), the figures of the days being pruned are kept first.
 */
export function pruneHistory(
  store: Store,
  options: { readonly now: number; readonly keepMs: number; readonly terminal?: string },
): Pruned {
  const before = options.now - options.keepMs;
  // The days whose taps go are kept as figures first (core/shift), so the shift's picture outlives them.
  // Every such day, however many (keepDays writes a month a call): a day not kept would be pruned unseen.
  if (options.terminal !== undefined) while (keepDays(store, { now: options.now, terminal: options.terminal, lastDay: dayOf(before) }).length > 0);
  return store.transaction((): Pruned => {
    store.history.prunePrints(before);
    const entries = store.outbox.prune(before, PRUNE_BATCH);
    // Orders only once their taps are gone: a row a kept tap points at stays (its history).
    const orders = entries < PRUNE_BATCH ? store.orders.dropGone(before, PRUNE_BATCH) : 0;
    return { entries, orders, more: entries === PRUNE_BATCH || orders === PRUNE_BATCH };
  });
}

/** Pages of the order finder's index written in one step of merging: a few milliseconds (bench/engine-start.ts --years 2 times them). */
const MERGE_PAGES = 64;

/**
 * One step of merging the order finder's segments, after a run of pruneHistory and before the
 * freed pages are given back: true while there is more to merge (call again). Orders that left
 * take their words out of the index without freeing its pages; merged, the index is the size of
 * what it holds, so a second year's file is no larger than the first's (db/order-search.ts).
 */
export function mergeFinder(store: Store): boolean {
  return store.transaction(() => store.search.mergeStep(MERGE_PAGES));
}

/** Free pages given back in one step: one short transaction (bench/engine-start.ts --years 2 times them). */
const GIVE_BACK_PAGES = 1000;

export type Reclaimed =
  /** Free pages given back; `more` while some are left for the next step. */
  | { readonly kind: 'given-back'; readonly pages: number; readonly more: boolean }
  /** The file was made before auto-vacuum; it waits for a moment with no tap (`quiet`). */
  | { readonly kind: 'not-quiet' }
  /** The one-time switch (a whole-file VACUUM), or why it waits for room on the disk. */
  | (Exclude<SwitchOutcome, { kind: 'already' }> & { readonly ms: number });

/**
 * One step of giving the space pruning freed back to the disk, after a run of pruneHistory: up to
 * GIVE_BACK_PAGES free pages (call again while `more`). A file made before auto-vacuum is first
 * switched to it, once: a VACUUM of the whole file, seconds for a large one during which nothing
 * else runs, so only when `quiet` (no tap lately, none waiting); a crash during it loses nothing
 * (space.ts).
 */
export function reclaimSpace(store: Store, options: { readonly quiet: boolean }): Reclaimed {
  const space = store.space();
  if (space.mode !== 'incremental') {
    if (!options.quiet) return { kind: 'not-quiet' };
    const t = Date.now();
    const outcome = store.switchToIncrementalVacuum();
    if (outcome.kind !== 'already') return { ...outcome, ms: Date.now() - t };
  }
  if (space.freePages === 0) return { kind: 'given-back', pages: 0, more: false };
  const left = store.giveBackFreePages(GIVE_BACK_PAGES);
  return { kind: 'given-back', pages: Math.max(0, space.freePages - left), more: left > 0 };
}
