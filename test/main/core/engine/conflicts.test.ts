/**
 * Orders packed twice while counters could not see each other (issue 39), as one counter's data
 * file keeps them (engine/conflicts.ts): a real SQLite file and engine over the sandbox, closed and
 * opened again as a restart would. Raised, kept across a restart, settled in another counter's
 * favour (what to put back), put back; in the timeline and `doctor` throughout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { packedTwiceCheck } from '../../../../src/cli/doctor';
import type { ConflictRecord } from '../../../../src/shared/hub';
import { acceptAndLoad, Cleanup, newOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const ME = { counterId: 'T-test', counterName: 'Counter 2' };

describe("a counter's record of an order packed twice", () => {
  it('is kept across restarts until settled and, where the order is not kept, until its items are put back', async () => {
    const box = await sandbox(cleanup, { orderCount: 6 });
    const dir = tempDir(cleanup);
    const orderId = newOrderIds(box)[0]!;
    const first = serviceEngine(cleanup, box, dir);
    first.engine.start();
    const accepted = await acceptAndLoad(first.engine, orderId);
    const store = accepted.order!.fulfillments.find((f) => f.type === 'STORE')!.fulfillmentId;
    // A tap made while the hub could not be asked is remembered as such until it is looked at.
    const tapped = first.engine.submitTap(orderId, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' }, { unchecked: true });
    if (!tapped.ok) throw new Error(tapped.problem.message);
    expect(tapped.value.hub).toEqual({ unchecked: true, seen: [] });
    expect(first.engine.conflicts.uncheckedWork().map((w) => w.orderId)).toEqual([orderId]);
    const record: ConflictRecord = {
      orderId,
      parties: [
        { counterId: 'other', counterName: 'Counter 1', packers: ['Ravi'] },
        { counterId: ME.counterId, counterName: ME.counterName, packers: ['Priya'] },
      ],
      taps: ['x'],
      raisedAt: Date.now(),
      settled: null,
    };
    expect(first.engine.conflicts.keep(record, 'found')).toBe(true);
    expect(first.engine.conflicts.unshared().map((r) => r.orderId)).toEqual([orderId]);
    await first.close();

    const second = serviceEngine(cleanup, box, dir);
    expect(second.engine.conflicts.uncheckedWork().map((w) => w.orderId)).toEqual([orderId]);
    second.engine.conflicts.reconciled([orderId]);
    expect(second.engine.conflicts.uncheckedWork()).toEqual([]);
    const open = second.engine.conflicts.views(ME.counterId).get(orderId);
    expect(open?.settled).toBeNull();
    expect(open?.parties.map((p) => [p.counterName, p.here])).toEqual([['Counter 1', false], ['Counter 2', true]]);
    expect(packedTwiceCheck(second.engine, ME.counterId)?.detail).toContain('Counter 1 and Counter 2');
    // Settled: Counter 1 keeps it; nothing was scanned or cut here, so every line goes back.
    const settled = second.engine.conflicts.settle(orderId, 'other', { counterName: ME.counterName, packer: 'Priya' });
    expect(settled.ok && settled.value.settled?.keeperName).toBe('Counter 1');
    const told = second.engine.conflicts.views(ME.counterId).get(orderId);
    const order = second.engine.getOrder(orderId)!.order!;
    expect(told?.putBack).toEqual(order.items.map((i) => ({ itemId: i.itemId, units: i.quantity.count, why: 'picked' })));
    expect(packedTwiceCheck(second.engine, ME.counterId)?.detail).toContain('Counter 1 keeps it, items to put back here');
    await second.close();

    const third = serviceEngine(cleanup, box, dir);
    expect(third.engine.conflicts.views(ME.counterId).get(orderId)?.settled?.keeperName).toBe('Counter 1');
    expect(third.engine.conflicts.putBack(orderId).ok).toBe(true);
    expect(third.engine.conflicts.views(ME.counterId).size).toBe(0);
    expect(packedTwiceCheck(third.engine, ME.counterId)).toBeNull();
    const kinds = third.engine.timeline(orderId)!.events.map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['conflict', 'settled', 'putBack']));
  });
});
