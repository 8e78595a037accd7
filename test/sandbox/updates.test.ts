import { describe, expect, it } from 'vitest';
import { orderUpdateSuccessSchema, type Action, type Order } from '../../src/shared/protocol/schemas';
import {
  errorCode,
  errorMessage,
  findOrder,
  postUpdate,
  sandbox,
  token,
  update,
  updateBody,
} from '../support/sandbox-http';
import { manualClock } from '../support/clock';
import { fulfilmentId } from '../support/orders';

const isNew = (o: Order): boolean => o.orderState === 'Created';
const withDelivery = (o: Order): boolean => o.fulfillments.some((f) => f.type === 'DELIVERY');

describe('sandbox order update service', () => {
  it('applies every action type and answers the whole order each time', async () => {
    const clock = manualClock();
    const s = await sandbox({ now: clock.now });
    const t = await token(s);
    const order = findOrder(s, (o) => isNew(o) && withDelivery(o) && o.items.some((i) => i.quantity.count >= 2));
    const store = fulfilmentId(order, 'STORE');
    const delivery = fulfilmentId(order, 'DELIVERY');
    const item = order.items.find((i) => i.quantity.count >= 2);
    if (!item) throw new Error('unreachable');

    const steps: { action: Action; check: (o: Order) => void }[] = [
      { action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }, check: (o) => expect(o.orderState).toBe('Accepted') },
      {
        action: { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: item.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' },
        check: (o) => expect(o.items.find((i) => i.itemId === item.itemId)?.quantity.count).toBe(item.quantity.count - 1),
      },
      {
        action: { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-2025-0001' } },
        check: (o) => expect(o).toMatchObject({ clientOrderInfo: { sellerInvoiceId: 'INV-2025-0001' } }),
      },
      { action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKING' }, check: (o) => expect(o.fulfillments[0]?.fulfillmentState).toBe('PACKING') },
      { action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKED' }, check: (o) => expect(o.fulfillments[0]?.fulfillmentState).toBe('PACKED') },
      {
        action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: delivery, fulfillmentState: 'OUT_FOR_DELIVERY' },
        check: (o) => expect(o.fulfillments[1]?.fulfillmentState).toBe('OUT_FOR_DELIVERY'),
      },
      {
        action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: delivery, fulfillmentState: 'DELIVERED' },
        check: (o) => expect(o.fulfillments[1]?.fulfilmentStatusHistory?.DELIVERED?.actual?.endTime).toBe(clock.now()),
      },
      { action: { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' }, check: (o) => expect(o.orderState).toBe('Completed') },
    ];
    for (const [i, step] of steps.entries()) {
      clock.advance(60_000);
      const a = await update(s, t, order.id, `rq-${i}`, [step.action]);
      expect(a.status, a.text).toBe(200);
      const body = orderUpdateSuccessSchema().parse(a.json);
      expect(body.requestContext).toEqual({ requestId: `rq-${i}`, transactionId: order.id });
      expect(body.response.id).toBe(order.id);
      expect(body.response.items.length).toBe(order.items.length);
      step.check(body.response);
      expect(s.order(order.id)).toEqual(body.response);
    }
    expect(s.appliedLog().map((e) => [e.requestId, e.orderId, e.action.type])).toEqual(
      steps.map((st, i) => [`rq-${i}`, order.id, st.action.type]),
    );
    expect(s.appliedLog()[0]?.appliedAt).toBe(manualClock().now() + 60_000);
  });

  it('cancels with a listed reason and records the CANCEL_ORDER action', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    const a = await update(s, t, order.id, 'cancel-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'FRAUD_PRESCRIPTION' }]);
    expect(a.status).toBe(200);
    const o = orderUpdateSuccessSchema().parse(a.json).response;
    expect(o.orderState).toBe('Cancelled');
    expect(o.actions?.at(-1)).toMatchObject({ type: 'CANCEL_ORDER', channel: 'TSP' });
  });

  it('answers NOT_FOUND naming the unknown order, with the request context echoed', async () => {
    const s = await sandbox();
    const t = await token(s);
    const a = await update(s, t, 'ORD-0000000', 'rq-nf', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    expect(a.status).toBe(404);
    expect(a.json).toEqual({
      requestContext: { requestId: 'rq-nf', transactionId: 'ORD-0000000' },
      error: { errorCode: 'NOT_FOUND', message: expect.stringContaining('ORD-0000000') as string },
    });
    expect(s.appliedLog()).toEqual([]);
  });

  it('refuses invalid actions with the state machine code and message, 409 for conflicts and 422 for bad actions', async () => {
    const s = await sandbox();
    const t = await token(s);
    const fresh = findOrder(s, isNew);
    const packed = findOrder(s, (o) => o.fulfillments.some((f) => f.type === 'STORE' && f.fulfillmentState === 'PACKED'));
    const cancelled = findOrder(s, (o) => o.orderState === 'Cancelled');
    const item = fresh.items[0];
    if (!item) throw new Error('unreachable');
    const cases: { orderId: string; action: Action; status: number; code: string }[] = [
      { orderId: packed.id, action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: fulfilmentId(packed, 'STORE'), fulfillmentState: 'PACKING' }, status: 409, code: 'BACKWARD_TRANSITION' },
      { orderId: packed.id, action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: fulfilmentId(packed, 'STORE'), fulfillmentState: 'PACKED' }, status: 409, code: 'ALREADY_IN_STATE' },
      { orderId: fresh.id, action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: fulfilmentId(fresh, 'STORE'), fulfillmentState: 'PACKING' }, status: 409, code: 'NOT_ACCEPTED' },
      { orderId: cancelled.id, action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }, status: 409, code: 'ORDER_CANCELLED' },
      { orderId: fresh.id, action: { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: 0, reason: 'Customer changed mind' }, status: 422, code: 'INVALID_REASON' },
      { orderId: fresh.id, action: { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: item.quantity.count + 1, reason: 'ITEM_UNAVAILABLE' }, status: 422, code: 'UNITS_OUT_OF_RANGE' },
      { orderId: fresh.id, action: { type: 'ITEM_UNIT_UPDATE', itemId: 'IT-nope', itemUnits: 0, reason: 'ITEM_UNAVAILABLE' }, status: 422, code: 'ITEM_NOT_FOUND' },
      { orderId: fresh.id, action: { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED' }, status: 422, code: 'MISSING_REASON' },
      { orderId: fresh.id, action: { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'BAD_WEATHER' }, status: 422, code: 'INVALID_REASON' },
    ];
    for (const [i, c] of cases.entries()) {
      const a = await update(s, t, c.orderId, `bad-${i}`, [c.action]);
      expect([a.status, errorCode(a)], a.text).toEqual([c.status, c.code]);
      expect(a.json).toMatchObject({ requestContext: { requestId: `bad-${i}`, transactionId: c.orderId } });
      expect(errorMessage(a)?.length).toBeGreaterThan(5);
    }
    expect(s.appliedLog()).toEqual([]);
    expect(s.order(fresh.id)).toEqual(fresh);
  });

  it('applies a request all-or-nothing: one refused action leaves the order untouched', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    const a = await update(s, t, order.id, 'batch-1', [
      { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: fulfilmentId(order, 'STORE'), fulfillmentState: 'PACKED' },
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: fulfilmentId(order, 'STORE'), fulfillmentState: 'PACKING' },
    ]);
    expect(a.status).toBe(409);
    expect(errorCode(a)).toBe('BACKWARD_TRANSITION');
    expect(errorMessage(a)).toMatch(/Action 3 of 3/);
    expect(s.order(order.id)).toEqual(order);
    expect(s.appliedLog()).toEqual([]);

    const ok = await update(s, t, order.id, 'batch-2', [
      { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: fulfilmentId(order, 'STORE'), fulfillmentState: 'PACKING' },
    ]);
    expect(ok.status).toBe(200);
    expect(s.appliedLog().map((e) => e.actionIndex)).toEqual([0, 1]);
  });

  it('answers a repeated requestId with the first answer and applies it once', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    const accept: Action[] = [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }];
    const first = await update(s, t, order.id, 'same-id', accept);
    const again = await update(s, t, order.id, 'same-id', accept);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(s.appliedLog()).toHaveLength(1);

    // An error answer is replayed too, even after the order has changed.
    const bad = await update(s, t, order.id, 'err-id', [{ type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' }]);
    const badAgain = await update(s, t, order.id, 'err-id', [{ type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' }]);
    expect(bad.status).toBe(409);
    expect([badAgain.status, badAgain.text]).toEqual([bad.status, bad.text]);

    expect(s.requestLog().map((r) => [r.requestId, r.status, r.duplicate])).toEqual([
      ['same-id', 200, false],
      ['same-id', 200, true],
      ['err-id', 409, false],
      ['err-id', 409, true],
    ]);
    expect(s.stats().updateRequests).toBe(4);
  });

  it('answers 400 INVALID_REQUEST for a body that is not JSON or not an update request', async () => {
    const s = await sandbox();
    const t = await token(s);
    const auth = `O-Bearer ${t.access_token}`;
    const notJson = await postUpdate(s, auth, '{"requestContext": ');
    expect([notJson.status, errorCode(notJson)]).toEqual([400, 'INVALID_REQUEST']);
    expect(errorMessage(notJson)).toMatch(/JSON/);

    const noActions = await postUpdate(s, auth, updateBody('ORD-1', 'rq-x', []));
    expect([noActions.status, errorCode(noActions)]).toEqual([400, 'INVALID_REQUEST']);
    expect(errorMessage(noActions)).toMatch(/actions/);
    expect(noActions.json).toMatchObject({ requestContext: { requestId: 'rq-x', transactionId: 'ORD-1' } });

    const badState = await postUpdate(s, auth, updateBody('ORD-1', 'rq-y', [{ type: 'ORDER_STATE_UPDATE', orderState: 'SHIPPED' } as unknown as Action]));
    expect(badState.status).toBe(400);
    expect(errorMessage(badState)).toMatch(/orderState/);
  });

  it('answers 401 for a missing, malformed or unknown token, without echoing it', async () => {
    const s = await sandbox();
    const order = s.orders()[0];
    const body = updateBody(order?.id ?? '', 'rq-a', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    const t = await token(s);
    for (const auth of [undefined, `Bearer ${t.access_token}`, 'O-Bearer not-a-real-token-123456']) {
      const a = await postUpdate(s, auth, body);
      expect(a.status).toBe(401);
      expect(errorCode(a)).toBe('UNAUTHORIZED');
      expect(a.json).toMatchObject({ requestContext: { requestId: 'rq-a' } });
      expect(a.text).not.toContain(t.access_token);
      expect(a.text).not.toContain('not-a-real-token-123456');
    }
    expect(s.appliedLog()).toEqual([]);
  });

  it.each([401, 412] as const)('answers %i for an expired token (option), and the refreshed token works', async (status) => {
    const clock = manualClock();
    const s = await sandbox({ now: clock.now, tokenTtlSeconds: 60, expiredStatus: status });
    const t = await token(s);
    const order = findOrder(s, isNew);
    clock.advance(60_000);
    const a = await update(s, t, order.id, 'rq-exp', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    expect([a.status, errorCode(a)]).toEqual([status, 'TOKEN_EXPIRED']);
    expect(s.appliedLog()).toEqual([]);
  });

  it('switches the expired-token status at run time and expires tokens on demand', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    s.expireTokensNow();
    const first = await update(s, t, order.id, 'rq-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    expect(first.status).toBe(401);
    s.faults.set({ expiredStatus: 412 });
    const second = await update(s, t, order.id, 'rq-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    expect(second.status).toBe(412);
    // A refused-for-auth request was not recorded as answered: once authorised, it applies.
    const fresh = await token(s);
    const third = await update(s, fresh, order.id, 'rq-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    expect(third.status).toBe(200);
    expect(s.appliedLog()).toHaveLength(1);
  });

  it('answers 405 to a GET reachability probe on the update path and 404 JSON elsewhere', async () => {
    const s = await sandbox();
    const probe = await fetch(`${s.url}/tsp/order/v1/update`);
    expect(probe.status).toBe(405);
    expect(probe.headers.get('allow')).toBe('POST');
    expect(await probe.json()).toMatchObject({ error: { errorCode: 'METHOD_NOT_ALLOWED' } });
    const tokenGet = await fetch(`${s.url}/olympus/im/v1/oauth/token`);
    expect(tokenGet.status).toBe(405);
    const other = await fetch(`${s.url}/tsp/order/v2/update`, { method: 'POST' });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { errorCode: 'UNKNOWN_PATH' } });
    const adminOnly = await fetch(`${s.adminUrl}/tsp/order/v1/update`, { method: 'POST' });
    expect(adminOnly.status).toBe(404);
    expect(s.stats().updateRequests).toBe(0);
  });
});
