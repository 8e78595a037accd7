import { describe, expect, it } from 'vitest';
import { applyAction, nextStep, projectOrder, promisedPackedAt } from '../../src/shared/fulfilment';
import type { Action, Order } from '../../src/shared/protocol';
import { sampleOrder } from '../support/orders';

const NOW = 1_700_000_100_000;
const fulfil = (fulfilmentId: string, state: 'PACKING' | 'PACKED' | 'OUT_FOR_DELIVERY' | 'DELIVERED'): Action => ({
  type: 'ORDER_FULFILMENT_STATE_UPDATE',
  fulfilmentId,
  fulfillmentState: state,
});

function mustApply(order: Order, action: Action): Order {
  const r = applyAction(order, action, NOW);
  if (!r.ok) throw new Error(r.problem.message);
  return r.value;
}

describe('next step', () => {
  it('walks accept, packing, packed, out for delivery, delivered, complete, then nothing', () => {
    let order = sampleOrder({ orderState: 'Created' });
    const seen: string[] = [];
    for (;;) {
      const step = nextStep(order);
      if (!step) break;
      seen.push(step.key);
      order =
        step.key === 'ACCEPT'
          ? mustApply(order, { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' })
          : step.key === 'COMPLETE'
            ? mustApply(order, { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' })
            : mustApply(order, fulfil(step.fulfilmentId!, step.key));
    }
    expect(seen).toEqual(['ACCEPT', 'PACKING', 'PACKED', 'OUT_FOR_DELIVERY', 'DELIVERED', 'COMPLETE']);
    expect(order.orderState).toBe('Completed');
  });

  it('offers only Accept for an order the service has not described yet', () => {
    expect(nextStep(undefined)?.key).toBe('ACCEPT');
  });

  it('ends after PACKED for an order without delivery', () => {
    const storeOnly = sampleOrder({ fulfillments: [{ fulfillmentId: 'F-STORE', type: 'STORE', fulfillmentState: 'PACKED' }] });
    expect(nextStep(storeOnly)).toBeNull();
  });

  it('reads the promised PACKED time of the store fulfilment', () => {
    expect(promisedPackedAt(sampleOrder())).toBe(1_700_000_000_000);
  });
});

describe('applying actions', () => {
  it('records the actual time in the status history and keeps the promise', () => {
    const packed = mustApply(mustApply(sampleOrder(), fulfil('F-STORE', 'PACKING')), fulfil('F-STORE', 'PACKED'));
    const history = packed.fulfillments[0]?.fulfilmentStatusHistory?.PACKED;
    expect(history?.actual?.endTime).toBe(NOW);
    expect(history?.promised?.endTime).toBe(1_700_000_000_000);
  });

  it('refuses a repeated state and a backward move', () => {
    const packed = mustApply(sampleOrder(), fulfil('F-STORE', 'PACKED'));
    const again = applyAction(packed, fulfil('F-STORE', 'PACKED'), NOW);
    expect(again.ok || again.problem.code).toBe('ALREADY_IN_STATE');
    const back = applyAction(packed, fulfil('F-STORE', 'PACKING'), NOW);
    expect(back.ok || back.problem.code).toBe('BACKWARD_TRANSITION');
  });

  it('refuses delivery states on the store fulfilment and delivery before packing', () => {
    const wrong = applyAction(sampleOrder(), fulfil('F-STORE', 'DELIVERED'), NOW);
    expect(wrong.ok || wrong.problem.code).toBe('WRONG_FULFILMENT_TYPE');
    const early = applyAction(sampleOrder(), fulfil('F-DEL', 'OUT_FOR_DELIVERY'), NOW);
    expect(early.ok || early.problem.code).toBe('NOT_PACKED');
  });

  it('refuses fulfilment moves before the order is accepted', () => {
    const r = applyAction(sampleOrder({ orderState: 'Created' }), fulfil('F-STORE', 'PACKING'), NOW);
    expect(r.ok || r.problem.code).toBe('NOT_ACCEPTED');
  });

  it('cuts units within range and reprices the quote', () => {
    const cut = mustApply(sampleOrder(), { type: 'ITEM_UNIT_UPDATE', itemId: 'I-1', itemUnits: 1, reason: 'ITEM_UNAVAILABLE' });
    expect(cut.items[0]?.quantity.count).toBe(1);
    expect(cut.quote?.breakUp?.[0]?.price?.value).toBe(18);
    expect(cut.quote?.price?.value).toBe(48);
    const above = applyAction(sampleOrder(), { type: 'ITEM_UNIT_UPDATE', itemId: 'I-1', itemUnits: 4, reason: 'ITEM_UNAVAILABLE' }, NOW);
    expect(above.ok || above.problem.code).toBe('UNITS_OUT_OF_RANGE');
    const same = applyAction(sampleOrder(), { type: 'ITEM_UNIT_UPDATE', itemId: 'I-1', itemUnits: 3, reason: 'ITEM_UNAVAILABLE' }, NOW);
    expect(same.ok || same.problem.code).toBe('NO_CHANGE');
  });

  it('cancels only with a catalogue reason, records the cancel, and freezes the order', () => {
    const missing = applyAction(sampleOrder(), { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED' }, NOW);
    expect(missing.ok || missing.problem.code).toBe('MISSING_REASON');
    const cancelled = mustApply(sampleOrder(), { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'BUYER_NO_CONTACT' });
    expect(cancelled.orderState).toBe('Cancelled');
    expect(cancelled.actions?.at(-1)).toMatchObject({ type: 'CANCEL_ORDER', channel: 'TSP', createdAt: String(NOW) });
    const after = applyAction(cancelled, { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-1' } }, NOW);
    expect(after.ok || after.problem.code).toBe('ORDER_CANCELLED');
  });

  it('records an invoice once', () => {
    const inv: Action = { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-9' } };
    const once = mustApply(sampleOrder(), inv);
    expect((once as Record<string, unknown>).clientOrderInfo).toEqual({ sellerInvoiceId: 'INV-9' });
    const twice = applyAction(once, inv, NOW);
    expect(twice.ok || twice.problem.code).toBe('NO_CHANGE');
  });

  it('never changes the order it was given, in any part, whatever the action', () => {
    // Frozen through and through: any write to the given order or its parts throws. The new
    // order shares the parts an action leaves alone (cached projections are shared).
    const freeze = <T>(v: T): T => {
      if (v && typeof v === 'object') for (const x of Object.values(v)) freeze(x);
      return Object.freeze(v);
    };
    const order = freeze(sampleOrder());
    const before = JSON.stringify(order);
    const actions: Action[] = [
      fulfil('F-STORE', 'PACKED'),
      { type: 'ITEM_UNIT_UPDATE', itemId: 'I-1', itemUnits: 1, reason: 'ITEM_UNAVAILABLE' },
      { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'ITEM_UNAVAILABLE' },
      { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-9' } },
    ];
    for (const action of actions) {
      const next = mustApply(order, action);
      expect(next).not.toBe(order);
      expect(JSON.stringify(next)).not.toBe(before);
    }
    expect(JSON.stringify(order)).toBe(before);
    const packed = mustApply(order, fulfil('F-STORE', 'PACKED'));
    expect(packed.items).toBe(order.items);
    expect(packed.fulfillments[1]).toBe(order.fulfillments[1]);
  });

  it('projects queued actions in order and reports the ones that no longer apply', () => {
    const { order, skipped } = projectOrder(
      sampleOrder(),
      [fulfil('F-STORE', 'PACKING'), fulfil('F-STORE', 'PACKING'), fulfil('F-STORE', 'PACKED')],
      NOW,
    );
    expect(order.fulfillments[0]?.fulfillmentState).toBe('PACKED');
    expect(skipped.map((s) => s.index)).toEqual([1]);
  });
});
