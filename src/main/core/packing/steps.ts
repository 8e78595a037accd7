/**
 * Scan to pack as the counter's screen asks for it: by order id, on the order as the screen shows
 * it (taps waiting applied), answering each scan with the order's counts after it and who packed
 * it. The engine (engine.ts) runs these inside its guard, so a data file problem is said, not thrown.
 */
import type { PackScanAnswer, PackState } from '../../../shared/ipc';
import type { Order } from '../../../shared/protocol';
import { fail, ok, type Result } from '../../../shared/result';
import type { Store } from '../db';
import { itemsNamed, type Packing, type ProductElsewhere } from './index';

export interface PackStepsOptions {
  readonly store: Store;
  readonly packing: Packing;
  /** The order as the screen shows it, or null when the terminal holds no details of it. */
  readonly shown: (orderId: string) => Order | null;
  /** This counter's name in its store hub, or null: where an order packed here was packed. */
  readonly counterName: () => string | null;
  /** Something was written (the engine folds the WAL in shortly after). */
  readonly wrote: () => void;
}

export interface PackSteps {
  /** An order's scan-to-pack counts and who marked it packed (its id trimmed). */
  state(orderId: string): PackState;
  /** A product code scanned on an order being packed: ticks one unit, or says why not. */
  scan(orderId: string, code: string): Result<PackScanAnswer>;
  /** "Which item is this?": remembers the barcode as the item's and ticks one unit of it. */
  teach(orderId: string, code: string, itemId: string): Result<PackScanAnswer>;
}

type Scanned = ReturnType<Packing['scan']> extends Result<infer S> ? S : never;

export function createPackSteps(o: PackStepsOptions): PackSteps {
  const { store, packing } = o;

  /** Runs one scan-to-pack step on the order as the screen shows it; answers its outcome with the counts after it. */
  function packWith(orderId: string, step: (order: Order) => ReturnType<Packing['scan']>): Result<PackScanAnswer> {
    const order = packable(orderId.trim());
    if (!order.ok) return order;
    const r = step(order.value);
    if (!r.ok) return r;
    o.wrote();
    return ok(scanAnswer(order.value.id, r.value));
  }

  /** The product `code` is an item code of in other orders on the terminal, and up to three of them (a walk over the held bodies: a scan, not a tap). */
  function productOnTerminal(code: string, except: string): ProductElsewhere | null {
    let name: string | null = null;
    const orderIds: string[] = [];
    for (const row of store.orders.list()) {
      if (row.body === null || row.body.id === except) continue;
      const item = itemsNamed(row.body, code, null)[0];
      if (!item) continue;
      name ??= item.name ?? null;
      if (orderIds.length < 3) orderIds.push(row.body.id);
    }
    return orderIds.length > 0 ? { name, orderIds } : null;
  }

  /** The order as the screen shows it (taps waiting applied), when it has details to pack. */
  function packable(orderId: string): Result<Order> {
    const order = o.shown(orderId);
    if (!order) return fail('invalid', `Order ${orderId} has no items on this terminal yet`, 'PACK_NO_DETAILS', { orderId });
    return ok(order);
  }

  function scanAnswer(orderId: string, scan: Scanned): PackScanAnswer {
    return {
      outcome: scan.kind,
      ...('itemId' in scan ? { itemId: scan.itemId } : {}),
      ...(scan.kind === 'notInOrder' && scan.product ? { product: { name: scan.product.name, orderIds: [...scan.product.orderIds] } } : {}),
      state: packStateOf(orderId),
    };
  }

  /** Counts, and the packer of the order's latest PACKED tap on this counter that was not taken back or discarded. */
  function packStateOf(orderId: string): PackState {
    const packed = store.outbox
      .forOrder(orderId)
      .filter((e) => e.state !== 'discarded' && e.action.type === 'ORDER_FULFILMENT_STATE_UPDATE' && e.action.fulfillmentState === 'PACKED')
      .at(-1);
    const counts = packing.counts(orderId);
    // Packed at another counter of the store: who and where, as heard through the hub (a slip reprinted here says so too).
    const elsewhere = packed === undefined ? store.hubTaps.packedBy(orderId) : null;
    return {
      orderId,
      items: [...counts.items],
      packedBy: packed?.packer ?? elsewhere?.packer ?? null,
      packedHere: packed !== undefined,
      packedAt: packed !== undefined ? o.counterName() : (elsewhere?.counterName ?? null),
    };
  }

  return {
    state: (orderId) => packStateOf(orderId.trim()),
    scan: (orderId, code) => packWith(orderId, (order) => packing.scan(order, code, (c) => productOnTerminal(c, order.id))),
    teach: (orderId, code, itemId) => packWith(orderId, (order) => packing.teach(order, code, itemId)),
  };
}
