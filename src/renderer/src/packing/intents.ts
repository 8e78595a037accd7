/**
 * Scan to pack (issue 24): on an accepted order not yet packed, a product scanned ticks one unit of
 * its item. A product that is not in the order is said loudly; one the store does not know is
 * taught once ("Which item is this?"). A product is never taken for an invoice.
 */
import type { TFunction } from 'i18next';
import type { OrderView, PackScanAnswer } from '../../../shared/ipc';
import type { Item, Order } from '../../../shared/protocol/schemas';
import { command, refuse } from '../intents';
import { playConfirm } from '../feedback/sound';
import { isProductBarcode } from '../scanner/productCode';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import { scannedOf, usePacking, type Stranger } from './store';

/** True when scanning products packs this order now: the setting is on, and it is accepted and not yet packed. */
export function packsByScan(view: OrderView | undefined | null): boolean {
  if (!view?.order || useStatus.getState().settings?.scanToPack !== true) return false;
  // Another counter is packing it (its claim): scans are its packer's, not this counter's.
  if (view.claim && !view.claim.here) return false;
  return view.nextStep?.key === 'PACKING' || view.nextStep?.key === 'PACKED';
}

/** Reads an order's counts from the engine. */
export async function loadPack(orderId: string): Promise<void> {
  const reply = await command('packing.get', { orderId });
  if (reply.ok) usePacking.getState().put(reply.value);
}

/** True when `code` is one of the order's own item codes (never an invoice). */
export function isItemCodeOf(order: Order | null | undefined, code: string): boolean {
  const c = code.trim().toUpperCase();
  return (order?.items ?? []).some((i) => i.serviceProviderItemId?.trim().toUpperCase() === c || i.platformItemId?.trim().toUpperCase() === c);
}

/**
 * A code scanned on an order being packed. True when scan to pack took it (ticked, refused, or asked
 * which item it is); false for a code that names no product (left for the invoice offer).
 */
export async function packScanned(view: OrderView, code: string): Promise<boolean> {
  const reply = await command('packing.scan', { orderId: view.id, code });
  if (!reply.ok) {
    refuse(reply.problem);
    return true;
  }
  if (reply.value.outcome === 'unknown') {
    if (!isProductBarcode(code)) return false;
    usePacking.getState().put(reply.value.state);
    usePacking.getState().ask({ kind: 'teach', orderId: view.id, code: code.trim() });
    return true;
  }
  said(view.order, code, reply.value);
  return true;
}

/** "Which item is this?" answered: the store remembers the barcode, and one unit is ticked. */
export async function teachCode(view: OrderView, code: string, itemId: string): Promise<boolean> {
  const reply = await command('packing.teach', { orderId: view.id, code, itemId });
  if (!reply.ok) {
    refuse(reply.problem);
    return false;
  }
  usePacking.getState().ask(null);
  said(view.order, code, reply.value);
  return true;
}

/**
 * "None of these", or a product of other orders: not in this order, said as loudly as a scan of a
 * known one, by the product's name and the orders that hold it when the terminal knows them.
 */
export function notInOrder(orderId: string, code: string, product: Stranger['product'] = null): void {
  usePacking.getState().ask(null);
  const stranger: Stranger = { orderId, code, product };
  usePacking.getState().strange(stranger);
  refuse((t) => strangerWords(t, stranger));
}

/** "NOT IN THIS ORDER: Digene Gel (PH-DIGENE) is in order ORD-1. Take it out of the bag." */
export function strangerWords(t: TFunction, stranger: Stranger): string {
  const { code, product } = stranger;
  if (!product) return t('staff:pack.notInOrder', { code });
  return t('staff:pack.notInOrderOf', { name: product.name ?? code, code, orders: product.orderIds.join(', '), count: product.orderIds.length });
}

/** The order's items with units still to scan (what Mark packed asks about). */
export function unscanned(order: Order): { item: Item; missing: number }[] {
  const state = usePacking.getState().states.get(order.id);
  return order.items
    .map((item) => ({ item, missing: Math.max(0, item.quantity.count - scannedOf(state, item.itemId)) }))
    .filter((u) => u.missing > 0);
}

function said(order: Order | null, code: string, answer: PackScanAnswer): void {
  const packing = usePacking.getState();
  packing.put(answer.state);
  const item = order?.items.find((i) => i.itemId === answer.itemId);
  const name = item?.name ?? answer.itemId ?? code;
  switch (answer.outcome) {
    case 'ticked': {
      packing.strange(null);
      if (useStatus.getState().settings?.sounds ?? true) playConfirm();
      const scanned = scannedOf(answer.state, answer.itemId ?? '');
      const count = item?.quantity.count ?? scanned;
      useUi.getState().say('success', (t) => t('staff:pack.ticked', { item: name, scanned, count }));
      return;
    }
    case 'tooMany': {
      const count = item?.quantity.count ?? 0;
      refuse((t) => t('staff:pack.tooMany', { item: name, count }));
      return;
    }
    case 'notInOrder':
      if (order) notInOrder(order.id, code, answer.product ?? null);
      return;
    case 'unknown':
      return;
  }
}
