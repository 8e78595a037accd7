/**
 * A tap reuses what the previous taps read of their orders only while nothing else wrote to the
 * data file: a tap queued by another process, an undo, or an answer settled in between is seen by
 * the next tap. Real SQLite files, the sandbox on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOutbox, DEFAULT_BACKOFF } from '../../../../src/main/core/outbox';
import { acceptAndLoad, Cleanup, newDeliveryOrderIds, openedStore, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** An engine holding two loaded orders, with taps kept waiting (a long undo window). */
async function twoLoaded() {
  const box = await sandbox(cleanup);
  const dir = tempDir(cleanup);
  const { engine } = serviceEngine(cleanup, box, dir);
  engine.start();
  const [a, b] = newDeliveryOrderIds(box) as [string, string];
  const orderA = await acceptAndLoad(engine, a);
  const orderB = await acceptAndLoad(engine, b);
  engine.setOptions({ undoWindowMs: 60_000 });
  return { box, dir, engine, a, b, storeA: fulfilmentId(orderA, 'STORE'), storeB: fulfilmentId(orderB, 'STORE') };
}

describe("a tap's reads of its order", () => {
  it('see a tap another process queued on the same order meanwhile', async () => {
    const { dir, engine, a, b, storeA, storeB } = await twoLoaded();
    expect(engine.submitTap(a, { kind: 'fulfilment', fulfilmentId: storeA, state: 'PACKING' }).ok).toBe(true);
    expect(engine.submitTap(b, { kind: 'fulfilment', fulfilmentId: storeB, state: 'PACKING' }).ok).toBe(true);

    // The support CLI, another process with its own connection, queues "packed" on order A.
    const cli = createOutbox({
      store: openedStore(cleanup, dir),
      terminalId: 'T-cli',
      now: Date.now,
      random: Math.random,
      newRequestId: () => crypto.randomUUID(),
      undoWindowMs: () => 60_000,
      backoff: DEFAULT_BACKOFF,
    });
    expect(cli.enqueue(a, { kind: 'fulfilment', fulfilmentId: storeA, state: 'PACKED' }).ok).toBe(true);

    // The packer's same tap on this terminal is a double tap, not a second "packed".
    const again = engine.submitTap(a, { kind: 'fulfilment', fulfilmentId: storeA, state: 'PACKED' });
    expect(again).toMatchObject({ ok: false, problem: { code: 'ALREADY_QUEUED' } });
    expect(engine.getOrder(a)).toMatchObject({ waiting: 2 });
    // Order B, untouched by the CLI, goes on as before.
    expect(engine.submitTap(b, { kind: 'fulfilment', fulfilmentId: storeB, state: 'PACKED' }).ok).toBe(true);
  }, 30_000);

  it('see a tap taken back meanwhile', async () => {
    const { engine, a, b, storeA, storeB } = await twoLoaded();
    const packing = engine.submitTap(a, { kind: 'fulfilment', fulfilmentId: storeA, state: 'PACKING' });
    if (!packing.ok) throw new Error(packing.problem.message);
    expect(engine.submitTap(b, { kind: 'fulfilment', fulfilmentId: storeB, state: 'PACKING' }).ok).toBe(true);
    expect(engine.undo(packing.value.id)).toEqual({ ok: true, value: true });

    // Taken back, so the same tap again is a new tap; and "packed" now waits for nothing.
    const again = engine.submitTap(a, { kind: 'fulfilment', fulfilmentId: storeA, state: 'PACKING' });
    expect(again.ok).toBe(true);
    expect(engine.getOrder(a)).toMatchObject({ waiting: 1 });
  }, 30_000);

  it("see the service's answer to a tap settled meanwhile", async () => {
    const { engine, a, storeA } = await twoLoaded();
    engine.setOptions({ undoWindowMs: 0 });
    expect(engine.submitTap(a, { kind: 'fulfilment', fulfilmentId: storeA, state: 'PACKING' }).ok).toBe(true);
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    // Answered and stored: the same tap again meets the order as the service has it, not a waiting tap.
    expect(engine.getOrder(a)).toMatchObject({ waiting: 0 });
    expect(engine.submitTap(a, { kind: 'fulfilment', fulfilmentId: storeA, state: 'PACKING' })).toMatchObject({
      ok: false,
      problem: { code: 'ALREADY_IN_STATE' },
    });
  }, 30_000);
});
