/**
 * The projected order (the service's latest answer with the waiting taps applied), remembered per
 * order: a new tap extends the last projection by one action instead of replaying them all. Bodies
 * from the store are frozen and shared, so "same body" is object identity.
 *
 * A slim projector works on the part of the order the state machine reads (state, items with their
 * counts, fulfilments, invoice) and is what a tap is validated against: the same rules on a tenth
 * of the bytes to copy. Views use the full projector.
 */
import { applyAction, projectOrder } from '../../../shared/fulfilment';
import type { Order } from '../../../shared/protocol';
import { deepFreeze, type ShapingEntry } from '../db';

interface Memo {
  readonly body: Order;
  readonly ids: readonly number[];
  readonly order: Order;
}

/** Projections remembered by default (full orders, for views). */
const MAX_MEMOS = 512;

/** The fields applyAction reads to decide and to word its refusals; nothing else is copied. */
export function slimOrder(order: Order): Order {
  const info = (order as { clientOrderInfo?: unknown }).clientOrderInfo;
  const slim = {
    id: order.id,
    orderState: order.orderState,
    items: order.items.map((i) => ({ itemId: i.itemId, ...(i.name !== undefined ? { name: i.name } : {}), quantity: { count: i.quantity.count } })),
    fulfillments: order.fulfillments.map((f) => ({
      fulfillmentId: f.fulfillmentId,
      type: f.type,
      ...(f.fulfillmentState !== undefined ? { fulfillmentState: f.fulfillmentState } : {}),
    })),
    ...(info !== undefined ? { clientOrderInfo: info } : {}),
  };
  return deepFreeze(slim as Order);
}

export class Projector {
  private readonly memos = new Map<string, Memo>();
  private readonly slims = new WeakMap<Order, Order>();

  constructor(private readonly options: { slim?: boolean; memos?: number } = {}) {}

  /** `body` with `entries` (in seq order) applied; actions that no longer apply are skipped, as in projectOrder. */
  project(orderId: string, body: Order | null, entries: readonly ShapingEntry[], now: number): Order | null {
    if (!body) {
      this.memos.delete(orderId);
      return null;
    }
    const base = this.base(body);
    // No waiting tap shapes it: the body is the projection, and a memo kept for it would only hold
    // an old body and its copy (a busy hour left 512 such, about 12 MB of the host's heap).
    if (entries.length === 0) {
      this.memos.delete(orderId);
      return base;
    }
    const ids = entries.map((e) => e.id);
    const memo = this.memos.get(orderId);
    let order: Order;
    if (memo && memo.body === body && isPrefix(memo.ids, ids)) {
      if (memo.ids.length === ids.length) return memo.order;
      order = memo.order;
      for (const e of entries.slice(memo.ids.length)) {
        const r = applyAction(order, e.action, now);
        if (r.ok) order = r.value;
      }
    } else {
      order = projectOrder(base, entries.map((e) => e.action), now).order;
    }
    this.remember(orderId, { body, ids, order: this.shared(order) });
    return order;
  }

  /** A tap was just queued on top of `entries`: its validated result is the next projection, so keep it. */
  extend(orderId: string, body: Order | null, entries: readonly ShapingEntry[], entryId: number, projected: Order | null): void {
    if (!body || !projected) return;
    this.remember(orderId, { body, ids: [...entries.map((e) => e.id), entryId], order: this.shared(projected) });
  }

  /**
   * A full projection is frozen: the same object is handed to several readers (views). A slim one
   * is only ever read by applyAction, which copies before it changes anything, and never leaves the
   * outbox; walking it to freeze it was a twentieth of a tap's CPU.
   */
  private shared(order: Order): Order {
    return this.options.slim ? order : deepFreeze(order);
  }

  private base(body: Order): Order {
    if (!this.options.slim) return body;
    let slim = this.slims.get(body);
    if (!slim) this.slims.set(body, (slim = slimOrder(body)));
    return slim;
  }

  /**
   * Lets the order's projection go: a tap of it was answered, taken back or given up, so the memo
   * (keyed on the entries that waited) can never be used again, and it held the old body. Nothing
   * else may look at the order again (a delivered order leaves the terminal), so without this a
   * busy hour's orders stayed held, each with its body.
   */
  forget(orderId: string): void {
    this.memos.delete(orderId);
  }

  /** Lets go every projection but those of `orderIds` (the orders taps wait on now). */
  keepOnly(orderIds: ReadonlySet<string>): void {
    for (const id of [...this.memos.keys()]) if (!orderIds.has(id)) this.memos.delete(id);
  }

  /** Orders whose projection is remembered now (kept only while taps wait on them). */
  get remembered(): number {
    return this.memos.size;
  }

  private remember(orderId: string, memo: Memo): void {
    this.memos.delete(orderId);
    this.memos.set(orderId, memo);
    if (this.memos.size > (this.options.memos ?? MAX_MEMOS)) this.memos.delete(this.memos.keys().next().value as string);
  }
}

function isPrefix(short: readonly number[], long: readonly number[]): boolean {
  if (short.length > long.length) return false;
  for (let i = 0; i < short.length; i++) if (short[i] !== long[i]) return false;
  return true;
}
