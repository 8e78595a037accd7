/**
 * How long the same code read again counts as the same scan. The repeat guard is for a scanner that
 * fires twice for one read (a held trigger, a second pass over the label): two reads a few tens of
 * milliseconds apart. A packer scanning identical units one after another is a deliberate scan
 * each, a unit picked up, turned and read: no faster than about half a second apart. So a product
 * on the packing checklist has a short window; everything else (order ids, invoices, badges) keeps
 * the long one, where a second read would open, offer or sign in twice.
 */

/** The same order id, invoice or badge again within 2 s is one scan. */
export const REPEAT_WINDOW_MS = 2_000;

/** The same product again within this window, while packing by scan, is one scan (a double fire). */
export const PACK_REPEAT_WINDOW_MS = 250;

/** The repeat window for a code read now: short for a product scanned onto an order being packed. */
export function repeatWindowOf(packingProduct: boolean): number {
  return packingProduct ? PACK_REPEAT_WINDOW_MS : REPEAT_WINDOW_MS;
}
