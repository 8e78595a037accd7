/**
 * An order's queue row: its view without the body, and the few facts a row shows read off the
 * body once. The main side answers `orders.list` with these; the renderer makes the same row from
 * each whole view an event brings, so both agree by construction.
 */
import type { OrderFacts, OrderSummary, OrderView } from '../ipc';
import type { Order } from '../protocol/schemas';

/** Whether any item needs a prescription checked. */
export function hasPrescriptionItem(order: Order): boolean {
  return order.items.some((i) => i.prescriptionRequired === true);
}

/** Who the order is for, how many lines and units, its state, and whether a prescription is involved. */
export function factsOf(order: Order): OrderFacts {
  const customer = order.billing?.name ?? order.fulfillments.find((f) => f.end?.person?.name)?.end?.person?.name ?? null;
  return {
    orderState: order.orderState.trim(),
    customer: customer?.trim() ? customer : null,
    lines: order.items.length,
    units: order.items.reduce((sum, i) => sum + i.quantity.count, 0),
    prescription: hasPrescriptionItem(order),
  };
}

/** The queue row of a view. */
export function summarize(view: OrderView): OrderSummary {
  const { order, ...rest } = view;
  return { ...rest, facts: order ? factsOf(order) : null };
}
