/**
 * The queue's rows for `orders.head` and `orders.list`: every order listed once an engine starts,
 * then kept as rows (what the screen shows of each order, not its body) and patched from the events
 * that carry every change to a row: orders changed (their views, the hub's word laid over) or
 * removed, the outbox changed (its orders read again). A page loaded again gets its first screen
 * without a listing of every order (tens of milliseconds of CPU for 5,000, several hundred of wall
 * time on a busy machine, and every frame of the page waits behind it), and the engine need not
 * keep every order's parsed body to list them cheaply (7.7 kB each: 38 MB for 5,000;
 * db/orders-table.ts BODY_CACHE_SIZE). When nothing is listed yet, `prepare` lists as a page
 * connects, while it evaluates its script.
 */
import type { EventBody, EventName, OrderSummary, OrderView } from '../../../shared/ipc';
import { summarize } from '../../../shared/orders';
import type { Engine } from '../engine';

export interface QueueRows {
  /** Lists every order's row now unless rows are kept, and keeps them. */
  prepare(): void;
  /** Every order's row, in the engine's listing order (when added, then id): the kept rows, else listed now (and kept). */
  rows(): OrderSummary[];
  /** To be called with every event the host raises, and its body as the screens get it. */
  noteEvent(event: EventName, body: unknown): void;
}

export interface QueueRowsDeps {
  readonly engine: () => Engine | null;
  /** The view with the hub's facts laid over: the one read path (host/hub/overlay.ts). */
  readonly decorate?: (view: OrderView) => OrderView;
  /**
   * What of the hub's word can be laid over the rows: which hub this counter is part of, as what,
   * and whether claims show (only while the hub answers). When it changes (joined, left, the hub
   * away or back), every order's view may change at once with no event per order: listed again.
   */
  readonly hubWord?: () => string;
  readonly now?: () => number;
}

/** The engine's listing order (orders-table.ts: ORDER BY added_at, id). */
const byListing = (a: OrderSummary, b: OrderSummary): number => a.addedAt - b.addedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function createQueueRows(deps: QueueRowsDeps): QueueRows {
  /** The rows by order id, for the engine and the hub's word they were listed with; `list` is their array, made when asked. */
  let kept: { rows: Map<string, OrderSummary>; engine: Engine; hubWord: string; list: OrderSummary[] | null } | null = null;
  const decorate = deps.decorate ?? ((view: OrderView) => view);
  const hubWord = deps.hubWord ?? (() => '');
  const now = deps.now ?? Date.now;
  const listed = (engine: Engine): NonNullable<typeof kept> => {
    if (kept?.engine !== engine) {
      const word = hubWord();
      kept = { rows: new Map(engine.listOrders().map((v) => [v.id, summarize(decorate(v))])), engine, hubWord: word, list: null };
    }
    return kept;
  };
  /** The order's row as it is now (its view read again), or gone. */
  const readAgain = (k: NonNullable<typeof kept>, orderId: string): void => {
    const view = k.engine.getOrder(orderId);
    if (view) k.rows.set(orderId, summarize(decorate(view)));
    else k.rows.delete(orderId);
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
      // Rows come in the listing's order; an order added (or back on the terminal) is set last, so
      // the sort only moves the few an event brought out of place.
      k.list ??= [...k.rows.values()].sort(byListing);
      return k.list;
    },
    noteEvent(event, body) {
      const k = kept;
      if (!k || k.engine !== deps.engine()) return;
      switch (event) {
        case 'orders.changed':
          for (const view of (body as EventBody<'orders.changed'>).orders) k.rows.set(view.id, summarize(view));
          break;
        case 'orders.removed':
          for (const id of (body as EventBody<'orders.removed'>).orderIds) k.rows.delete(id);
          break;
        case 'outbox.changed':
          // Taps waiting, refused or set aside change their orders' rows: read those again.
          for (const id of new Set((body as EventBody<'outbox.changed'>).entries.map((e) => e.orderId))) readAgain(k, id);
          break;
        case 'hub.status': {
          if (hubWord() !== k.hubWord) {
            kept = null;
            return;
          }
          // The hub's word on a row comes and goes with events of its own order; a claim also stops
          // showing once its expiry passes, which its lapse event (a second later) may not yet have said.
          // Most statuses (a counter's presence, every few seconds) change no row: the list stays made.
          const t = now();
          const lapsed = [...k.rows.values()].filter((row) => row.claim && row.claim.expiresAt <= t);
          if (lapsed.length === 0) return;
          for (const row of lapsed) readAgain(k, row.id);
          break;
        }
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
