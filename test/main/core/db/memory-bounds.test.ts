import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type OpenStoreOptions, type Store } from '../../../../src/main/core/db';
import { BODY_CACHE_SIZE } from '../../../../src/main/core/db/orders-table';
import { ACTION_CACHE_SIZE, forgetParsedActions, parsedActionsKept } from '../../../../src/main/core/db/rows';
import { DEFAULT_PAGE_CACHE_KIB } from '../../../../src/main/core/db/store';
import { INTAKE_MEMORY, openIntakeStore } from '../../../../src/main/core/engine/compose';
import { createHeapTrim, TRIM_GROWTH_BYTES, TRIM_QUIET_MS } from '../../../../src/main/core/host/heap-trim';
import { silentLogger } from '../../../../src/main/core/log';
import type { Order } from '../../../../src/shared/protocol';
import { manualClock, manualTimers } from '../../../support/clock';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const NOW = Date.UTC(2025, 0, 15, 9, 30);

function open(memory?: OpenStoreOptions['memory'], dataDir = tempDir(cleanup)): Store {
  const r = openStore({ dataDir, now: () => NOW, ...(memory ? { memory } : {}) });
  if (!r.ok) throw new Error(r.problem.message);
  cleanup.add(() => r.value.close());
  return r.value;
}

const order = (n: number): Order => ({
  id: `ORD-${1000 + n}`,
  orderState: 'Created',
  items: [{ itemId: `I-${n}`, name: `Item ${n}`, quantity: { count: 1 } }],
  fulfillments: [{ fulfillmentId: `F-${n}`, type: 'STORE' }],
});

describe('what a connection to the data file keeps in memory', () => {
  it('keeps at most its share of parsed bodies however many orders it lists, the most recently used', () => {
    const store = open({ bodies: 3 });
    store.transaction(() => {
      for (let n = 0; n < 10; n++) store.orders.saveIfNewer(order(n), NOW);
    });
    // Every body read (the queue listed), each one right.
    expect(store.orders.list().map((r) => r.body?.items[0]?.name)).toEqual(Array.from({ length: 10 }, (_, n) => `Item ${n}`));
    expect(store.orders.bodiesKept()).toBe(3);
    // The order tapped now is read again from the cache or the file, the same either way.
    expect(store.orders.get('ORD-1002')?.body?.id).toBe('ORD-1002');
    expect(store.orders.bodiesKept()).toBe(3);
  });

  it("keeps the engine's default share: room for the orders being worked on, not every order of a large queue", () => {
    const store = open();
    const count = BODY_CACHE_SIZE + 50;
    store.transaction(() => {
      for (let n = 0; n < count; n++) store.orders.saveIfNewer(order(n), NOW);
    });
    expect(store.orders.list()).toHaveLength(count);
    expect(store.orders.bodiesKept()).toBe(BODY_CACHE_SIZE);
    expect(BODY_CACHE_SIZE).toBeLessThanOrEqual(500);
  });

  it("keeps a few hundred parsed taps' actions however many different taps were read, each read the same again", () => {
    const store = open();
    const count = ACTION_CACHE_SIZE + 300;
    store.transaction(() => {
      store.orders.saveIfNewer(order(0), NOW);
      // Each an invoice number of its own: a distinct stored text, as cuts and invoices are.
      for (let n = 0; n < count; n++) store.outbox.insert({ randomId: crypto.randomUUID(), orderId: 'ORD-1000', action: { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: `INV-${n}` } }, createdAt: NOW, sendAfter: NOW, terminalId: 'T-1' });
    });
    const first = store.outbox.forOrder('ORD-1000');
    expect(first).toHaveLength(count);
    expect(parsedActionsKept()).toBeLessThanOrEqual(ACTION_CACHE_SIZE);
    expect(ACTION_CACHE_SIZE).toBeLessThanOrEqual(512);
    // Read again: the same actions, whether from the cache or the file.
    expect(store.outbox.forOrder('ORD-1000').map((e) => e.action)).toEqual(first.map((e) => e.action));
  });

  it("gives SQLite's page cache its size: the engine's 4 MB unless told, intake's connection SQLite's own 2 MB", () => {
    const dir = tempDir(cleanup);
    open(undefined, dir);
    // The page cache is the connection's own setting: read back through a connection opened the same way.
    const cacheOf = (memory?: OpenStoreOptions['memory']): number => {
      const file = `${dir}/cache-${memory?.pageCacheKib ?? 'default'}`;
      const r = openStore({ dataDir: file, now: () => NOW, ...(memory ? { memory } : {}) });
      if (!r.ok) throw new Error(r.problem.message);
      cleanup.add(() => r.value.close());
      // The setting is the connection's own: the store reads it back from SQLite.
      return r.value.pageCacheKib();
    };
    expect(cacheOf()).toBe(DEFAULT_PAGE_CACHE_KIB);
    expect(DEFAULT_PAGE_CACHE_KIB).toBeLessThanOrEqual(4_096);
    expect(cacheOf(INTAKE_MEMORY)).toBe(2_048);
    expect(INTAKE_MEMORY.bodies).toBeLessThanOrEqual(64);
  });

  it("opens intake's own connection with SQLite's 2 MB and a few parsed bodies, however many orders it stores", () => {
    const dir = tempDir(cleanup);
    open(undefined, dir);
    const intake = openIntakeStore(dir, () => NOW);
    cleanup.add(() => intake.close());
    expect(intake.pageCacheKib()).toBe(2_048);
    intake.transaction(() => {
      for (let n = 0; n < 300; n++) intake.orders.saveIfNewer(order(n), NOW);
    });
    // A newer answer for each is compared with the body held: read, then let go.
    for (let n = 0; n < 300; n++) intake.orders.get(`ORD-${1000 + n}`);
    expect(intake.orders.bodiesKept()).toBeLessThanOrEqual(64);
  });
});

/**
 * What only a busy spell reads again is let go in the quiet after it (issue 41): intake's parsed
 * bodies and the taps' parsed actions, just before the host's collection (host/heap-trim.ts), so a
 * terminal after a busy hour holds what a settled one does. After a compressed busy hour they held
 * about 0.7 MB that the settled terminal had not, most of the host's JS heap growth over the hour.
 */
describe("a busy spell's caches", () => {
  it('are emptied when let go, and read the same afterwards', () => {
    const store = open({ bodies: 64 });
    store.transaction(() => {
      for (let n = 0; n < 20; n++) store.orders.saveIfNewer(order(n), NOW);
      for (let n = 0; n < 20; n++)
        store.outbox.insert({ randomId: crypto.randomUUID(), orderId: 'ORD-1000', action: { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: `INV-${n}` } }, createdAt: NOW, sendAfter: NOW, terminalId: 'T-1' });
    });
    const bodies = store.orders.list().map((r) => r.body);
    const actions = store.outbox.forOrder('ORD-1000').map((e) => e.action);
    expect(store.orders.bodiesKept()).toBe(20);
    expect(parsedActionsKept()).toBeGreaterThanOrEqual(20);

    store.orders.forgetBodies();
    forgetParsedActions();
    expect(store.orders.bodiesKept()).toBe(0);
    expect(parsedActionsKept()).toBe(0);
    // Read again from the file: the same bodies and actions.
    expect(store.orders.list().map((r) => r.body)).toEqual(bodies);
    expect(store.outbox.forOrder('ORD-1000').map((e) => e.action)).toEqual(actions);
  });

  it("are let go just before the quiet spell's collection, and only then", () => {
    const clock = manualClock();
    const t = manualTimers();
    const heap = { committed: 0 };
    const done: string[] = [];
    const trim = createHeapTrim({ timers: t.timers, now: clock.now, log: silentLogger, collect: () => done.push('collect'), letGo: () => done.push('let go'), heapCommitted: () => heap.committed });
    const wait = (ms: number): void => {
      clock.advance(ms);
      t.advance(ms);
    };
    // A pass that changed little after a quiet morning: the heap has not grown, nothing is asked.
    trim.passed();
    wait(TRIM_QUIET_MS);
    expect(done).toEqual([]);
    // After a busy spell the heap has grown: the caches go first, then the collection.
    heap.committed = TRIM_GROWTH_BYTES + 1;
    trim.passed();
    wait(TRIM_QUIET_MS);
    expect(done).toEqual(['let go', 'collect']);
    trim.stop();
  });
});
