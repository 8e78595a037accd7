/** Orders for tests: a sample in the spec's shape, and finding a fulfilment in any order. */
import type { OrderView } from '../../src/shared/ipc';
import type { Order } from '../../src/shared/protocol/schemas';

/** A small order in the spec's shape: a STORE and a DELIVERY fulfilment, two items, a quote. */
export function sampleOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: 'ORD-1001',
    orderState: 'Accepted',
    items: [
      {
        itemId: 'I-1',
        name: 'Paracetamol 500 mg',
        quantity: { count: 3 },
        price: { value: 20 },
        sellingPrice: { value: 18 },
        prescriptionRequired: true,
        displayMeasurement: '10 tablets',
        fulfillmentId: 'F-STORE',
      },
      { itemId: 'I-2', name: 'Milk', quantity: { count: 1 }, sellingPrice: { value: 30 }, fulfillmentId: 'F-STORE' },
    ],
    fulfillments: [
      {
        fulfillmentId: 'F-STORE',
        type: 'STORE',
        fulfillmentState: 'Pending',
        fulfilmentStatusHistory: { PACKED: { promised: { endTime: 1_700_000_000_000 } } },
      },
      { fulfillmentId: 'F-DEL', type: 'DELIVERY' },
    ],
    quote: {
      price: { value: 84 },
      breakUp: [
        { referenceId: 'I-1', type: 'ITEM', quantity: { count: 3 }, price: { value: 54 } },
        { referenceId: 'I-2', type: 'ITEM', quantity: { count: 1 }, price: { value: 30 } },
      ],
    },
    ...overrides,
  };
}

/** The id of an order's STORE or DELIVERY fulfilment; takes the service's order or the terminal's view of it. */
export function fulfilmentId(of: Order | OrderView, type: 'STORE' | 'DELIVERY'): string {
  const order = 'fulfillments' in of ? of : of.order;
  const f = order?.fulfillments.find((x) => x.type.toUpperCase() === type);
  if (!f) throw new Error(`order ${of.id} has no ${type} fulfilment`);
  return f.fulfillmentId;
}

/** The view the engine gives of an order it knows only by id (no body yet): Accept next, nothing waiting. */
export function bareView(id: string, extra: Partial<OrderView> = {}): OrderView {
  return {
    id,
    order: null,
    nextStep: { key: 'ACCEPT', label: 'Accept order' },
    waiting: 0,
    failed: 0,
    mayBeApplied: false,
    needsRefresh: false,
    promisedPackedAt: null,
    syncedAt: null,
    addedAt: 0,
    ...extra,
  } as OrderView;
}
