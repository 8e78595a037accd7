/**
 * What a tap reads of its order (its row, with the parsed body, and the entries that shape its
 * projection), kept between taps for as long as every write to the data file since was one of
 * this outbox's own taps, whose effect on those reads is known. Any other write (an answer
 * settled, an undo, intake, the CLI, another process) moves the file's generation
 * (Store.generation) and drops everything: the next tap reads from the file again.
 *
 * Packers tap in bursts (a rider arrives, a row of orders goes out); a tap then needs no reads
 * but the generation, and its time to durable is its check, its row and the commit.
 */
import type { OrderRow, ShapingEntry } from '../db';

export interface OrderReads {
  readonly row: OrderRow;
  readonly entries: readonly ShapingEntry[];
}

/**
 * The orders of a burst (a rider's row of orders). Each holds its order's parsed body, shared with
 * the orders cache while the cache keeps it and kept alive by this alone once the cache let it go:
 * with room for 10,000, a terminal offline for a busy day (no other write to clear it) would have
 * held every tapped order's body, and heap snapshots after a compressed busy hour found these reads
 * among what the live heap gained. A tap on an order no longer here reads its row again.
 */
export const TAP_READS_KEPT = 64;

export class TapReads {
  /** The generation after the last tap this holds the reads of; null when it holds none. */
  private known: string | null = null;
  private readonly byOrder = new Map<string, OrderReads>();

  /** The reads of `orderId` if nothing but this outbox's own taps wrote since they were taken; `generation` is the file's now. */
  get(orderId: string, generation: string): OrderReads | null {
    if (generation !== this.known) {
      this.forget();
      return null;
    }
    return this.byOrder.get(orderId) ?? null;
  }

  /**
   * A tap on `orderId` was committed: the file went from generation `before` (read in the tap's
   * transaction) to `after`, and `reads` is what the tap's order reads now.
   */
  committed(before: string, after: string, orderId: string, reads: OrderReads): void {
    // Something else wrote before this tap: only this order's reads, taken in its transaction, hold.
    if (before !== this.known) this.forget();
    this.known = after;
    this.byOrder.delete(orderId);
    this.byOrder.set(orderId, reads);
    if (this.byOrder.size > TAP_READS_KEPT) this.byOrder.delete(this.byOrder.keys().next().value as string);
  }

  /** How many orders' reads are kept now. */
  get size(): number {
    return this.byOrder.size;
  }

  /** Drops everything (a write this outbox cannot account for). */
  forget(): void {
    this.byOrder.clear();
    this.known = null;
  }
}
