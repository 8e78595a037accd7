/**
 * What only a busy spell reads again is let go in the quiet after it (issue 41): intake's parsed
 * bodies and the taps' parsed actions, just before the host's collection (host/heap-trim.ts), so a
 * terminal after a busy hour holds what a settled one does. After a compressed busy hour they held
 * about 0.7 MB that the settled terminal had not, most of the host's JS heap growth over the hour.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../../src/main/core/db';
import { forgetParsedActions, parsedActionsKept } from '../../../../src/main/core/db/rows';
import { createHeapTrim, TRIM_GROWTH_BYTES, TRIM_QUIET_MS } from '../../../../src/main/core/host/heap-trim';
import { silentLogger } from '../../../../src/main/core/log';
import type { Order } from '../../../../src/shared/protocol';
import { manualClock, manualTimers } from '../../../support/clock';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const NOW = Date.UTC(2025, 0, 15, 9, 30);

function open(): Store {
  const r = openStore({ dataDir: tempDir(cleanup), now: () => NOW, memory: { bodies: 64 } });
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

describe("a busy spell's caches", () => {
  it('are emptied when let go, and read the same afterwards', () => {
    const store = open();
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
