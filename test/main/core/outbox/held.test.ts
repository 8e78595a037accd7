/**
 * What the engine keeps in memory for taps: a projection of each order taps wait on (so the next
 * tap extends it), let go as soon as none waits. A busy hour once left thousands of them held, each
 * with its order's whole body. Real SQLite file, the sandbox on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { acceptAndLoad, Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('projections kept for taps', () => {
  it('are let go once the taps are answered, taken back or given up', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const ids = newDeliveryOrderIds(box).slice(0, 4);
    const stores = new Map<string, string>();
    for (const id of ids) stores.set(id, fulfilmentId(await acceptAndLoad(engine, id), 'STORE'));
    engine.setOptions({ undoWindowMs: 60_000 });
    for (const id of ids) expect(engine.submitTap(id, { kind: 'fulfilment', fulfilmentId: stores.get(id)!, state: 'PACKING' }).ok).toBe(true);
    // While the taps wait, each order's projection is kept: the next tap extends it.
    expect(engine.held().tapProjections).toBe(4);

    // Taken back: its projection can never be used again.
    const [first, second] = ids as [string, string];
    const firstTap = engine.entriesOf(first).find((e) => e.state === 'queued');
    expect(engine.undo(firstTap!.id)).toEqual({ ok: true, value: true });
    expect(engine.held().tapProjections).toBe(3);
    // Given up (a manager's discard).
    const secondTap = engine.entriesOf(second).find((e) => e.state === 'queued');
    expect(engine.discard(secondTap!.id)).toEqual({ ok: true, value: true });
    expect(engine.held().tapProjections).toBe(2);

    // Answered: nothing more is kept for the orders, though no one looks at them again.
    engine.setOptions({ undoWindowMs: 0 });
    for (const id of ids.slice(2)) expect(engine.retry(engine.entriesOf(id).find((e) => e.state === 'queued')!.id).ok).toBe(true);
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(engine.listOutbox()).toEqual([]);
    expect(engine.held().tapProjections).toBe(0);
  }, 30_000);
});
