/**
 * A code the scanner read outside a field: a badge signs in, an order id opens, a product packs
 * (scan to pack) or is refused as an invoice, anything else is offered as the open order's
 * invoice.
 */
import type { OrderView } from '../../../shared/ipc';
import { isProductBarcode } from '../scanner/productCode';
import { shownView, useOrders } from '../store/orders';
import { useUi } from '../store/ui';
import { looksLikeBadge } from '../../../shared/staff';
import { signInByBadge } from '../staff/intents';
import { isItemCodeOf, packsByScan, packScanned } from '../packing/intents';
import { refuse } from './bridge';
import { findOrders, isOrderId, openFound, openOrderById } from './find';

/**
 * A code the scanner read outside the invoice field. An order id opens its order (asked of the
 * service when new). A product's barcode is never an invoice: refused in words. Any other code is
 * never added as an order: on an open order it is offered as that order's invoice number (the
 * offer names the invoice it would replace), elsewhere it opens the one order it is the invoice of,
 * or is refused in words.
 */
export function scanned(code: string): void {
  // A packer's badge first: whatever an order id or invoice looks like, a badge is never one.
  if (looksLikeBadge(code)) {
    void signInByBadge(code);
    return;
  }
  if (isOrderId(code)) {
    void openOrderById(code);
    return;
  }
  const open = orderPackedByScan();
  if (open) {
    // A product on an order being packed ticks its item; a code that names no product goes on as before.
    void packScanned(open, code).then((taken) => taken || notPacked(code));
    return;
  }
  notPacked(code);
}

/** The order on screen when scanning products packs it now (scan to pack), else undefined. */
function orderPackedByScan(): OrderView | undefined {
  const ui = useUi.getState();
  const open = ui.screen.name === 'order' ? shownView(useOrders.getState(), ui.screen.orderId) : undefined;
  return open && packsByScan(open) ? open : undefined;
}

/**
 * Whether `code`, scanned now, goes to the packing checklist (as scanned() would send it): a code
 * that is neither a badge nor an order id, while the order on screen is packed by scan. Such a
 * code read twice half a second apart is two identical units, not one read (scanner/repeat.ts).
 */
export function scanPacksProduct(code: string): boolean {
  return !looksLikeBadge(code) && !isOrderId(code) && orderPackedByScan() !== undefined;
}

/** A scanned code that packs nothing: a product is refused as an invoice; anything else is offered as one, or finds its order. */
function notPacked(code: string): void {
  const ui = useUi.getState();
  const open = ui.screen.name === 'order' ? shownView(useOrders.getState(), ui.screen.orderId) : undefined;
  if (isProductBarcode(code) || isItemCodeOf(open?.order, code)) {
    refuse((t) => t('shift:scan.product', { code }));
    return;
  }
  if (ui.screen.name === 'order') {
    ui.clearNotice();
    ui.offerInvoice({ orderId: ui.screen.orderId, code });
    return;
  }
  void findOrders(code).then((found) => {
    const match = found?.matches.length === 1 && !found.more ? found.matches[0] : undefined;
    if (match?.by === 'invoice') void openFound(match.order.id);
    else if (found) refuse((t) => t('shift:scan.notAnOrder', { code }));
  });
}
