/**
 * The queue's rows for `orders.head` and `orders.list`, kept from one listing to the next while
 * nothing about the orders changes: every change to a row comes with an event (orders changed or
 * removed, the outbox changed), so a page loaded again (a reload, a second window) while nothing
 * happened gets its first screen without a listing of every order (tens of milliseconds of CPU
 * for 5,000, several hundred of wall time on a busy machine, and every frame of the page, its
 * settings too, waits behind it). When no list is kept, `prepare` lists as a page connects, while
 * the page still evaluates its script.
 */
import type { EventName, OrderSummary, OrderView } from '../../../shared/ipc';
import { summarize } from '../../../shared/orders';
import type { Engine } from '../engine';

/** Events after which a kept list no longer holds (the hub's word on a view changes with its status). */
const CHANGES: ReadonlySet<EventName> = new Set(['orders.changed', 'orders.removed', 'orders.listed', 'outbox.changed', 'hub.status']);

export interface QueueRows {
  /** Lists every order's row now unless a list still holds, and keeps it. */
  prepare(): void;
  /** Every order's row: the kept list while it holds, else listed now (and kept). */
  rows(): OrderSummary[];
  /** To be called with every event the host raises. */
  noteEvent(event: EventName): void;
}

export function createQueueRows(deps: { engine: () => Engine | null; decorate?: (view: OrderView) => OrderView }): QueueRows {
  let kept: { rows: OrderSummary[]; engine: Engine } | null = null;
  const decorate = deps.decorate ?? ((view: OrderView) => view);
  const rows = (): OrderSummary[] => {
    const engine = deps.engine();
    if (!engine) return [];
    if (kept?.engine !== engine) kept = { rows: engine.listOrders().map((v) => summarize(decorate(v))), engine };
    return kept.rows;
  };
  return {
    prepare() {
      rows();
    },
    rows,
    noteEvent(event) {
      if (CHANGES.has(event)) kept = null;
    },
  };
}
