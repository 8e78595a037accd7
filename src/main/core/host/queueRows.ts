/**
 * The queue's rows for `orders.head` and `orders.list`: every order listed once an engine starts,
 * then kept as rows (what the screen shows of each order, not its body) and patched from the events
 * that carry every change to a row: orders changed (their views) or removed, the outbox changed
 * (its orders read again). A page loaded again gets its first screen without a listing of every
 * order (tens of milliseconds of CPU for 5,000, several hundred of wall time on a busy machine,
 * and every frame of the page waits behind it), and the engine need not keep every order's parsed
 * body to list them cheaply (7.7 kB each: 38 MB for 5,000; db/orders-table.ts BODY_CACHE_SIZE).
 * When nothing is listed yet, `prepare` lists as a page connects, while it evaluates its script.
 */
import type { EventBody, EventName, OrderSummary, OrderView } from '../../../shared/ipc';
import { summarize } from '../../../shared/orders';
import type { Engine } from '../engine';

export interface QueueRows {
  /** Lists every order's row now unless rows are kept, and keeps them. */
  prepare(): void;
  /** Every order's row (in the engine's listing order, new orders last): the kept rows, else listed now (and kept). */
  rows(): OrderSummary[];
  /** To be called with every event the host raises, and its body as the screens get it. */
  noteEvent(event: EventName, body: unknown): void;
}

export function createQueueRows(deps: { engine: () => Engine | null; decorate?: (view: OrderView) => OrderView }): QueueRows {
  /** The rows by order id, for the engine they were listed from; `list` is their array, made when asked. */
  let kept: { rows: Map<string, OrderSummary>; engine: Engine; list: OrderSummary[] | null } | null = null;
  const decorate = deps.decorate ?? ((view: OrderView) => view);
  const listed = (engine: Engine): NonNullable<typeof kept> => {
    if (kept?.engine !== engine) kept = { rows: new Map(engine.listOrders().map((v) => [v.id, summarize(decorate(v))])), engine, list: null };
    return kept;
  };
  /** The order's row as it is now (its view read again), or gone. */
  const readAgain = (k: NonNullable<typeof kept>, orderId: string): void => {
    const view = k.engine.getOrder(orderId);
    if (view) put(k, summarize(decorate(view)));
    else k.rows.delete(orderId);
  };
  const put = (k: NonNullable<typeof kept>, row: OrderSummary): void => {
    // An order back on the terminal (taken off, then scanned or changed again) is added anew: last, as the engine lists it.
    if (k.rows.get(row.id)?.addedAt !== row.addedAt) k.rows.delete(row.id);
    k.rows.set(row.id, row);
  };
  return {
    prepare() {
      const engine = deps.engine();
      if (engine) listed(engine);
    },
    rows() {
      const engine = deps.engine();
      if (!engine) return [];
      const k = listed(engine);
      k.list ??= [...k.rows.values()];
      return k.list;
    },
    noteEvent(event, body) {
      const k = kept;
      if (!k || k.engine !== deps.engine()) return;
      switch (event) {
        case 'orders.changed':
          // The views as the screens get them (the hub's word laid over): each order's row as it now is.
          for (const view of (body as EventBody<'orders.changed'>).orders) put(k, summarize(view));
          break;
        case 'orders.removed':
          for (const id of (body as EventBody<'orders.removed'>).orderIds) k.rows.delete(id);
          break;
        case 'outbox.changed':
          // Taps waiting, refused or set aside change their orders' rows: read those again.
          for (const id of new Set((body as EventBody<'outbox.changed'>).entries.map((e) => e.orderId))) readAgain(k, id);
          break;
        case 'hub.status':
          // The hub's word on a row (a claim, another counter's taps) comes and goes with events of
          // its own order; a claim that lapsed, or the hub gone, shows at a status: those rows read again.
          for (const row of [...k.rows.values()]) if (row.claim || row.elsewhere) readAgain(k, row.id);
          break;
        case 'orders.listed':
          kept = null;
          return;
        default:
          return;
      }
      k.list = null;
    },
  };
}
