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

  constructor(
    orders: readonly Order[],
    private readonly now: () => number,
  ) {
    for (const order of orders) this.byId.set(order.id, structuredClone(order));
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

    this.byId.set(next.id, next);
    request.actions.forEach((action, actionIndex) =>
      this.applied.push({ requestId, orderId: next.id, actionIndex, action: structuredClone(action), appliedAt: at }),
    );
    return { status: 200, body: JSON.stringify({ requestContext: context, response: next }) };
  }
}
