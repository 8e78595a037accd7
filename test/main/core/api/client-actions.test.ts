import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateOutcome } from '../../../../src/main/core/api';
import { type Action, OrderSchema, orderUpdateRequestSchema, sameOrderState } from '../../../../src/shared/protocol';
import { accept, freshOrder, startWorld, updateOf, type World } from '../../../support/world';
import { fulfilmentId } from '../../../support/orders';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function expectSuccess(outcome: UpdateOutcome): asserts outcome is Extract<UpdateOutcome, { kind: 'success' }> {
  if (outcome.kind !== 'success') throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
}

describe('order service client against the sandbox: every action type', () => {
  it('moves an order through all four action types and returns the whole order each time', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    const store = fulfilmentId(order, 'STORE');
    const delivery = fulfilmentId(order, 'DELIVERY');
    const item = order.items.find((i) => i.quantity.count >= 2);
    if (!item) throw new Error('no item with 2+ units');

    const steps: Action[] = [
      { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKING' },
      { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: item.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' },
      { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-2025-0042' } },
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKED' },
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: delivery, fulfillmentState: 'OUT_FOR_DELIVERY' },
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: delivery, fulfillmentState: 'DELIVERED' },
      { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' },
    ];
    const requestIds: string[] = [];
    let last: Extract<UpdateOutcome, { kind: 'success' }> | undefined;
    for (const action of steps) {
      const request = updateOf(order.id, action);
      requestIds.push(request.requestContext.requestId);
      const outcome = await world.send(request);
      expectSuccess(outcome);
      expect(outcome.status).toBeGreaterThanOrEqual(200);
      expect(outcome.status).toBeLessThan(300);
      // The returned order is the whole order and matches the protocol schemas.
      expect(OrderSchema.safeParse(outcome.order).success).toBe(true);
      expect(outcome.order.id).toBe(order.id);
      expect(outcome.order.items.length).toBe(order.items.length);
      // The raw JSON is kept (unknown fields included), and it is the same order.
      expect((outcome.raw as { response: { id: string } }).response.id).toBe(order.id);
      last = outcome;
    }

    const final = last?.order;
    expect(final && sameOrderState(final.orderState, 'COMPLETED')).toBe(true);
    expect(final?.items.find((i) => i.itemId === item.itemId)?.quantity.count).toBe(item.quantity.count - 1);
    expect(final?.fulfillments.find((f) => f.fulfillmentId === delivery)?.fulfillmentState?.toUpperCase()).toBe('DELIVERED');
    // What the client got back is what the service now holds.
    expect(world.sandbox.order(order.id)).toEqual(final);
    // Each request was applied exactly once, in order.
    expect(world.sandbox.appliedLog().map((e) => e.requestId)).toEqual(requestIds);
    // One token served all of it.
    expect(world.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 0, refused: 0 });
  });

  it('cancels an order with a reason from the catalogue', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    const outcome = await world.send(
      updateOf(order.id, { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'BUYER_NOT_AVAILABLE' }),
    );
    expectSuccess(outcome);
    expect(sameOrderState(outcome.order.orderState, 'CANCELLED')).toBe(true);
  });

  it('sends the spec headers and the request body as JSON', async () => {
    const seen: { method?: string; headers: Record<string, string>; body: unknown }[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/tsp/order/v1/update'))
        seen.push({ method: init?.method, headers: init?.headers as Record<string, string>, body: JSON.parse(String(init?.body)) });
      return fetch(input, init);
    };
    world = await startWorld({ client: { fetch: recordingFetch } });
    const order = freshOrder(world.sandbox);
    const request = updateOf(order.id, { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' });
    expectSuccess(await world.send(request));
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call?.method).toBe('POST');
    expect(call?.headers.Accept).toBe('application/json');
    expect(call?.headers['Content-Type']).toBe('application/json');
    expect(call?.headers.Authorization).toMatch(/^O-Bearer \S+$/);
    expect(orderUpdateRequestSchema().parse(call?.body)).toEqual(request);
  });
});

describe('order service client against the sandbox: refusals', () => {
  it('classifies an unknown order as permanent NOT_FOUND with the service message naming the id', async () => {
    world = await startWorld();
    const outcome = await world.send(updateOf('ORD-DOES-NOT-EXIST', { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }));
    expect(outcome).toMatchObject({ kind: 'permanent', errorCode: 'NOT_FOUND' });
    if (outcome.kind !== 'permanent') return;
    expect(outcome.status).toBeGreaterThanOrEqual(400);
    expect(outcome.status).toBeLessThan(500);
    expect(outcome.message).toContain('ORD-DOES-NOT-EXIST');
  });

  it('classifies a backward transition as permanent with the service errorCode and message', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    const store = fulfilmentId(order, 'STORE');
    await accept(world, order.id);
    expectSuccess(await world.send(updateOf(order.id, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKED' })));
    const outcome = await world.send(
      updateOf(order.id, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKING' }),
    );
    expect(outcome).toMatchObject({ kind: 'permanent', errorCode: 'BACKWARD_TRANSITION' });
    if (outcome.kind === 'permanent') expect(outcome.message).toMatch(/back/i);
    // The refusal changed nothing on the service.
    expect(world.sandbox.order(order.id)?.fulfillments.find((f) => f.fulfillmentId === store)?.fulfillmentState?.toUpperCase()).toBe('PACKED');
  });

  it('classifies an unknown reason and out-of-range units as permanent (the service refuses them)', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    const item = order.items[0];
    if (!item) throw new Error('order without items');
    await accept(world, order.id);
    const badReason = await world.send(
      updateOf(order.id, { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: 0, reason: 'BECAUSE_I_SAID_SO' }),
    );
    expect(badReason).toMatchObject({ kind: 'permanent', errorCode: 'INVALID_REASON' });
    const tooMany = await world.send(
      updateOf(order.id, { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: item.quantity.count + 5, reason: 'ITEM_UNAVAILABLE' }),
    );
    expect(tooMany).toMatchObject({ kind: 'permanent', errorCode: 'UNITS_OUT_OF_RANGE' });
    if (tooMany.kind === 'permanent') expect(tooMany.message.length).toBeGreaterThan(5);
  });

  it('classifies an action the order is not ready for as permanent (fulfilment before acceptance)', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    const outcome = await world.send(
      updateOf(order.id, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: fulfilmentId(order, 'STORE'), fulfillmentState: 'PACKING' }),
    );
    expect(outcome).toMatchObject({ kind: 'permanent', errorCode: 'NOT_ACCEPTED' });
  });
});
