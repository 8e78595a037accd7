/**
 * Order bodies shared through the hub, against a real nats-server and each counter's real SQLite
 * file (stored as intake stores, through storeForIntake): a body put once reaches every counter,
 * new to each exactly once; two counters putting the same order race to one `create`; an older body
 * never replaces a newer one; a value that is not an order is skipped, never stored; order ids that
 * are not KV keys travel losslessly.
 */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { Kvm } from '@nats-io/kv';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../../src/main/core/db';
import { storeForIntake } from '../../../../src/main/core/intake';
import { createLogger, type LogRecord } from '../../../../src/main/core/log';
import { ORDERS_BUCKET, orderIdOfKey, orderKey, type SharedOrders, startSharedOrders } from '../../../../src/main/core/hub/shared-orders';
import { systemTimers } from '../../../../src/main/core/time';
import type { Order } from '../../../../src/shared/protocol/schemas';
import { Cleanup, openedStore, tempDir } from '../../../support/engine';
import { startTestNats, type TestNatsServer } from '../../../support/nats';
import { isMarkerBody, putMarkerBody } from '../../../support/hub-store';
import { sampleOrder } from '../../../support/orders';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function server(): Promise<TestNatsServer> {
  const s = await startTestNats();
  cleanup.add(() => s.stop());
  return s;
}

async function connection(s: TestNatsServer): Promise<NatsConnection> {
  const nc = await connect({ servers: s.url, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  cleanup.add(() => nc.close());
  return nc;
}

interface Counter {
  readonly store: Store;
  readonly shared: SharedOrders;
  /** Every (orderIds, newIds) the watcher reported. */
  readonly reports: { orderIds: readonly string[]; newIds: readonly string[] }[];
  readonly logs: LogRecord[];
  /** Stores bodies as this counter's intake would (before publishing them). */
  intakeStores(orders: readonly Order[]): void;
  newIds(): string[];
}

async function counter(s: TestNatsServer): Promise<Counter> {
  const store = openedStore(cleanup, tempDir(cleanup, 'packdesk-hub-orders-'));
  const intakeStore = storeForIntake(store);
  const reports: Counter['reports'] = [];
  const logs: LogRecord[] = [];
  const log = createLogger([{ write: (r: LogRecord) => logs.push(r) }]);
  const shared = startSharedOrders(
    await connection(s),
    {
      saveOrders: (orders, now) => intakeStore.saveAllIfNewer(orders, now),
      bodies: (ids) => ids.map((id) => store.orders.held(id)).filter((o) => o !== null),
    },
    {
      now: Date.now,
      timers: systemTimers,
      log,
      // The test's markers (heardAll) are left out: they are not what a counter reports.
      onStored: (orderIds, newIds) => {
        const ids = orderIds.filter((id) => !isMarkerBody(id));
        if (ids.length > 0) reports.push({ orderIds: ids, newIds: newIds.filter((id) => !isMarkerBody(id)) });
      },
    },
  );
  cleanup.add(() => shared.close());
  return {
    store,
    shared,
    reports,
    logs,
    intakeStores: (orders) => void intakeStore.saveAllIfNewer(orders, Date.now()),
    newIds: () => reports.flatMap((r) => r.newIds),
  };
}

const order = (id: string, updatedAt: string, orderState = 'Created'): Order => sampleOrder({ id, updatedAt, orderState });

/** Waits until each counter has stored, and reported, every body written before now (putMarkerBody), so what it reports is final. */
async function heardAll(s: TestNatsServer, ...counters: Counter[]): Promise<void> {
  const mark = await putMarkerBody(await connection(s));
  await until(`the marker ${mark} stored on every counter`, () => counters.every((c) => c.store.orders.held(mark) !== null));
}

describe('shared orders', () => {
  it('puts a body once and every other counter stores it, new exactly once; putting it again changes nothing', async () => {
    const s = await server();
    const [a, b, c] = [await counter(s), await counter(s), await counter(s)];
    const body = order('ORD-7001', '2026-11-25T10:00:00.000Z');
    a.intakeStores([body]);
    expect(await a.shared.publish([body.id])).toEqual(new Map([[body.id, 'created']]));
    await until('b and c have it', () => b.store.orders.held(body.id) !== null && c.store.orders.held(body.id) !== null);
    expect(b.store.orders.held(body.id)).toEqual(body);
    await heardAll(s, a, b, c);
    expect(b.newIds()).toEqual([body.id]);
    expect(c.newIds()).toEqual([body.id]);
    expect(a.newIds()).toEqual([]); // its own intake stored it first: the watch brings nothing new

    expect(await a.shared.publish([body.id])).toEqual(new Map([[body.id, 'kept']]));
    await heardAll(s, b);
    expect(b.reports).toHaveLength(1);
  });

  it('two counters putting the same order at once: one create, the other keeps it; no counter hears it new twice', async () => {
    const s = await server();
    const [a, b, c] = [await counter(s), await counter(s), await counter(s)];
    const bodies = Array.from({ length: 30 }, (_, i) => order(`ORD-R${i}`, '2026-11-25T10:00:00.000Z'));
    a.intakeStores(bodies);
    b.intakeStores(bodies);
    const ids = bodies.map((o) => o.id);
    const [fromA, fromB] = await Promise.all([a.shared.publish(ids), b.shared.publish(ids)]);
    for (const id of ids) expect([fromA.get(id), fromB.get(id)].sort()).toEqual(['created', 'kept']);
    await until('c has them all', () => ids.every((id) => c.store.orders.held(id) !== null));
    const kv = await new Kvm(await connection(s)).open(ORDERS_BUCKET);
    expect((await kv.status()).values).toBe(30);
    await heardAll(s, a, b, c);
    expect(c.newIds().sort()).toEqual([...ids].sort());
    expect(a.newIds()).toEqual([]);
    expect(b.newIds()).toEqual([]);
  });

  it('never replaces a newer body with an older one, and takes a newer one', async () => {
    const s = await server();
    const [a, b] = [await counter(s), await counter(s)];
    const newer = order('ORD-N1', '2026-11-25T10:05:00.000Z', 'Accepted');
    const older = order('ORD-N1', '2026-11-25T10:00:00.000Z', 'Created');
    a.intakeStores([newer]);
    await a.shared.publish([newer.id]);
    await until('b has it', () => b.store.orders.held(newer.id) !== null);
    // b's own intake read an older body (a poller overlapping during a hand-over, behind the other)
    const c = await counter(s);
    c.intakeStores([older]);
    expect(await c.shared.publish([older.id])).toEqual(new Map([[older.id, 'kept']]));
    await heardAll(s, b);
    expect(b.store.orders.held(newer.id)).toEqual(newer);
    const kv = await new Kvm(await connection(s)).open(ORDERS_BUCKET);
    expect((await kv.get(orderKey(newer.id)))?.json()).toEqual(newer);
    await until('c took the newer body from the hub', () => c.store.orders.held(newer.id)?.orderState === 'Accepted');

    const newest = order('ORD-N1', '2026-11-25T10:09:00.000Z', 'In-progress');
    c.intakeStores([newest]);
    expect(await c.shared.publish([newest.id])).toEqual(new Map([[newest.id, 'updated']]));
    await until('b has the newest', () => b.store.orders.held(newest.id)?.orderState === 'In-progress');
    expect(b.newIds()).toEqual([newer.id]);
  });

  it('skips and logs a value in the hub that is not an order; the good ones around it are stored', async () => {
    const s = await server();
    const a = await counter(s);
    await a.shared.caughtUp(); // the bucket is made
    const kv = await new Kvm(await connection(s)).open(ORDERS_BUCKET);
    const good = order('ORD-G1', '2026-11-25T10:00:00.000Z');
    await kv.put('not_json', '{oops');
    await kv.put(orderKey('ORD-B1'), JSON.stringify({ id: 'ORD-B1', items: 'none' }));
    await kv.put(orderKey('ORD-B2'), JSON.stringify(order('ORD-OTHER', '2026-11-25T10:00:00.000Z'))); // key and id disagree
    await kv.put(orderKey(good.id), JSON.stringify(good));
    await until('the good one stored', () => a.store.orders.held(good.id) !== null);
    await heardAll(s, a);
    expect(a.newIds()).toEqual([good.id]);
    for (const id of ['ORD-B1', 'ORD-B2', 'ORD-OTHER']) expect(a.store.orders.get(id)).toBeNull();
    expect(a.logs.filter((r) => r.level === 'warn' && /not a believable order/.test(r.msg))).toHaveLength(3);
  });

  it('order ids that are not KV keys travel losslessly', async () => {
    const ids = ['ORD 12/3', 'a.b.c', 'x>y*z', 'under_score', '१२३-हिं', 'ORD_2F', '-', 'é'];
    for (const id of ids) {
      expect(orderKey(id)).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(orderIdOfKey(orderKey(id))).toBe(id);
    }
    expect(new Set(ids.map(orderKey)).size).toBe(ids.length);
    expect(orderIdOfKey('ORD_2')).toBeNull();
    expect(orderIdOfKey('a.b')).toBeNull();
    expect(orderIdOfKey('_2f')).toBeNull(); // lowercase hex is not what orderKey writes: one key per id

    const s = await server();
    const [a, b] = [await counter(s), await counter(s)];
    const bodies = ids.map((id) => order(id, '2026-11-25T10:00:00.000Z'));
    a.intakeStores(bodies);
    const put = await a.shared.publish(ids);
    expect([...put.values()]).toEqual(ids.map(() => 'created'));
    await until('b has them all', () => ids.every((id) => b.store.orders.held(id) !== null));
  });

  it('a body put while the hub is away is put again once it is back, and reaches the other counters', async () => {
    const s = await server();
    const [a, b] = [await counter(s), await counter(s)];
    await b.shared.caughtUp();
    await s.kill();
    const body = order('ORD-AWAY1', '2026-11-25T10:00:00.000Z');
    a.intakeStores([body]);
    expect(await a.shared.publish([body.id])).toEqual(new Map([[body.id, 'failed']]));
    await s.restart();
    await until('b has the body put while the hub was away', () => b.store.orders.held(body.id) !== null, 15_000);
    await heardAll(s, b);
    expect(b.newIds()).toEqual([body.id]);
  }, 30_000);

  it('a counter that joins later catches up with every body the hub holds', async () => {
    const s = await server();
    const a = await counter(s);
    const bodies = Array.from({ length: 50 }, (_, i) => order(`ORD-C${i}`, '2026-11-25T10:00:00.000Z'));
    a.intakeStores(bodies);
    await a.shared.publish(bodies.map((o) => o.id));
    const late = await counter(s);
    await late.shared.caughtUp();
    expect(bodies.every((o) => late.store.orders.held(o.id) !== null)).toBe(true);
    expect(late.newIds()).toHaveLength(50);
  });
});
