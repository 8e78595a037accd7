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
/** Orders looked at per transaction: a batch is a few milliseconds, never long enough to hold up a tap. */
const BATCH = 200;

export interface RetireOptions {
  readonly now: number;
  readonly keepMs: number;
  /** Stop after this many orders have left; the rest leave on the next run. */
  readonly limit: number;
}

export interface Retired {
  readonly orderIds: readonly string[];
  /** The limit was reached: more may be ready to leave. */
  readonly more: boolean;
}

/** Takes finished orders untouched for the keep period off the terminal; says which. */
export function retireFinished(store: Store, options: RetireOptions): Retired {
  const before = options.now - options.keepMs;
  const orderIds: string[] = [];
  let cursor: { syncedAt: number; id: string } | null = null;
  for (;;) {
    // Read and acted on in one transaction: a tap another process queues meanwhile keeps its order.
    const looked = store.scrubbing(() => {
      const rows = store.orders.quietSince(before, cursor, BATCH);
      for (const row of rows) {
        if (orderIds.length >= options.limit) return { rows: rows.length, last: row, full: true };
        if (row.body !== null && nextStep(row.body) === null && store.orders.retire(row.id, options.now)) orderIds.push(row.id);
      }
      return { rows: rows.length, last: rows.at(-1) ?? null, full: false };
    });
    if (looked.full) return { orderIds, more: true };
    if (looked.rows < BATCH || looked.last === null || looked.last.syncedAt === null) return { orderIds, more: false };
    cursor = { syncedAt: looked.last.syncedAt, id: looked.last.id };
  }
}
