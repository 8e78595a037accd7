/**
 * Taps are validated against a slim copy of the order (what the state machine reads). This checks
 * that the slim copy gets exactly the same verdicts and messages as the full order, for every kind of
 * action on orders in every stage the sandbox seeds, chained through whole fulfilment paths.
 */
import { describe, expect, it } from 'vitest';
import { seedOrders } from '../../../../sandbox';
import type { ShapingEntry } from '../../../../src/main/core/db';
import { Projector, slimOrder } from '../../../../src/main/core/outbox';
import { applyAction } from '../../../../src/shared/fulfilment';
import { type Action, FULFILLMENT_STATES, type Order } from '../../../../src/shared/protocol';

const NOW = Date.UTC(2025, 0, 15, 9, 30);

function actionsFor(order: Order): Action[] {
  const out: Action[] = [];
  for (const f of order.fulfillments)
    for (const state of FULFILLMENT_STATES) out.push({ type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: f.fulfillmentId, fulfillmentState: state });
  out.push({ type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'FUL-NOPE', fulfillmentState: 'PACKING' });
  for (const i of order.items)
    for (const units of [i.quantity.count + 1, i.quantity.count, Math.max(0, i.quantity.count - 1), 0])
      out.push({ type: 'ITEM_UNIT_UPDATE', itemId: i.itemId, itemUnits: units, reason: 'ITEM_UNAVAILABLE' });
  out.push({ type: 'ITEM_UNIT_UPDATE', itemId: 'IT-NOPE', itemUnits: 0, reason: 'ITEM_UNAVAILABLE' });
  out.push({ type: 'ITEM_UNIT_UPDATE', itemId: order.items[0]!.itemId, itemUnits: 0, reason: 'NOT_A_REASON' });
  for (const orderState of ['ACCEPTED', 'IN_PROGRESS', 'COMPLETED'] as const) out.push({ type: 'ORDER_STATE_UPDATE', orderState });
  out.push({ type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED' });
  out.push({ type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'BUYER_NOT_AVAILABLE' });
  out.push({ type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'NOT_A_REASON' });
  out.push({ type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-1' } });
  return out;
}

describe('slim validation', () => {
  it('gives the same verdict and message as the full order, along whole paths', () => {
    let compared = 0;
    for (const start of seedOrders(9, 60, NOW)) {
      let full: Order = start;
      let slim: Order = slimOrder(start);
      // Walk each order along its actions, comparing every action at every step.
      for (let step = 0; step < 8; step++) {
        const candidates = actionsFor(full);
        let moved = false;
        for (const action of candidates) {
          const a = applyAction(full, action, NOW);
          const b = applyAction(slim, action, NOW);
          compared++;
          expect(b.ok).toBe(a.ok);
          if (!a.ok && !b.ok) expect(b.problem).toEqual(a.problem);
          if (a.ok && b.ok) expect(slimOrder(b.value)).toEqual(slimOrder(a.value));
        }
        // Move on with the first action that applies and changes the fulfilment or order state.
        for (const action of candidates) {
          if (action.type === 'CLIENT_ORDER_INFO_UPDATE') continue;
          const a = applyAction(full, action, NOW);
          const b = applyAction(slim, action, NOW);
          if (a.ok && b.ok) {
            full = a.value;
            slim = b.value;
            moved = true;
            break;
          }
        }
        if (!moved) break;
      }
    }
    expect(compared).toBeGreaterThan(2000);
  });
});

describe('remembered projections', () => {
  const waiting = (id: number, order: Order): ShapingEntry => ({
    id,
    seq: id,
    state: 'queued',
    action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: order.fulfillments[0]!.fulfillmentId, fulfillmentState: 'PACKING' },
    awaitingRefresh: false,
  });

  it('are kept while taps wait on an order and let go once none does, so a busy hour does not leave hundreds behind', () => {
    const projector = new Projector();
    const orders = seedOrders(3, 40, NOW);
    for (const order of orders) projector.project(order.id, order, [waiting(1, order)], NOW);
    expect(projector.remembered).toBe(40);
    // A second look with the same tap waiting is the remembered one, not a new copy.
    const [first] = orders;
    expect(projector.project(first!.id, first!, [waiting(1, first!)], NOW)).toBe(projector.project(first!.id, first!, [waiting(1, first!)], NOW));
    // The service's answer is in and no tap waits: the body is the projection, nothing is kept for it.
    for (const order of orders) expect(projector.project(order.id, { ...order }, [], NOW)).toEqual(order);
    expect(projector.remembered).toBe(0);
    // An order that left the terminal (no body) is let go too.
    projector.project(first!.id, first!, [waiting(1, first!)], NOW);
    expect(projector.project(first!.id, null, [waiting(1, first!)], NOW)).toBeNull();
    expect(projector.remembered).toBe(0);
  });

  it('of orders no tap waits on any more are let go by a sweep, though no one looks at them again', () => {
    const projector = new Projector();
    const orders = seedOrders(5, 10, NOW);
    for (const order of orders) projector.project(order.id, order, [waiting(1, order)], NOW);
    const kept = new Set(orders.slice(0, 3).map((o) => o.id));
    projector.keepOnly(kept);
    expect(projector.remembered).toBe(3);
    // The ones kept are still the remembered projections.
    const [first] = orders;
    const again = projector.project(first!.id, first!, [waiting(1, first!)], NOW);
    expect(projector.project(first!.id, first!, [waiting(1, first!)], NOW)).toBe(again);
    projector.forget(first!.id);
    expect(projector.remembered).toBe(2);
  });
});
