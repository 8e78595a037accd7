/**
 * The order book: the sandbox's orders and the log of what was applied to them. Actions are
 * applied with the terminal's own rules (`applyAction`), all-or-nothing per request.
 */
import { applyAction } from '../src/shared/fulfilment/apply';
import type { Order, OrderUpdateRequest } from '../src/shared/protocol/schemas';
import { type Answer, errorAnswer, refusalStatus } from './answers';
import type { AppliedEntry } from './types';

export class OrderBook {
  private readonly byId = new Map<string, Order>();
  private readonly applied: AppliedEntry[] = [];
  /** When each order was placed or last changed (epoch ms): what `changes` windows select on. */
  private readonly changedAt = new Map<string, number>();

  constructor(
    orders: readonly Order[],
    private readonly now: () => number,
  ) {
    for (const order of orders) this.put(order, changeTimeOf(order, now()));
  }

  /** Adds or replaces an order, changed at `at`. */
  put(order: Order, at: number): void {
    this.byId.set(order.id, structuredClone(order));
    this.changedAt.set(order.id, at);
  }

  /** Ids of one seller's orders placed or changed in [from, to] (both ends included), oldest change first. */
  changedBetween(serviceProviderId: string, from: number, to: number): string[] {
    return [...this.changedAt.entries()]
      .filter(([id, at]) => at >= from && at <= to && this.byId.get(id)?.serviceProvider?.id === serviceProviderId)
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
      .map(([id]) => id);
  }

  /** The largest number in an `ORD-<n>` id, so new orders get fresh ids. */
  highestNumber(): number {
    let max = 0;
    for (const id of this.byId.keys()) max = Math.max(max, Number(/(\d+)$/.exec(id)?.[1] ?? 0));
    return max;
  }

  /** All orders, in seeded order (deep copies). */
  list(): Order[] {
    return [...this.byId.values()].map((o) => structuredClone(o));
  }

  /** One order (a deep copy). */
  get(id: string): Order | undefined {
    const order = this.byId.get(id);
    return order ? structuredClone(order) : undefined;
  }

  /** Every action applied, in the order applied (copies). */
  log(): AppliedEntry[] {
    return structuredClone(this.applied);
  }

  /**
   * Applies a parsed request. If any action is refused nothing of the request is applied, and the
   * answer carries that action's refusal code and message.
   */
  update(request: OrderUpdateRequest): Answer {
    const { requestId, transactionId } = request.requestContext;
    const context = { requestId, transactionId };
    const current = this.byId.get(request.orderId);
    if (!current) return errorAnswer(404, context, 'NOT_FOUND', `Order ${request.orderId} was not found`);

    const at = this.now();
    let next = current;
    for (const [index, action] of request.actions.entries()) {
      const result = applyAction(next, action, at);
      if (!result.ok) {
        const { code, message } = result.problem;
        const total = request.actions.length;
        const text = total > 1 ? `Action ${index + 1} of ${total} refused, nothing was applied: ${message}` : message;
        return errorAnswer(refusalStatus(code), context, code ?? 'INVALID_ACTION', text);
      }
      next = result.value;
    }

    this.put(next, at);
    request.actions.forEach((action, actionIndex) =>
      this.applied.push({ requestId, orderId: next.id, actionIndex, action: structuredClone(action), appliedAt: at }),
    );
    return { status: 200, body: JSON.stringify({ requestContext: context, response: next }) };
  }
}

/** An order's own updatedAt as epoch ms, or `fallback` when it has none readable. */
function changeTimeOf(order: Order, fallback: number): number {
  const at = order.updatedAt ? Date.parse(order.updatedAt) : Number.NaN;
  return Number.isNaN(at) ? fallback : at;
}
