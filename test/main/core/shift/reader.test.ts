/**
 * The shift's figures kept while the data file is unchanged (createShiftReader): the same answer
 * again without reading the records, and a fresh one after a write here or a commit by another
 * connection (the CLI, intake beside the engine).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mustMove } from '../../../../src/main/core/outbox/lifecycle';
import { createShiftReader } from '../../../../src/main/core/shift';
import { dayOf } from '../../../../src/shared/days';
import type { Store } from '../../../../src/main/core/db';
import { Cleanup, openedStore, tempDir } from '../../../support/engine';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function accept(store: Store, orderId: string, at: number): void {
  store.transaction(() => {
    const entry = store.outbox.insert({ randomId: crypto.randomUUID(), orderId, action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }, createdAt: at, sendAfter: at, terminalId: 'T-1' });
    mustMove(store.outbox, mustMove(store.outbox, entry, 'claim', at + 10), 'deliver', at + 20, { sentNow: true });
  });
}

describe("the shift's figures while nothing changes", () => {
  it('answers again from what it kept, and afresh after a write here or a commit elsewhere', () => {
    const dir = tempDir(cleanup);
    const now = Date.now() - 60_000;
    const store = openedStore(cleanup, dir, () => now);
    store.transaction(() => {
      store.orders.saveBody(sampleOrder({ id: 'ORD-2000001' }), now);
      store.orders.saveBody(sampleOrder({ id: 'ORD-2000002' }), now);
    });
    const read = createShiftReader(store);
    const options = { day: dayOf(now), terminal: 'T-1' };
    const first = read(options);
    expect(first.total).toMatchObject({ received: 2, accepted: 0 });
    expect(read(options)).toBe(first);

    accept(store, 'ORD-2000001', now + 1_000);
    const second = read(options);
    expect(second).not.toBe(first);
    expect(second.total.accepted).toBe(1);
    expect(read(options)).toBe(second);

    // Another connection to the same file commits: seen at the next read.
    const other = openedStore(cleanup, dir, () => now);
    accept(other, 'ORD-2000002', now + 2_000);
    expect(read(options).total.accepted).toBe(2);
  });
});
