/**
 * What goes on paper, without a page: the Code 128 bars (checked against bwip-js's own raw
 * encoder, module by module), the packing slip's facts, the pick list's grouping and totals, and
 * the page sizes the shells print on.
 */
import bwipjs from 'bwip-js/node';
import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../src/shared/ipc';
import type { Order } from '../../../src/shared/protocol/schemas';
import { code128, QUIET_ZONE_MODULES } from '../../../src/renderer/src/print/barcode';
import { pickKey, pickListOf } from '../../../src/renderer/src/print/pickList';
import { addressLines, packingSlipOf } from '../../../src/renderer/src/print/slip';
import { electronPageSize, pageSizeFor, THERMAL_MIN_HEIGHT_MM } from '../../../src/main/core/print';
import { sampleOrder } from '../../support/orders';

function view(order: Order | null, extra: Partial<OrderView> = {}): OrderView {
  return {
    id: order?.id ?? 'ORD-NEW',
    order,
    nextStep: null,
    waiting: 0,
    failed: 0,
    mayBeApplied: false,
    needsRefresh: false,
    promisedPackedAt: 1_700_000_000_000,
    syncedAt: null,
    addedAt: 0,
    ...extra,
  };
}

/** The bars as a string of modules, '1' for a bar: the same shape whatever produced it. */
function modulesOf(bars: readonly { x: number; width: number }[], from: number, total: number): string {
  const cells = Array.from({ length: total }, () => '0');
  for (const b of bars) for (let i = 0; i < b.width; i++) cells[b.x - from + i] = '1';
  return cells.join('');
}

describe('Code 128 bars', () => {
  it('match bwip-js raw encoding module for module, with ten modules of quiet zone each side', () => {
    for (const text of ['ORD-1001', 'ORD-20417', 'A', 'order 42/b', '0123456789', 'ORD-X9-ZZZZZZZZZZZZZZ']) {
      const pattern = code128(text);
      expect(pattern, text).not.toBeNull();
      const raw = bwipjs.raw({ bcid: 'code128', text })[0];
      if (!raw || !('sbs' in raw)) throw new Error(`bwip-js gave no linear encoding for ${text}`);
      const reference: { x: number; width: number }[] = [];
      let x = 0;
      raw.sbs.forEach((w, i) => {
        if (i % 2 === 0) reference.push({ x, width: w });
        x += w;
      });
      expect(pattern!.modules, text).toBe(x + 2 * QUIET_ZONE_MODULES);
      expect(modulesOf(pattern!.bars, QUIET_ZONE_MODULES, x), text).toBe(modulesOf(reference, 0, x));
      expect(Math.min(...pattern!.bars.map((b) => b.x))).toBe(QUIET_ZONE_MODULES);
    }
  });

  it('gives null for text Code 128 cannot carry', () => {
    expect(code128('ऑर्डर')).toBeNull();
    expect(code128('ORD-1 é')).toBeNull();
    expect(code128('')).toBeNull();
  });
});

describe('packing slip', () => {
  const order = sampleOrder({
    billing: { name: 'Billing Name', phone: '+91 90000 00001', address: { formattedAddress: 'unused' } },
    clientOrderInfo: { sellerInvoiceId: 'INV-77' },
    fulfillments: [
      { fulfillmentId: 'F-STORE', type: 'STORE', fulfilmentStatusHistory: { PACKED: { promised: { endTime: 1 } } } },
      {
        fulfillmentId: 'F-DEL',
        type: 'DELIVERY',
        end: {
          person: { name: 'Asha Verma' },
          contact: { phone: '+91 98765 43210' },
          address: { building: '12 Lake View', locality: 'Indiranagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560038' },
        },
        fulfilmentStatusHistory: { DELIVERED: { promised: { endTime: 1_700_000_900_000 } } },
      },
    ],
  } as Partial<Order>);

  it('reads who, where, what, the invoice and the promised times off the order', () => {
    const slip = packingSlipOf(view(order))!;
    expect(slip).toMatchObject({
      orderId: 'ORD-1001',
      customer: 'Asha Verma',
      // Only its last four digits by default: the slip rides on the bag.
      phone: { shown: '3210', whole: false },
      addressLines: ['12 Lake View', 'Indiranagar', 'Bengaluru, Karnataka 560038'],
      delivery: true,
      totalUnits: 4,
      prescription: true,
      invoiceId: 'INV-77',
      promisedPackedAt: 1_700_000_000_000,
      promisedDeliveryAt: 1_700_000_900_000,
    });
    expect(slip.items).toEqual([
      { itemId: 'I-1', name: 'Paracetamol 500 mg', measurement: '10 tablets', units: 3, prescription: true, was: null },
      { itemId: 'I-2', name: 'Milk', measurement: null, units: 1, prescription: false, was: null },
    ]);
  });

  it("prints the customer's whole phone only when the setting asks; a number too short to shorten is left out", () => {
    expect(packingSlipOf(view(order), { wholePhone: true })?.phone).toEqual({ shown: '+91 98765 43210', whole: true });
    const short = sampleOrder({ billing: { name: 'Ravi', phone: '1234' }, fulfillments: [{ fulfillmentId: 'F-STORE', type: 'STORE' }] } as Partial<Order>);
    expect(packingSlipOf(view(short))?.phone).toBeNull();
  });

  it('leaves out items cut to 0 units, and has no slip before the service has answered', () => {
    const cut = sampleOrder();
    cut.items[0]!.quantity.count = 0;
    const slip = packingSlipOf(view(cut))!;
    expect(slip.items.map((i) => i.itemId)).toEqual(['I-2']);
    expect(slip.prescription).toBe(false);
    expect(packingSlipOf(view(null))).toBeNull();
  });

  it('a store pick-up has no address; the billing name stands in for a missing person', () => {
    const pickup = sampleOrder({ billing: { name: 'Ravi' }, fulfillments: [{ fulfillmentId: 'F-STORE', type: 'STORE' }] } as Partial<Order>);
    expect(packingSlipOf(view(pickup))).toMatchObject({ delivery: false, addressLines: [], customer: 'Ravi', invoiceId: null, promisedDeliveryAt: null });
    expect(addressLines({ formattedAddress: 'Flat 4\n  MG Road, Pune 411001 ' })).toEqual(['Flat 4', 'MG Road, Pune 411001']);
  });
});

describe('pick list', () => {
  const a = sampleOrder({
    id: 'ORD-A',
    items: [
      { itemId: 'a1', platformItemId: 'P-PARA', name: 'Paracetamol 500 mg', displayMeasurement: '10 tablets', quantity: { count: 2 }, prescriptionRequired: true },
      { itemId: 'a2', name: 'Milk', displayMeasurement: '500 ml', quantity: { count: 1 } },
    ],
  } as Partial<Order>);
  const b = sampleOrder({
    id: 'ORD-B',
    items: [
      { itemId: 'b1', platformItemId: 'P-PARA', name: 'Paracetamol 500 mg', displayMeasurement: '10 tablets', quantity: { count: 3 } },
      { itemId: 'b2', name: 'milk ', displayMeasurement: '500 ML', quantity: { count: 4 } },
      { itemId: 'b3', name: 'Bread', quantity: { count: 0 } },
    ],
  } as Partial<Order>);

  it('groups the same item across orders, with each order share and the totals', () => {
    const list = pickListOf([view(a), view(b), view(null), undefined]);
    expect(list.orderIds).toEqual(['ORD-A', 'ORD-B']);
    expect(list.totalUnits).toBe(10);
    expect(list.lines).toEqual([
      { key: 'name:milk|500 ml', name: 'Milk', measurement: '500 ml', prescription: false, totalUnits: 5, shares: [{ orderId: 'ORD-A', units: 1 }, { orderId: 'ORD-B', units: 4 }] },
      {
        key: 'id:P-PARA',
        name: 'Paracetamol 500 mg',
        measurement: '10 tablets',
        prescription: true,
        totalUnits: 5,
        shares: [{ orderId: 'ORD-A', units: 2 }, { orderId: 'ORD-B', units: 3 }],
      },
    ]);
  });

  it('keys items by platform id first, so two names for one product still group', () => {
    expect(pickKey({ itemId: 'x', platformItemId: ' P-1 ', name: 'A', quantity: { count: 1 } })).toBe('id:P-1');
    expect(pickKey({ itemId: 'x', name: 'A', quantity: { count: 1 } })).toBe('name:a|');
  });
});

describe('page sizes', () => {
  it('A4 by name; the thermal roll 80 mm wide and as long as the content plus its margins', () => {
    expect(pageSizeFor('a4', 500)).toEqual({ kind: 'named', name: 'A4' });
    expect(pageSizeFor('thermal80', 120.2)).toEqual({ kind: 'custom', widthMm: 80, heightMm: 129 });
    expect(pageSizeFor('thermal80', 5)).toMatchObject({ heightMm: THERMAL_MIN_HEIGHT_MM });
    expect(electronPageSize(pageSizeFor('thermal80', 120))).toEqual({ width: 80_000, height: 128_000 });
    expect(electronPageSize(pageSizeFor('a4', 120))).toBe('A4');
  });
});
