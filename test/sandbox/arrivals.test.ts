/** Orders placed and changed in the sandbox, and the update switches intake tests rely on. */
import { describe, expect, it } from 'vitest';
import { ADMIN_PREFIX } from '../../sandbox';
import { createLogger } from '../../src/main/core/log';
import { postUpdate, sandbox, token, update, updateBody } from '../support/sandbox-http';
import { manualClock } from '../support/clock';
import { until } from '../support/until';

const accept = { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' } as const;

describe('sandbox arrivals and switches', () => {
  it('keeps the seeded orders in varied states', async () => {
    const s = await sandbox({ arrivalEveryMs: 0 });
    const states = new Set(s.orders().map((o) => o.orderState));
    expect(states).toEqual(new Set(['Created', 'Accepted', 'In-progress', 'Cancelled']));
  });

  it('places a new order on a timer and from the admin API, each with a fresh id and state Created', async () => {
    // The sandbox says each arrival in its log: the test waits for the second one.
    const arrived: string[] = [];
    const log = createLogger([{ write: (r) => void (r.msg === 'order placed' && arrived.push(String(r.fields?.['orderId']))) }]);
    const s = await sandbox({ arrivalEveryMs: 100, log });
    const before = s.orders().length - arrived.length;
    await until('two orders placed on the timer', () => arrived.length >= 2);
    expect(s.orders().length).toBeGreaterThanOrEqual(before + 2);
    for (const id of arrived.slice(0, 2)) expect(s.order(id)?.orderState).toBe('Created');
    const res = await fetch(`${s.adminUrl}${ADMIN_PREFIX}place-order`, { method: 'POST' });
    const placed = (await res.json()) as { id: string; orderState: string; items: unknown[] };
    expect(placed.orderState).toBe('Created');
    expect(placed.items.length).toBeGreaterThan(0);
    expect(new Set(s.orders().map((o) => o.id)).size).toBe(s.orders().length);
  });

  it('changes an order from elsewhere (cancel), moving its change time', async () => {
    const clock = manualClock();
    const s = await sandbox({ arrivalEveryMs: 0, now: clock.now });
    const order = s.orders().find((o) => o.orderState === 'Created')!;
    clock.advance(60_000);
    const res = await fetch(`${s.adminUrl}${ADMIN_PREFIX}orders/${order.id}/change`, { method: 'POST', body: JSON.stringify({ change: 'cancel' }) });
    expect(res.status).toBe(200);
    expect(s.order(order.id)?.orderState).toBe('Cancelled');
    expect(Date.parse(s.order(order.id)?.updatedAt ?? '')).toBe(clock.now());
    const bad = await fetch(`${s.adminUrl}${ADMIN_PREFIX}orders/${order.id}/change`, { method: 'POST', body: JSON.stringify({ change: 'explode' }) });
    expect(bad.status).toBe(400);
  });

  it('serves a body exactly as given from the admin API, however wrong, changed now; a body without an id is refused', async () => {
    const clock = manualClock();
    const s = await sandbox({ arrivalEveryMs: 0, now: clock.now });
    const order = s.orders()[0]!;
    clock.advance(60_000);
    const wrong = { ...order, updatedAt: '9999-12-31T23:59:59.999Z', items: [{ itemId: 'X', quantity: { count: 5e15 } }] };
    const res = await fetch(`${s.adminUrl}${ADMIN_PREFIX}serve-order`, { method: 'POST', body: JSON.stringify(wrong) });
    expect(res.status).toBe(200);
    expect(s.order(order.id)).toEqual(wrong);
    const listed = await fetch(`${s.url}/tsp/order/v1/changes`, {
      method: 'POST',
      headers: { Authorization: `O-Bearer ${(await token(s)).access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ requestContext: { requestId: 'c-1' }, serviceProviderId: s.serviceProviderId, fromTimestamp: clock.now() - 1000, toTimestamp: clock.now(), sortOrder: 'ASC', size: 10 }),
    });
    expect(((await listed.json()) as { response: { orderIds: string[] } }).response.orderIds).toEqual([order.id]);
    const bad = await fetch(`${s.adminUrl}${ADMIN_PREFIX}serve-order`, { method: 'POST', body: JSON.stringify({ items: [] }) });
    expect(bad.status).toBe(400);
  });

  it('with de-duplication off, a repeated requestId is applied again', async () => {
    const s = await sandbox({ arrivalEveryMs: 0 });
    const t = await token(s);
    const order = s.orders().find((o) => o.orderState === 'Created' && o.items.some((i) => i.quantity.count >= 3))!;
    const item = order.items.find((i) => i.quantity.count >= 3)!;
    s.faults.set({ dedupe: false });
    const cut = { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: item.quantity.count - 1, reason: 'SELLER_REFUND_ACCEPTED' } as const;
    await update(s, t, order.id, 'rq-a', [accept]);
    expect((await update(s, t, order.id, 'rq-b', [cut])).status).toBe(200);
    // Same requestId again: not replayed, applied afresh (and refused: the count is already there).
    const again = await update(s, t, order.id, 'rq-b', [cut]);
    expect(again.status).toBe(409);
    expect(s.requestLog().filter((r) => r.requestId === 'rq-b').map((r) => r.duplicate)).toEqual([false, false]);
  });

  it('applies an update and drops the connection without answering; answers another with 204 and no body', async () => {
    const s = await sandbox({ arrivalEveryMs: 0 });
    const t = await token(s);
    const [a, b] = s.orders().filter((o) => o.orderState === 'Created');
    s.faults.set({ dropAfterApply: 1 });
    await expect(postUpdate(s, `O-Bearer ${t.access_token}`, updateBody(a!.id, 'rq-1', [accept]))).rejects.toThrow();
    expect(s.order(a!.id)?.orderState).toBe('Accepted');
    s.faults.set({ emptyUpdateAnswers: 1 });
    const empty = await update(s, t, b!.id, 'rq-2', [accept]);
    expect(empty.status).toBe(204);
    expect(empty.text).toBe('');
    expect(s.order(b!.id)?.orderState).toBe('Accepted');
  });
});
