/**
 * Words read off an order for display. Only reading: what the order's next step is, or how it
 * changes, is the engine's business and arrives in OrderView.
 */
import type { Order } from '../../shared/protocol/schemas';

/** Who the order is for: the billing name, else the person at a fulfilment's end. */
export function customerName(order: Order | null): string {
  if (!order) return 'New order — details not received yet';
  const name = order.billing?.name ?? order.fulfillments.find((f) => f.end?.person?.name)?.end?.person?.name;
  return name ?? 'Customer not named';
}

/** "3 items · 7 units". */
export function itemSummary(order: Order | null): string {
  if (!order) return 'Items not known yet';
  const lines = order.items.length;
  const units = order.items.reduce((sum, i) => sum + i.quantity.count, 0);
  return `${lines} ${lines === 1 ? 'item' : 'items'} · ${units} ${units === 1 ? 'unit' : 'units'}`;
}

/** Whether any item needs a prescription checked. */
export function hasPrescriptionItem(order: Order | null): boolean {
  return order?.items.some((i) => i.prescriptionRequired === true) ?? false;
}

/** The order's state as the service words it ("Accepted", "In-progress"), or "New". */
export function orderStateWord(order: Order | null): string {
  if (!order) return 'New';
  const s = order.orderState.trim();
  if (!s) return 'New';
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase().replace(/_/g, ' ');
}

/** The seller invoice number already recorded on the order, if any. */
export function invoiceOf(order: Order | null): string | null {
  const info = (order as { clientOrderInfo?: { sellerInvoiceId?: unknown } } | null)?.clientOrderInfo;
  return typeof info?.sellerInvoiceId === 'string' ? info.sellerInvoiceId : null;
}
