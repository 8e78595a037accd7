/**
 * Orders on the terminal, keyed by id: the queue's rows come from `orders.list` once and from
 * every `orders.changed` after; whole views (with the order's body) only for the orders a screen
 * needed (`useOrderView` reads one with `orders.get`) and for those events bring, at most
 * VIEWS_KEPT of them beside those a screen shows (`holdView`). Each event
 * replaces whole views (the engine's projection); the renderer computes state only to foresee a
 * tap on its way (`predicted`, with the engine's own rules), and otherwise only keeps the rows
 * sorted for the queue and counted per step for the filters.
 * An event updates the Map in place and bumps `version`: copying 5,000 entries on every event
 * cost about a millisecond on the tap-to-screen path. Components select single views
 * (`byId.get(id)`, a new object when it changed) or `version`, never the Map itself. The
 * sorted list is touched only when a sort key moved.
 */
import { create } from 'zustand';
import type { OrderSummary, OrderView, QueueHead, StepCounts } from '../../../shared/ipc';
import { compareViews, countSteps, inQueueOrder, noSteps, sameSortKey, stepOf, summarize } from '../../../shared/orders';

export type { StepFilterKey } from '../../../shared/ipc';
export { compareViews, stepOf } from '../../../shared/orders';

export interface OrdersSnapshot {
  /** Queue rows. Owned by the snapshot chain: `mergeOrders` updates it in place. */
  readonly byId: ReadonlyMap<string, OrderSummary>;
  /** Whole views of the orders a screen shows or an event brought lately (VIEWS_KEPT), updated in place likewise. */
  readonly views: ReadonlyMap<string, OrderView>;
  /** Bumped on every change, for selectors that depend on many orders. */
  readonly version: number;
  /** Ids in queue order. */
  readonly sortedIds: readonly string[];
  readonly counts: Readonly<StepCounts>;
  /**
   * False while only the queue's head is in (`orders.head`: every id, the first screenful's rows,
   * the counts): the other ids have no row yet until `orders.list` replaces the lot.
   */
  readonly complete: boolean;
}

export const EMPTY_ORDERS: OrdersSnapshot = { byId: new Map(), views: new Map(), version: 0, sortedIds: [], counts: noSteps(), complete: true };

const sortedIdsOf = (rows: Iterable<OrderSummary>): string[] => inQueueOrder(rows).map((v) => v.id);

/**
 * A snapshot holding exactly `rows` (the answer to orders.list). Whole views read before are
 * dropped: the list is newer, and a screen still showing one reads it again.
 */
export function replaceOrders(rows: readonly OrderSummary[]): OrdersSnapshot {
  const byId = new Map<string, OrderSummary>();
  for (const v of rows) byId.set(v.id, v);
  return { byId, views: new Map(), version: 1, sortedIds: sortedIdsOf(byId.values()), counts: countSteps(byId.values()), complete: true };
}

/** A snapshot of the queue's head alone (the first screen); `replaceOrders` with the whole list follows. */
export function headOrders(head: QueueHead): OrdersSnapshot {
  const byId = new Map<string, OrderSummary>();
  for (const v of head.rows) byId.set(v.id, v);
  return { byId, views: new Map(), version: 1, sortedIds: head.ids, counts: { ...head.counts }, complete: false };
}

/** Whether the terminal holds order `id` (also when only the queue's head is in and it has no row yet). */
export function holdsOrder(snap: OrdersSnapshot, id: string): boolean {
  return snap.byId.has(id) || (!snap.complete && snap.sortedIds.includes(id));
}

/**
 * Whole views kept beside the rows, besides those a screen shows: the orders events brought most
 * lately. Every event brings whole views, and they were kept for every order until it left the
 * terminal: about a thousand in bench/memory.ts's compressed hour, while the page's JS heap went
 * 8 -> 12 MB (how much of that they were is not measured). A screen opening an order whose view
 * went reads it again (`loadOrder`).
 */
export const VIEWS_KEPT = 64;

/** How many mounted screens show each order (`holdView`): their views are never let go. */
const viewsInUse = new Map<string, number>();

/** A screen shows order `id`'s whole view until the returned function is called. */
export function holdView(id: string): () => void {
  viewsInUse.set(id, (viewsInUse.get(id) ?? 0) + 1);
  return () => {
    const left = (viewsInUse.get(id) ?? 1) - 1;
    if (left > 0) viewsInUse.set(id, left);
    else viewsInUse.delete(id);
  };
}

/** Lets the least lately brought views go, down to VIEWS_KEPT beside those in use (the Map's order is the order they came). */
function keepRecentViews(whole: Map<string, OrderView>): void {
  let held = 0;
  for (const id of viewsInUse.keys()) if (whole.has(id)) held += 1;
  let over = whole.size - held - VIEWS_KEPT;
  if (over <= 0) return;
  for (const id of whole.keys()) {
    if (over <= 0) break;
    if (viewsInUse.has(id)) continue;
    whole.delete(id);
    over -= 1;
  }
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
    // Only the head is in and this order had no row yet: its old step and place are not known
    // here, so it keeps the head's place and counts until the whole list (on its way) replaces them.
    const unseen = !before && holdsOrder(snap, v.id);
    if (before) counts[stepOf(before)] -= 1;
    if (!unseen) counts[stepOf(v)] += 1;
    byId.set(v.id, v);
    // Deleted first, so the Map's order stays the order views came in (the newest last).
    whole.delete(v.id);
    whole.set(v.id, view);
    if (!unseen && (!before || !sameSortKey(before, v))) moved.push(v);
  }
  keepRecentViews(whole);
  const complete = snap.complete;
  if (moved.length === 0) return { byId, views: whole, version, sortedIds: snap.sortedIds, counts, complete };
  // A full sort needs every row; with the head alone the moved ones are placed one by one.
  if (moved.length > INCREMENTAL_LIMIT && complete) {
    return { byId, views: whole, version, sortedIds: sortedIdsOf(byId.values()), counts, complete };
  }
  const movedIds = new Set(moved.map((v) => v.id));
  const ids = snap.sortedIds.filter((id) => !movedIds.has(id));
  for (const v of moved) ids.splice(insertionPoint(ids, byId, v), 0, v.id);
  return { byId, views: whole, version, sortedIds: ids, counts, complete };
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
    // With the head alone an order may be held without its row: it leaves the list, its step's
    // count waits for the whole list.
    if (!before && !holdsOrder(snap, id)) continue;
    byId.delete(id);
    (snap.views as Map<string, OrderView>).delete(id);
    if (before) counts[stepOf(before)] -= 1;
    gone.add(id);
  }
  if (gone.size === 0) return snap;
  const sortedIds = snap.sortedIds.filter((x) => !gone.has(x));
  return { byId, views: snap.views, version: snap.version + 1, sortedIds, counts, complete: snap.complete };
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
  /** The queue's head, for the first screen; `fill` brings the rest. */
  replaceHead(head: QueueHead): void;
  /**
   * The whole list (orders.list) after the head: its rows replace the head's. Whole views and taps
   * on their way stay: the list was read after every event the page had by then.
   */
  fill(rows: readonly OrderSummary[]): void;
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
  replaceHead: (head) => {
    get().onTheirWay.clear();
    set({ ...headOrders(head), loaded: true, predicted: new Map() });
  },
  fill: (rows) => set((s) => ({ ...replaceOrders(rows), views: s.views, version: s.version + 1 })),
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
