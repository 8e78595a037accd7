import { describe, expect, it } from 'vitest';
import { showsEffect } from '../../src/shared/fulfilment';
import type { Action } from '../../src/shared/protocol';
import { sampleOrder } from '../support/orders';

const fulfil = (fulfilmentId: string, state: 'PACKING' | 'PACKED' | 'OUT_FOR_DELIVERY' | 'DELIVERED'): Action => ({
  type: 'ORDER_FULFILMENT_STATE_UPDATE',
  fulfilmentId,
  fulfillmentState: state,
});
const orderState = (state: 'ACCEPTED' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED'): Action =>
  state === 'CANCELLED' ? { type: 'ORDER_STATE_UPDATE', orderState: state, reason: 'BUYER_NO_CONTACT' } : { type: 'ORDER_STATE_UPDATE', orderState: state };

describe('showsEffect (does the order already carry this action?)', () => {
  it('a fulfilment state counts once reached or passed, on the fulfilment the action names', () => {
    const packed = sampleOrder({ fulfillments: [{ fulfillmentId: 'F-STORE', type: 'STORE', fulfillmentState: 'Packed' }, { fulfillmentId: 'F-DEL', type: 'DELIVERY' }] });
    expect(showsEffect(packed, fulfil('F-STORE', 'PACKING'))).toBe(true);
    expect(showsEffect(packed, fulfil('F-STORE', 'PACKED'))).toBe(true);
    expect(showsEffect(packed, fulfil('F-DEL', 'OUT_FOR_DELIVERY'))).toBe(false);
    expect(showsEffect(sampleOrder(), fulfil('F-STORE', 'PACKING'))).toBe(false);
    expect(showsEffect(packed, fulfil('F-NOPE', 'PACKING'))).toBe(false);
  });

  it('an order state counts once reached, or passed on the forward path; cancelled only as itself', () => {
    expect(showsEffect(sampleOrder({ orderState: 'Created' }), orderState('ACCEPTED'))).toBe(false);
    expect(showsEffect(sampleOrder({ orderState: 'Accepted' }), orderState('ACCEPTED'))).toBe(true);
    expect(showsEffect(sampleOrder({ orderState: 'In-progress' }), orderState('ACCEPTED'))).toBe(true);
    expect(showsEffect(sampleOrder({ orderState: 'Accepted' }), orderState('COMPLETED'))).toBe(false);
    expect(showsEffect(sampleOrder({ orderState: 'Cancelled' }), orderState('ACCEPTED'))).toBe(false);
    expect(showsEffect(sampleOrder({ orderState: 'Cancelled' }), orderState('CANCELLED'))).toBe(true);
    expect(showsEffect(sampleOrder({ orderState: 'Completed' }), orderState('CANCELLED'))).toBe(false);
  });

  it('item units count only when equal to the requested count', () => {
    const cut: Action = { type: 'ITEM_UNIT_UPDATE', itemId: 'I-1', itemUnits: 2, reason: 'ITEM_UNAVAILABLE' };
    expect(showsEffect(sampleOrder(), cut)).toBe(false);
    const order = sampleOrder();
    expect(showsEffect({ ...order, items: order.items.map((i) => (i.itemId === 'I-1' ? { ...i, quantity: { count: 2 } } : i)) }, cut)).toBe(true);
    expect(showsEffect(order, { ...cut, itemId: 'I-404' })).toBe(false);
  });

  it('an invoice never shows in the order body: always resent', () => {
    expect(showsEffect(sampleOrder(), { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-1' } })).toBe(false);
  });
});
