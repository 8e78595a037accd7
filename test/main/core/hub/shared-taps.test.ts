/**
 * Shared taps through a real nats-server, each counter its own client connection and its own
 * outbox (the truth the module puts again): a tap and its state change show on another counter
 * quickly, and a hub SIGKILLed mid-shift and restarted on the same store folder ends with every
 * counter seeing every other's taps as their outboxes say, none doubled.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openSharedTaps, type SharedTaps, type TapEvent } from '../../../../src/main/core/hub/shared-taps';
import type { SharedTap } from '../../../../src/shared/hub';
import type { TestNatsServer } from '../../../support/nats';
import { Cleanup, counterConnection, hub, waitFor } from './helpers';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

interface TestCounter {
  readonly id: string;
  /** The counter's outbox, as SharedTaps by request id. */
  readonly outbox: Map<string, SharedTap>;
  readonly taps: SharedTaps;
  readonly events: TapEvent[];
  /** Queues (or moves) a tap in the outbox and publishes it, as the session does. */
  tap(orderId: string, n: number, state?: SharedTap['state']): Promise<boolean>;
}

async function counter(server: TestNatsServer, n: number): Promise<TestCounter> {
  const id = `c${n}`;
  const outbox = new Map<string, SharedTap>();
  const nc = await counterConnection(cleanup, server);
  const taps = await openSharedTaps(nc, { counter: { counterId: id }, ownTaps: () => [...outbox.values()], now: Date.now, retryMs: 200 });
  cleanup.add(() => taps.close());
  const events: TapEvent[] = [];
  taps.on((e) => events.push(e));
  return {
    id,
    outbox,
    taps,
    events,
    tap(orderId, k, state = 'waiting') {
      const requestId = `${id}-${orderId}-${k}`;
      const tap: SharedTap = {
        requestId,
        orderId,
        counterId: id,
        counterName: `Counter ${n}`,
        action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F1', fulfillmentState: 'PACKED' },
        summary: 'Mark PACKED',
        state,
        queuedAt: outbox.get(requestId)?.queuedAt ?? Date.now(),
        sentAt: state === 'sent' ? Date.now() : null,
      };
      outbox.set(requestId, tap);
      return taps.publish(tap);
    },
  };
}

/** What `viewer` should see of `others`' outboxes on an order (request id and state). */
const expected = (others: readonly TestCounter[], orderId: string): string[] =>
  others
    .flatMap((c) => [...c.outbox.values()])
    .filter((t) => t.orderId === orderId)
    .map((t) => `${t.requestId}:${t.state}`)
    .sort();
const seen = (viewer: TestCounter, orderId: string): string[] => viewer.taps.tapsOf(orderId).map((t) => `${t.requestId}:${t.state}`).sort();

describe('every tap seen everywhere', () => {
  it('a tap on counter 1 shows on counter 2 as waiting within 250 ms, then as sent; counter 1 does not list its own', async () => {
    const server = await hub(cleanup);
    const [one, two] = [await counter(server, 1), await counter(server, 2)];
    const started = performance.now();
    expect(await one.tap('O-1', 1)).toBe(true);
    await waitFor(() => two.taps.tapsOf('O-1')[0]?.state === 'waiting', 250, 'waiting tap on counter 2');
    const waitingMs = performance.now() - started;
    const sending = performance.now();
    await one.tap('O-1', 1, 'sent');
    await waitFor(() => two.taps.tapsOf('O-1')[0]?.state === 'sent', 250, 'sent tap on counter 2');
    const sentMs = performance.now() - sending;
    expect(two.taps.tapsOf('O-1')).toEqual([one.outbox.get('c1-O-1-1')]);
    expect(two.events.map((e) => e.tap.state)).toEqual(['waiting', 'sent']);
    expect(one.taps.tapsOf('O-1')).toEqual([]);
    console.log(`tap seen on counter 2 after ${waitingMs.toFixed(1)} ms, its sending after ${sentMs.toFixed(1)} ms`);
  });

  it("a tap's newer state published while the counter's taps are being put again is not undone by the older word", async () => {
    const server = await hub(cleanup);
    const [one, two] = [await counter(server, 1), await counter(server, 2)];
    for (let k = 0; k < 200; k++) await one.tap('P-1', k);
    await waitFor(() => two.taps.tapsOf('P-1').length === 200, 2_000, 'taps seen');
    // The hub came back: every tap is put again, from what the outbox said then; meanwhile the last one is sent.
    const republished = one.taps.republish();
    await one.tap('P-1', 199, 'sent');
    expect(await republished).toMatchObject({ failed: false });
    // Every put above was answered; counter 2's watch delivers the hub's writes in order, so once it
    // has a tap counter 1 put after them, it has heard all of them.
    await one.tap('P-2', 0);
    await waitFor(() => two.taps.tapsOf('P-2').length === 1, 2_000, "counter 1's later tap on counter 2");
    expect(two.taps.tapsOf('P-1').find((t) => t.requestId === 'c1-P-1-199')?.state).toBe('sent');
  });

  it('the hub SIGKILLed mid-shift with taps from two counters, restarted on its store: every view converges, nothing doubled', async () => {
    const server = await hub(cleanup);
    const [one, two] = [await counter(server, 1), await counter(server, 2)];
    const orders = ['K-1', 'K-2', 'K-3'];
    for (const [i, orderId] of orders.entries()) {
      await one.tap(orderId, 1);
      await two.tap(orderId, 1);
      if (i === 0) await one.tap(orderId, 1, 'sent');
    }
    const converged = (orderId: string): boolean =>
      JSON.stringify(seen(two, orderId)) === JSON.stringify(expected([one], orderId)) &&
      JSON.stringify(seen(one, orderId)) === JSON.stringify(expected([two], orderId));
    await waitFor(() => orders.every(converged), 2_000, 'taps seen before the kill');

    await server.kill();
    // Meanwhile each outbox goes on: new taps, and taps that were sent. The hub takes none of it.
    const meanwhile = await Promise.all([
      one.tap('K-2', 2),
      one.tap('K-1', 1, 'failed'),
      two.tap('K-1', 1, 'sent'),
      two.tap('K-3', 2),
      two.tap('K-4', 1),
    ]);
    expect(meanwhile).toEqual([false, false, false, false, false]);

    await server.restart();
    expect(orders.every(converged)).toBe(false);
    await waitFor(() => [...orders, 'K-4'].every(converged), 15_000, 'every view converged after the restart');
    // A counter joining now sees every tap of both, once.
    const three = await counter(server, 3);
    for (const orderId of [...orders, 'K-4']) {
      await waitFor(() => JSON.stringify(seen(three, orderId)) === JSON.stringify(expected([one, two], orderId)), 2_000, `counter 3's view of ${orderId}`);
    }
    expect(orders.concat('K-4').flatMap((o) => three.taps.tapsOf(o))).toHaveLength(one.outbox.size + two.outbox.size);
  }, 40_000);
});
