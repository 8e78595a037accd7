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

/** As many orders as a busy queue holds; each is a few references (the body is shared with the orders cache). */
const MAX_ORDERS = 10_000;

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
    if (this.byOrder.size > MAX_ORDERS) this.byOrder.delete(this.byOrder.keys().next().value as string);
  }

  /** Drops everything (a write this outbox cannot account for). */
  forget(): void {
    this.byOrder.clear();
    this.known = null;
  }
}
