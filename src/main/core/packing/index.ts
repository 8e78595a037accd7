/**
 * Scan to pack (issue 24): after Accept, each product scanned ticks one unit of the order's item
 * it names, by the item's own codes (`serviceProviderItemId`, the store's item code, or
 * `platformItemId`) or by a barcode the store was taught once ("Which item is this?"). Counts are
 * kept in the data file (a restart keeps them); taught barcodes too, for every order after.
 */
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import type { Item, Order } from '../../../shared/protocol';
import { isBadgeCode } from '../../../shared/staff';
import { fail, ok, type Result } from '../../../shared/result';
import type { Store, TaughtCode } from '../db';

/** What one scanned code did on an order. */
export type PackScan =
  /** One more unit of `itemId` is in the bag. */
  | { readonly kind: 'ticked'; readonly itemId: string; readonly scanned: number; readonly want: number }
  /** Every unit of `itemId` was already scanned. */
  | { readonly kind: 'tooMany'; readonly itemId: string; readonly want: number }
  /** The code names a product this order does not hold: which, when an order on the terminal holds it. */
  | { readonly kind: 'notInOrder'; readonly product: ProductElsewhere | null }
  /** Nothing the store knows: teach it ("Which item is this?") or, when it is no product, leave it. */
  | { readonly kind: 'unknown' };

/**
 * A product of other orders: its name and the orders on the terminal holding it. A packer told "not
 * in this order: PH-DIGENE" knew neither what the product was nor whose bag it belonged in.
 */
export interface ProductElsewhere {
  readonly name: string | null;
  readonly orderIds: readonly string[];
}

/** Units scanned per item of one order. */
export interface PackCounts {
  readonly orderId: string;
  readonly items: readonly { readonly itemId: string; readonly scanned: number }[];
}

/**
 * The port through which the store hub shares taught barcodes between counters (host/hub/):
 * taught once, known at every counter. One counter needs none: its data file remembers them.
 */
export interface TaughtCodesSharing {
  /** A barcode was taught at this counter. */
  taught(code: TaughtCode): void;
}

/** A taught barcode as the hub carries it. */
export const sharedTaughtSchema = builtOnce(() => z.object({
  code: z.string().min(1).max(128),
  itemCode: z.string().min(1).max(256),
  taughtAt: z.number().int(),
  packer: z.string().max(200).nullable(),
}));

export interface PackingOptions {
  readonly store: Store;
  readonly now: () => number;
  /** The packer signed in, stamped on what they teach. */
  readonly packer: () => string | null;
  readonly sharing?: TaughtCodesSharing;
}

/** The code a taught barcode is remembered by: the store's item code, else the platform's. */
export function itemCode(item: Item): string | null {
  return item.serviceProviderItemId?.trim() || item.platformItemId?.trim() || null;
}

const same = (a: string | undefined, b: string): boolean => a !== undefined && a.trim().toUpperCase() === b.toUpperCase();

/** The order's items a code names: by their own codes, else by what `taught` says it stands for. */
export function itemsNamed(order: Order, code: string, taught: string | null): Item[] {
  const c = code.trim();
  const own = order.items.filter((i) => same(i.serviceProviderItemId, c) || same(i.platformItemId, c));
  if (own.length > 0 || taught === null) return own;
  return order.items.filter((i) => same(i.serviceProviderItemId, taught) || same(i.platformItemId, taught));
}

export type Packing = ReturnType<typeof createPacking>;

/** Builds scan to pack over an open store. */
export function createPacking(options: PackingOptions) {
  const { store } = options;

  const counts = (orderId: string): PackCounts => ({
    orderId,
    items: [...store.packing.scans(orderId)].map(([itemId, scanned]) => ({ itemId, scanned })),
  });

  /** Ticks one unit of the first of `items` with units left; tooMany when none has. */
  const tick = (order: Order, items: readonly Item[]): PackScan => {
    const scans = store.packing.scans(order.id);
    const open = items.find((i) => (scans.get(i.itemId) ?? 0) < i.quantity.count);
    if (!open) {
      const first = items[0] as Item;
      return { kind: 'tooMany', itemId: first.itemId, want: first.quantity.count };
    }
    const scanned = (scans.get(open.itemId) ?? 0) + 1;
    store.packing.setScans(order.id, open.itemId, scanned, options.now());
    return { kind: 'ticked', itemId: open.itemId, scanned, want: open.quantity.count };
  };

  return {
    /** Units scanned so far for an order. */
    counts,

    /**
     * A code scanned on an order being packed (the order as the screen shows it, taps waiting
     * applied). `elsewhere` finds an item code among the other orders on the terminal: a product
     * the store sells, so not in this order rather than unknown, named with the orders holding it.
     */
    scan(order: Order, rawCode: string, elsewhere: (code: string) => ProductElsewhere | null = () => null): Result<PackScan> {
      const code = rawCode.trim();
      if (code.length === 0 || isBadgeCode(code)) return fail('invalid', 'That is no product code.', 'PACK_NOT_PRODUCT');
      return ok(
        store.transaction((): PackScan => {
          const taught = store.packing.taught(code);
          const items = itemsNamed(order, code, taught?.itemCode ?? null);
          if (items.length > 0) return tick(order, items);
          const product = elsewhere(code) ?? (taught ? elsewhere(taught.itemCode) : null);
          return taught || product ? { kind: 'notInOrder', product } : { kind: 'unknown' };
        }),
      );
    },

    /** "Which item is this?": the barcode is remembered as that item's and ticks one unit of it. */
    teach(order: Order, rawCode: string, itemId: string): Result<PackScan> {
      const code = rawCode.trim();
      if (code.length === 0 || code.length > 128 || isBadgeCode(code)) return fail('invalid', 'That is no product code.', 'PACK_NOT_PRODUCT');
      const item = order.items.find((i) => i.itemId === itemId);
      if (!item) return fail('invalid', `Order ${order.id} has no such item.`, 'PACK_NO_ITEM', { orderId: order.id });
      const key = itemCode(item);
      if (key === null)
        return fail('invalid', 'This item has no item code, so a barcode cannot be remembered for it.', 'PACK_NO_ITEM_CODE');
      const taught: TaughtCode = { code, itemCode: key, taughtAt: options.now(), packer: options.packer() };
      const result = store.transaction(() => {
        store.packing.teach(taught);
        return tick(order, itemsNamed(order, key, null));
      });
      options.sharing?.taught(taught);
      return ok(result);
    },

    /** Every barcode this counter knows (put into the hub when it joins: taught alone is kept, not lost). */
    taughtCodes: (): TaughtCode[] => store.packing.allTaught(),

    /**
     * Another counter taught a barcode: remembered here, unless this counter holds a newer teaching
     * of it (the newest wins, on every counter alike; equal times: the greater item code). Answers
     * whether this file changed.
     */
    learn(incoming: TaughtCode): boolean {
      const parsed = sharedTaughtSchema().safeParse(incoming);
      if (!parsed.success) return false;
      const t = parsed.data;
      return store.transaction(() => {
        const mine = store.packing.taught(t.code);
        if (mine && (mine.taughtAt > t.taughtAt || (mine.taughtAt === t.taughtAt && mine.itemCode >= t.itemCode))) return false;
        store.packing.teach(t);
        return true;
      });
    },

    /** Units still to scan per item (want less scanned, never below 0): what "Mark packed" asks about. */
    missing(order: Order): { itemId: string; missing: number }[] {
      const scans = store.packing.scans(order.id);
      return order.items
        .map((i) => ({ itemId: i.itemId, missing: Math.max(0, i.quantity.count - (scans.get(i.itemId) ?? 0)) }))
        .filter((m) => m.missing > 0);
    },
  };
}
