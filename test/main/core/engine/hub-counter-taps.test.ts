/**
 * What a counter's engine offers the store hub: its outbox entries as shared taps (waiting, failed,
 * and those sent in the last hours) and its presence figures. Real SQLite file, the sandbox over
 * HTTP on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ENDED_SHOWN_MS, ownTaps, presenceFigures } from '../../../../src/main/core/engine/hub-counter-taps';
import { sharedTapSchema } from '../../../../src/shared/hub';
import { Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const accept = { kind: 'orderState', state: 'ACCEPTED' } as const;
const counter = { counterId: 'c1', counterName: 'Counter 1' };

describe("a counter's taps and figures for the store hub", () => {
  it('lists waiting and failed taps and those sent in the last hours, in the shared shape; presence carries the outbox figures', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const [sentOrder, waitingOrder] = newDeliveryOrderIds(box);
    if (!sentOrder || !waitingOrder) throw new Error('the sandbox seeded too few new orders');
    const phantom = 'INV9999900077';
    engine.addOrder(phantom);
    engine.submitTap(sentOrder, accept);
    engine.submitTap(phantom, accept);
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    // A tap still in its undo window stays queued: waiting, as a tap offline would.
    engine.setOptions({ undoWindowMs: 60_000 });
    const queued = engine.submitTap(waitingOrder, accept);
    if (!queued.ok) throw new Error(queued.problem.message);

    const now = Date.now();
    const taps = ownTaps(engine, counter, now);
    for (const tap of taps) expect(sharedTapSchema().safeParse(tap).success).toBe(true);
    expect(taps.map((t) => [t.orderId, t.state])).toEqual([
      [sentOrder, 'sent'],
      [phantom, 'failed'],
      [waitingOrder, 'waiting'],
    ]);
    expect(taps[2]).toMatchObject({ requestId: queued.value.requestId, counterId: 'c1', counterName: 'Counter 1', summary: queued.value.summary, sentAt: null });
    expect(taps[0]?.sentAt).toEqual(expect.any(Number));

    // Hours later the sent tap has had its time on other counters; the waiting and the failed stay.
    expect(ownTaps(engine, counter, now + ENDED_SHOWN_MS + 60_000).map((t) => t.state)).toEqual(['failed', 'waiting']);

    const figures = presenceFigures(engine);
    expect(figures).toEqual({
      tapsWaiting: 1,
      oldestWaitingAt: queued.value.createdAt,
      lastSentAt: expect.any(Number),
      clockDifferenceMs: expect.any(Number),
      online: true,
      // Nobody signed in: the counter's presence names no packer (issue 40: told when one is signed in twice).
      packer: null,
    });
    expect(figures.lastSentAt).toBeLessThanOrEqual(now);
  }, 30_000);
});
