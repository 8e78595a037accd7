/**
 * Finished orders leave the terminal. Without this the queue, every `orders.list` and the data
 * file grow with every order a store ever had, and the customers' names, addresses and phones
 * stay on a counter PC for good.
 *
 * An order leaves when the service reports nothing left to do (completed or cancelled), none of
 * its taps is waiting, refused or awaiting a refresh, and nothing about it changed (no new body,
 * no tap moved) for the keep period. Its details are dropped from the data file, their space
 * zeroed; its taps stay in the outbox as their record. Scanning its id again brings it back.
 */
import { nextStep } from '../../../shared/fulfilment';
import type { Store } from '../db';

/** How long a finished order stays on the terminal after anything last happened to it. */
export const FINISHED_KEEP_MS = 3 * 24 * 60 * 60 * 1000;
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
      if (row.body !== null && nextStep(row.body) === null && store.orders.retire(row.id, options.now)) orderIds.push(row.id);
    const last = rows.at(-1);
    // quietSince only returns rows with a syncedAt; the check keeps the cursor's type honest.
    const next = rows.length === BATCH && last && last.syncedAt !== null ? { syncedAt: last.syncedAt, id: last.id } : null;
    return { orderIds, next };
  });
}
