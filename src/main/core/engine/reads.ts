/**
 * What the screens and the CLI read through the engine: orders, taps, searches, a day's shift and
 * an order's timeline, as views (outbox/views.ts). A stopping engine answers with nothing rather
 * than reading a file being closed.
 */
import type { Store } from '../db';
import type { StoreViews } from '../outbox';
import { searchOrders } from '../search';
import { createShiftReader, orderTimeline } from '../shift';
import type { Engine } from './types';

const DEFAULT_LIST_LIMIT = 500;

export type EngineReads = Pick<Engine, 'entriesOf' | 'listOrders' | 'getOrder' | 'findOrders' | 'searchOrders' | 'listOutbox' | 'timeline' | 'shift'>;

export function engineReads(o: {
  store: Store;
  views: StoreViews;
  terminalId: string;
  stopped: () => boolean;
  counterName: () => string | null;
}): EngineReads {
  const { store, views } = o;
  // A day's shift, kept until the data file changes (opening the Shift screen again costs nothing).
  const shiftOf = createShiftReader(store);
  return {
    entriesOf: (orderId) => (o.stopped() ? [] : views.entryViews(store.outbox.forOrder(orderId.trim()))),
    listOrders: () => (o.stopped() ? [] : views.listOrders()),
    getOrder: (orderId) => (o.stopped() ? null : views.viewOf(orderId.trim())),
    findOrders: (text, limit) => (o.stopped() ? { matches: [], more: false } : views.findOrders(text, limit)),
    searchOrders: (query, limit) => (o.stopped() ? { hits: [], more: false } : searchOrders(store.search, views.viewOf, query, limit)),

    listOutbox(listOptions = {}) {
      if (o.stopped()) return [];
      const limit = clamp(listOptions.limit ?? DEFAULT_LIST_LIMIT, 1, 100_000);
      return views.entryViews(listOptions.includeDone ? store.outbox.recent(limit) : store.outbox.pending(limit));
    },

    shift(day) {
      const counterName = o.counterName();
      return { ...shiftOf({ day, terminal: o.terminalId, counterName }), counterName };
    },

    timeline: (orderId) => (o.stopped() ? null : orderTimeline(store, orderId.trim(), { terminal: o.terminalId, counterName: o.counterName() })),
  };
}

/** A whole number within bounds: a caller's limit, window or count is held to what the engine can serve. */
export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(n)));
}
