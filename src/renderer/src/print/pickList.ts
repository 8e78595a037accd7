/**
 * A pick list: the items of several orders, grouped by item so a packer walks the shelves once,
 * with how many units in all and how many for each order. Pure.
 */
import type { OrderView } from '../../../shared/ipc';
import type { Item } from '../../../shared/protocol/schemas';
import { printableOrNull } from '../../../shared/protocol/orderId';
import { withDetails } from './slip';

/** One order's share of a pick line. */
export interface PickShare {
  readonly orderId: string;
  readonly units: number;
}

/** One item to fetch, across every selected order. */
export interface PickLine {
  readonly key: string;
  readonly name: string | null;
  readonly measurement: string | null;
  readonly prescription: boolean;
  readonly totalUnits: number;
  readonly shares: readonly PickShare[];
}

export interface PickList {
  readonly orderIds: readonly string[];
  readonly lines: readonly PickLine[];
  readonly totalUnits: number;
}

/**
 * The same product in two orders has the same platform item id (the order-local itemId differs);
 * without one, name and measurement stand for it.
 */
export function pickKey(item: Item): string {
  const id = item.platformItemId?.trim() || item.serviceProviderItemId?.trim();
  if (id) return `id:${id}`;
  return `name:${(item.name ?? item.itemId).trim().toLowerCase()}|${(item.displayMeasurement ?? '').trim().toLowerCase()}`;
}

/** The pick list of the given orders (those without details yet are left out), lines by name. */
export function pickListOf(views: readonly (OrderView | undefined)[]): PickList {
  const orders = withDetails(views);
  const lines = new Map<string, { name: string | null; measurement: string | null; prescription: boolean; shares: Map<string, number> }>();
  for (const { order } of orders) {
    for (const item of order.items) {
      if (item.quantity.count <= 0) continue;
      const key = pickKey(item);
      const line = lines.get(key) ?? {
        name: printableOrNull(item.name?.trim() || null),
        measurement: printableOrNull(item.displayMeasurement?.trim() || null),
        prescription: false,
        shares: new Map<string, number>(),
      };
      line.prescription ||= item.prescriptionRequired === true;
      line.shares.set(order.id, (line.shares.get(order.id) ?? 0) + item.quantity.count);
      lines.set(key, line);
    }
  }
  const out: PickLine[] = [...lines.entries()].map(([key, l]) => {
    const shares = [...l.shares.entries()].map(([orderId, units]) => ({ orderId, units }));
    return { key, name: l.name, measurement: l.measurement, prescription: l.prescription, shares, totalUnits: shares.reduce((s, x) => s + x.units, 0) };
  });
  out.sort((a, b) => (a.name ?? a.key).localeCompare(b.name ?? b.key) || a.key.localeCompare(b.key));
  return { orderIds: orders.map((v) => v.id), lines: out, totalUnits: out.reduce((s, l) => s + l.totalUnits, 0) };
}
