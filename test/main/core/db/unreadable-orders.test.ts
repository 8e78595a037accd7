import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../../src/main/core/db';
import { orderView } from '../../../../src/main/core/outbox/views';
import { orderSummarySchema, orderViewSchema } from '../../../../src/shared/ipc';
import { summarize } from '../../../../src/shared/orders/summary';
import { Cleanup, tempDir } from '../../../support/engine';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const NOW = Date.UTC(2025, 0, 15, 9, 30);

function open(dir: string): Store {
  const r = openStore({ dataDir: dir, now: () => NOW });
  if (!r.ok) throw new Error(r.problem.message);
  cleanup.add(() => r.value.close());
  return r.value;
}

/** The queue as the host answers `orders.list`: every row's summary, checked against the contract. */
function queue(store: Store) {
  return store.orders.list().map((row) => orderSummarySchema().parse(summarize(orderView(row, [], NOW))));
}

describe('orders whose stored body cannot be believed', () => {
  it('sets aside one order with a sum of units past 2^53, stored by an older Packdesk, and lists every other', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    store.orders.saveBody(sampleOrder({ id: 'ORD-1001' }), NOW);
    store.orders.saveBody(sampleOrder({ id: 'ORD-1002' }), NOW);
    // Each count was valid alone to the schema of the time; their sum is not a safe integer.
    const huge = sampleOrder({ id: 'ORD-1003' });
    const body = { ...huge, items: huge.items.map((i) => ({ ...i, quantity: { count: 5e15 } })) };
    const raw = new Database(store.file);
    raw.prepare(`INSERT INTO orders (id, body, synced_at, added_at, needs_refresh, body_rev) VALUES ('ORD-1003', ?, ?, ?, 0, 1)`).run(JSON.stringify(body), NOW, NOW);
    raw.close();

    const rows = queue(open(dir));
    expect(rows.map((r) => r.id)).toEqual(['ORD-1001', 'ORD-1002', 'ORD-1003']);
    expect(rows.find((r) => r.id === 'ORD-1003')).toMatchObject({ unreadable: true, facts: null, needsRefresh: true });
    expect(rows.filter((r) => r.unreadable)).toHaveLength(1);
  });

  it('opens an order whose fulfilment times are 1e300 and -1e20, without those times', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    const order = sampleOrder({ id: 'ORD-1004' });
    const body = {
      ...order,
      fulfillments: order.fulfillments.map((f) => ({ ...f, fulfilmentStatusHistory: { PACKED: { promised: { endTime: 1e300 } }, PACKING: { actual: { endTime: -1e20 } } } })),
    };
    const raw = new Database(store.file);
    raw.prepare(`INSERT INTO orders (id, body, synced_at, added_at, needs_refresh, body_rev) VALUES ('ORD-1004', ?, ?, ?, 0, 1)`).run(JSON.stringify(body), NOW, NOW);
    raw.close();

    const row = open(dir).orders.get('ORD-1004')!;
    const view = orderViewSchema().parse(orderView(row, [], NOW));
    expect(view.unreadable).toBe(false);
    expect(view.promisedPackedAt).toBeNull();
    expect(view.order?.fulfillments[0]?.fulfilmentStatusHistory).toEqual({ PACKED: {}, PACKING: {} });
    // Every date the order screen formats is one a Date can hold.
    for (const f of view.order?.fulfillments ?? [])
      for (const e of Object.values(f.fulfilmentStatusHistory ?? {}))
        for (const t of [e.actual, e.expected, e.promised]) if (t) expect(() => new Date(t.endTime).toISOString()).not.toThrow();
  });

  it('keeps the answer of an order set aside on arrival, and names it until a readable body comes', () => {
    const store = open(tempDir(cleanup));
    store.orders.markUnreadable('ORD-1005', '{"response":{"id":"ORD-1005","items":[{"quantity":{"count":5e15}}]}}', NOW);
    const row = store.orders.get('ORD-1005')!;
    expect(row.rawUnreadable).toContain('5e15');
    expect(queue(store)[0]).toMatchObject({ id: 'ORD-1005', unreadable: true });
    store.orders.saveIfNewer(sampleOrder({ id: 'ORD-1005' }), NOW + 1000);
    expect(queue(store)[0]?.unreadable).toBeUndefined();
  });
});
