/**
 * What a packing slip says, read off an order: pure, so the slip component only lays it out and
 * tests can check the facts without a page.
 */
import type { OrderView } from '../../../shared/ipc';
import type { Address, Fulfillment, Order } from '../../../shared/protocol/schemas';
import { printableText } from '../../../shared/protocol/orderId';
import { invoiceOf } from '../orderFacts';

/** One item line on a slip. */
export interface SlipItem {
  readonly itemId: string;
  readonly name: string | null;
  readonly measurement: string | null;
  readonly units: number;
  readonly prescription: boolean;
  /** Cut by this terminal: the units before the cut and the reason's code; null when not cut. */
  readonly was: { readonly count: number; readonly reason: string } | null;
}

/** Everything a packing slip shows. */
export interface PackingSlip {
  readonly orderId: string;
  readonly customer: string | null;
  /** The customer's phone as the slip prints it: whole, or only its last four digits (the setting). */
  readonly phone: { readonly shown: string; readonly whole: boolean } | null;
  /** The delivery address as lines, or empty when the order has none (a store pick-up). */
  readonly addressLines: readonly string[];
  readonly delivery: boolean;
  readonly items: readonly SlipItem[];
  readonly totalUnits: number;
  readonly prescription: boolean;
  readonly invoiceId: string | null;
  /** When the order was promised PACKED (epoch ms). */
  readonly promisedPackedAt: number | null;
  /** When it was promised DELIVERED, for a delivery (epoch ms). */
  readonly promisedDeliveryAt: number | null;
  /** Who marked it packed at this counter: the packer, or the counter when nobody was signed in; null when not packed here. */
  readonly packedBy: PackedBy | null;
}

/** "Packed by Ravi", or by the counter (its id) when the store runs without names. */
export type PackedBy = { readonly kind: 'packer'; readonly name: string } | { readonly kind: 'counter'; readonly counter: string };

/** Digits of a phone's end a slip shows by default: enough for a courier to confirm, not to call a stranger. */
const PHONE_END_DIGITS = 4;

/**
 * The slip for an order the service has answered for; null for an order without details yet. The
 * phone is whole only when `wholePhone` (a Printing setting): the slip travels on the bag.
 */
export function packingSlipOf(
  view: OrderView,
  { wholePhone = false, packedBy = null }: { wholePhone?: boolean; packedBy?: PackedBy | null } = {},
): PackingSlip | null {
  const order = view.order;
  if (!order) return null;
  const delivery = order.fulfillments.find((f) => f.type.toUpperCase() === 'DELIVERY') ?? null;
  const items = order.items
    // An item cut to 0 units does not go in the bag.
    .filter((i) => i.quantity.count > 0)
    .map((i) => ({
      itemId: i.itemId,
      name: nonBlank(i.name),
      measurement: nonBlank(i.displayMeasurement),
      units: i.quantity.count,
      prescription: i.prescriptionRequired === true,
      was: wasOf(view, i.itemId),
    }));
  return {
    orderId: order.id,
    customer: nonBlank(delivery?.end?.person?.name) ?? nonBlank(order.billing?.name),
    phone: slipPhone(nonBlank(delivery?.end?.contact?.phone) ?? nonBlank(order.billing?.phone), wholePhone),
    addressLines: addressLines(delivery?.end?.address ?? (delivery ? order.billing?.address : undefined)),
    delivery: delivery !== null,
    items,
    totalUnits: items.reduce((sum, i) => sum + i.units, 0),
    prescription: items.some((i) => i.prescription),
    invoiceId: nonBlank(invoiceOf(order) ?? undefined),
    promisedPackedAt: view.promisedPackedAt,
    promisedDeliveryAt: promised(delivery, 'DELIVERED'),
    packedBy,
  };
}

function wasOf(view: OrderView, itemId: string): SlipItem['was'] {
  const cut = view.cuts?.find((c) => c.itemId === itemId);
  return cut ? { count: cut.was, reason: cut.reason } : null;
}

/** A phone as the slip prints it; a number with too few digits to shorten is left out rather than shown whole. */
function slipPhone(phone: string | null, whole: boolean): PackingSlip['phone'] {
  if (phone === null) return null;
  if (whole) return { shown: phone, whole: true };
  const digits = phone.replace(/\D/g, '');
  return digits.length > PHONE_END_DIGITS ? { shown: digits.slice(-PHONE_END_DIGITS), whole: false } : null;
}

/** An address as the lines a courier reads: the formatted address when the service gives one. */
export function addressLines(address: Address | undefined): string[] {
  if (!address) return [];
  const formatted = nonBlank(address.formattedAddress);
  if (formatted) return formatted.split(/\s*\n\s*/).filter(Boolean);
  const place = [address.city, address.state].map(nonBlank).filter(Boolean).join(', ');
  const lines = [nonBlank(address.building), nonBlank(address.locality), [place, nonBlank(address.pincode)].filter(Boolean).join(' ')];
  return lines.filter((l): l is string => typeof l === 'string' && l.length > 0);
}

function promised(f: Fulfillment | null, state: string): number | null {
  return f?.fulfilmentStatusHistory?.[state]?.promised?.endTime ?? null;
}

/** Text from the order as the slip prints it, or null when there is none (printableText: a direction control is shown, not obeyed). */
function nonBlank(s: string | undefined): string | null {
  const t = s?.trim();
  return t ? printableText(t) : null;
}

/** Orders whose details are known, for a caller holding several views. */
export function withDetails(views: readonly (OrderView | undefined)[]): (OrderView & { order: Order })[] {
  return views.filter((v): v is OrderView & { order: Order } => v !== undefined && v.order !== null);
}
