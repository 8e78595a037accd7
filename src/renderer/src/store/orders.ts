/**
 * Orders on the terminal, keyed by id: the queue's rows come from `orders.list` once and from
 * every `orders.changed` after; whole views (with the order's body) only for the orders a screen
 * needed (`useOrderView` reads one with `orders.get`) and for those events bring. Each event
 * replaces whole views (the engine's projection); the renderer computes state only to foresee a
 * tap on its way (`predicted`, with the engine's own rules), and otherwise only keeps the rows
 * sorted for the queue and counted per step for the filters.
 * An event updates the Map in place and bumps `version`: copying 5,000 entries on every event
 * cost about a millisecond on the tap-to-screen path. Components select single views
 * (`byId.get(id)`, a new object when it changed) or `version`, never the Map itself. The
 * sorted list is touched only when a sort key moved.
 */
import { create } from 'zustand';
import type { OrderSummary, OrderView } from '../../../shared/ipc';
import { summarize } from '../../../shared/orders';
import type { StepKey } from '../../../shared/fulfilment/states';

/** Filter keys: a next step, or DONE for orders with nothing left to do. */
export type StepFilterKey = StepKey | 'DONE';

export interface OrdersSnapshot {
  /** Queue rows. Owned by the snapshot chain: `mergeOrders` updates it in place. */
  readonly byId: ReadonlyMap<string, OrderSummary>;
  /** Whole views of the orders a screen needed or an event brought, updated in place likewise. */
  readonly views: ReadonlyMap<string, OrderView>;
  /** Bumped on every change, for selectors that depend on many orders. */
  readonly version: number;
  /** Ids in queue order. */
  readonly sortedIds: readonly string[];
  readonly counts: Readonly<Record<StepFilterKey, number>>;
}

const EMPTY_COUNTS: Record<StepFilterKey, number> = {
  ACCEPT: 0,
  PACKING: 0,
  PACKED: 0,
  OUT_FOR_DELIVERY: 0,
  DELIVERED: 0,
  COMPLETE: 0,
  DONE: 0,
};

export const EMPTY_ORDERS: OrdersSnapshot = { byId: new Map(), views: new Map(), version: 0, sortedIds: [], counts: EMPTY_COUNTS };

/** Which filter an order falls under; a new order whose Accept waits for the service is still "accept". */
export function stepOf(view: OrderSummary): StepFilterKey {
  if (!view.nextStep && !view.facts) return 'ACCEPT';
  return view.nextStep?.key ?? 'DONE';
}

/**
 * Queue bands: an order whose alarm is open first, then orders still to be packed (their promised PACKED time is running out),
 * then packed orders waiting for delivery steps, then finished ones.
 */
function band(view: OrderSummary): number {
  // Cancelled or changed elsewhere and not yet acknowledged: at the top, where it cannot be missed.
  if (view.alarm) return -1;
  if (!view.facts) return 0;
  const key = view.nextStep?.key;
  if (key === 'ACCEPT' || key === 'PACKING' || key === 'PACKED') return 0;
  if (key === 'OUT_FOR_DELIVERY' || key === 'DELIVERED' || key === 'COMPLETE') return 1;
  return 2;
}

/** Queue order: band, then the promised PACKED time (unknown last), then when added, then id. */
export function compareViews(a: OrderSummary, b: OrderSummary): number {
  return band(a) - band(b) || compareInBand(a, b);
}

/** Queue order within a band. */
function compareInBand(a: OrderSummary, b: OrderSummary): number {
  const pa = a.promisedPackedAt ?? Number.POSITIVE_INFINITY;
  const pb = b.promisedPackedAt ?? Number.POSITIVE_INFINITY;
  if (pa !== pb) return pa < pb ? -1 : 1;
  if (a.addedAt !== b.addedAt) return a.addedAt - b.addedAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Ids in queue order (compareViews), each row's band worked out once rather than at every one of
 * the sort's ~60,000 comparisons for 5,000 orders (on the path to the first rows).
 */
function sortedIdsOf(rows: Iterable<OrderSummary>): string[] {
  const keyed = Array.from(rows, (v) => ({ v, band: band(v) }));
  keyed.sort((a, b) => a.band - b.band || compareInBand(a.v, b.v));
  return keyed.map((k) => k.v.id);
}

function sameSortKey(a: OrderSummary, b: OrderSummary): boolean {
  return band(a) === band(b) && a.promisedPackedAt === b.promisedPackedAt && a.addedAt === b.addedAt;
}

/**
 * A snapshot holding exactly `rows` (the answer to orders.list). Whole views read before are
 * dropped: the list is newer, and a screen still showing one reads it again.
 */
export function replaceOrders(rows: readonly OrderSummary[]): OrdersSnapshot {
  const byId = new Map<string, OrderSummary>();
  for (const v of rows) byId.set(v.id, v);
  const counts = { ...EMPTY_COUNTS };
  for (const v of byId.values()) counts[stepOf(v)] += 1;
  const sortedIds = sortedIdsOf(byId.values());
  return { byId, views: new Map(), version: 1, sortedIds, counts };
}

/** Up to this many moved orders are re-placed one by one; more and a full sort is cheaper. */
const INCREMENTAL_LIMIT = 32;

/**
 * The next snapshot with `views` merged in (an orders.changed event or a command's answer). The
 * Map is the previous snapshot's, updated in place: only the newest snapshot is ever read.
 */
export function mergeOrders(snap: OrdersSnapshot, views: readonly OrderView[]): OrdersSnapshot {
  if (views.length === 0) return snap;
  const byId = snap.byId as Map<string, OrderSummary>;
  const whole = snap.views as Map<string, OrderView>;
  const version = snap.version + 1;
  const counts = { ...snap.counts };
  const moved: OrderSummary[] = [];
  for (const view of views) {
    const v = summarize(view);
    const before = byId.get(v.id);
    if (before) counts[stepOf(before)] -= 1;
    counts[stepOf(v)] += 1;
    byId.set(v.id, v);
    whole.set(v.id, view);
    if (!before || !sameSortKey(before, v)) moved.push(v);
  }
  if (moved.length === 0) return { byId, views: whole, version, sortedIds: snap.sortedIds, counts };
  if (moved.length > INCREMENTAL_LIMIT) {
    return { byId, views: whole, version, sortedIds: sortedIdsOf(byId.values()), counts };
  }
  const movedIds = new Set(moved.map((v) => v.id));
  const ids = snap.sortedIds.filter((id) => !movedIds.has(id));
  for (const v of moved) ids.splice(insertionPoint(ids, byId, v), 0, v.id);
  return { byId, views: whole, version, sortedIds: ids, counts };
}

/** Binary search for where `v` belongs in the sorted `ids`. */
function insertionPoint(ids: readonly string[], byId: ReadonlyMap<string, OrderSummary>, v: OrderSummary): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const other = byId.get(ids[mid] ?? '');
    if (other && compareViews(other, v) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The next snapshot without the orders `ids` (taken off the terminal). */
export function withoutOrders(snap: OrdersSnapshot, ids: Iterable<string>): OrdersSnapshot {
  const byId = snap.byId as Map<string, OrderSummary>;
  const gone = new Set<string>();
  const counts = { ...snap.counts };
  for (const id of ids) {
    const before = byId.get(id);
    if (!before) continue;
    byId.delete(id);
    (snap.views as Map<string, OrderView>).delete(id);
    counts[stepOf(before)] -= 1;
    gone.add(id);
  }
  if (gone.size === 0) return snap;
  return { byId, views: snap.views, version: snap.version + 1, sortedIds: snap.sortedIds.filter((x) => !gone.has(x)), counts };
}

/** `predicted` without the views of `ids` (the engine's own views of those orders arrived). */
function withoutPredictions(predicted: ReadonlyMap<string, OrderView>, ids: Iterable<string>): ReadonlyMap<string, OrderView> {
  let next: Map<string, OrderView> | null = null;
  for (const id of ids) {
    if (!predicted.has(id)) continue;
    next ??= new Map(predicted);
    next.delete(id);
  }
  return next ?? predicted;
}

/**
 * Taps sent for an order and not yet answered, and whether the engine's view of that order came
 * since the first of them: a foreseen view stays until the last one is answered, so two quick taps
 * never show the state after the first alone in between.
 */
interface OnTheirWay {
  taps: number;
  engineSpoke: boolean;
}

interface OrdersStore extends OrdersSnapshot {
  loaded: boolean;
  /**
   * Views foreseen for taps the engine has not answered yet (`predictTap`), by order id: shown
   * instead of the engine's view until the last of the order's taps is answered (the engine's view
   * has come by then; when it has not, the caller reads it). A handful at most.
   */
  predicted: ReadonlyMap<string, OrderView>;
  /** Not state a component draws: bookkeeping for `predicted`. */
  onTheirWay: Map<string, OnTheirWay>;
  replace(rows: readonly OrderSummary[]): void;
  merge(views: readonly OrderView[]): void;
  /** Orders that left the terminal (taken off by a packer, or finished long ago). */
  remove(ids: readonly string[]): void;
  /** Shows `view`, foreseen for a tap now on its way to the engine. */
  predict(view: OrderView): void;
  /**
   * A tap foreseen with `predict` was answered. Once the order's last tap is answered the
   * foreseen view goes: at once when the tap was refused or the engine's view has come meanwhile;
   * 'unseen' says it has not come (an event lost on a reconnect), for the caller to read it.
   */
  answered(id: string, accepted: boolean): 'done' | 'unseen';
}

export const useOrders = create<OrdersStore>()((set, get) => ({
  ...EMPTY_ORDERS,
  loaded: false,
  predicted: new Map(),
  onTheirWay: new Map(),
  replace: (rows) => {
    get().onTheirWay.clear();
    set({ ...replaceOrders(rows), loaded: true, predicted: new Map() });
  },
  merge: (views) =>
    set((s) => {
      const settled: string[] = [];
      for (const v of views) {
        const waiting = s.onTheirWay.get(v.id);
        if (waiting) waiting.engineSpoke = true;
        else settled.push(v.id);
      }
      return { ...mergeOrders(s, views), predicted: withoutPredictions(s.predicted, settled) };
    }),
  remove: (ids) => {
    for (const id of ids) get().onTheirWay.delete(id);
    set((s) => ({ ...withoutOrders(s, ids), predicted: withoutPredictions(s.predicted, ids) }));
  },
  predict: (view) => {
    const waiting = get().onTheirWay.get(view.id);
    if (waiting) waiting.taps += 1;
    else get().onTheirWay.set(view.id, { taps: 1, engineSpoke: false });
    set((s) => ({ predicted: new Map(s.predicted).set(view.id, view) }));
  },
  answered: (id, accepted) => {
    const waiting = get().onTheirWay.get(id);
    if (!waiting) return 'done';
    waiting.taps -= 1;
    // A refusal: what was foreseen will not happen; the engine's view is the truth (later taps
    // still on their way arrive with their own views).
    if (!accepted) set((s) => ({ predicted: withoutPredictions(s.predicted, [id]) }));
    if (waiting.taps > 0) return 'done';
    get().onTheirWay.delete(id);
    if (!get().predicted.has(id)) return 'done';
    if (!waiting.engineSpoke) return 'unseen';
    set((s) => ({ predicted: withoutPredictions(s.predicted, [id]) }));
    return 'done';
  },
}));

/** The view a screen shows of `id`: the one foreseen for a tap on its way, else the engine's. */
export function shownView(s: Pick<OrdersStore, 'predicted' | 'views'>, id: string): OrderView | undefined {
  return s.predicted.get(id) ?? s.views.get(id);
}
