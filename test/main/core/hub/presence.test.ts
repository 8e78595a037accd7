/**
 * Presence through a real nats-server, each counter its own client connection: three counters are
 * listed with their figures; one that stops writing shows as not there within the window, on every
 * other counter, whatever their clocks say; a counter joining later does not take a silent one for
 * present. A look from a shell (`packdesk hub status`) lists every counter while one writes without pause.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openBucket } from '../../../../src/main/core/hub/nats/buckets';
import { openPresence, type Presence } from '../../../../src/main/core/hub/presence';
import { readHubStatus } from '../../../../src/main/core/hub/read-status';
import { HUB_BUCKETS } from '../../../../src/main/core/hub/registry';
import type { TestNatsServer } from '../../../support/nats';
import { Cleanup, counterConnection, hub, waitFor } from './helpers';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const EVERY = 200;
const WINDOW = 1_000;

async function counter(server: TestNatsServer, n: number, skewMs = 0): Promise<Presence> {
  const nc = await counterConnection(cleanup, server);
  const presence = await openPresence(nc, {
    identity: { counterId: `c${n}`, counterName: `Counter ${n}`, version: '0.1.0' },
    figures: () => ({ tapsWaiting: n, oldestWaitingAt: null, lastSentAt: 1_700_000_000_000, clockDifferenceMs: skewMs, online: true }),
    now: () => Date.now() + skewMs,
    everyMs: EVERY,
    windowMs: WINDOW,
  });
  cleanup.add(() => presence.close());
  return presence;
}

/** Counter n's presence as a counter writes it, stamped now. */
const presenceOf = (n: number): string =>
  JSON.stringify({ counterId: `counter-${n}`, counterName: `Counter ${n}`, version: '0.1.0', at: Date.now(), tapsWaiting: 0, oldestWaitingAt: null, lastSentAt: null, clockDifferenceMs: 0, online: true });

const present = (p: Presence): string[] => p.list().flatMap((c) => (c.present ? [c.counterId] : []));

describe('presence through the hub', () => {
  it('three counters are listed; one that stops is shown not there within the window, on clocks that differ', async () => {
    const server = await hub(cleanup);
    // Counter 2's clock is 10 minutes ahead, counter 3's 7 behind: presence is judged on the reader's clock.
    const [one, two, three] = [await counter(server, 1), await counter(server, 2, 600_000), await counter(server, 3, -420_000)];
    await waitFor(() => [one, two, three].every((p) => present(p).length === 3), 2_000, 'three counters present everywhere');
    expect(two.list('c1')).toEqual([
      expect.objectContaining({ counterId: 'c2', isThisCounter: true, holdsIntake: false, tapsWaiting: 2, version: '0.1.0', present: true }),
      expect.objectContaining({ counterId: 'c1', counterName: 'Counter 1', isThisCounter: false, holdsIntake: true, tapsWaiting: 1 }),
      expect.objectContaining({ counterId: 'c3', counterName: 'Counter 3', clockDifferenceMs: -420_000, present: true }),
    ]);
    let told = 0;
    one.on(() => (told += 1));

    three.close();
    const stopped = performance.now();
    await waitFor(() => !present(one).includes('c3') && !present(two).includes('c3'), WINDOW + 1_500, 'counter 3 not there');
    const goneMs = performance.now() - stopped;
    expect(goneMs).toBeGreaterThan(WINDOW - EVERY - 100);
    expect(present(one).sort()).toEqual(['c1', 'c2']);
    expect(one.list().find((c) => c.counterId === 'c3')).toMatchObject({ present: false, counterName: 'Counter 3' });
    expect(told).toBeGreaterThan(0);

    // A counter joining now hears counter 3's last word, written over a window ago: not there.
    const four = await counter(server, 4);
    await waitFor(() => four.list().length === 4, 1_000, 'counter 4 hears of every counter');
    expect(present(four).sort()).toEqual(['c1', 'c2', 'c4']);

    // Leaving takes a counter off every list.
    await two.leave();
    await waitFor(() => !one.list().some((c) => c.counterId === 'c2'), 1_000, 'counter 2 off the list');
  });
});

describe('presence when its figures cannot be read', () => {
  it('a write whose figures fail (the engine closed just before the hub link) is skipped, not an unhandled failure', async () => {
    const server = await hub(cleanup);
    const nc = await counterConnection(cleanup, server);
    let engineOpen = true;
    const presence = await openPresence(nc, {
      identity: { counterId: 'c9', counterName: 'Counter 9', version: '0.1.0' },
      figures: () => {
        if (!engineOpen) throw new TypeError('The database connection is not open');
        return { tapsWaiting: 0, oldestWaitingAt: null, lastSentAt: null, clockDifferenceMs: 0, online: true };
      },
      now: Date.now,
      everyMs: 60_000,
      windowMs: WINDOW,
    });
    cleanup.add(() => presence.close());
    engineOpen = false;
    // The timer's write is this same write: it says the hub did not take it, and the next one tries again.
    await expect(presence.changed()).resolves.toBe(false);
    engineOpen = true;
    await expect(presence.changed()).resolves.toBe(true);
  });
});

describe('a look from a shell (packdesk hub status)', () => {
  it('lists every counter on a real hub while one of them writes its presence without pause, and not one deleted', async () => {
    const nc = await counterConnection(cleanup, await hub(cleanup));
    let writing = true;
    try {
      const kv = await openBucket(nc, HUB_BUCKETS.presence);
      for (const n of [1, 2, 3, 4]) await kv.put(`counter-${n}`, presenceOf(n));
      await kv.delete('counter-4');
      let writes = 0;
      const writer = (async () => {
        while (writing) {
          await kv.put('counter-1', presenceOf(1));
          writes += 1;
        }
      })();
      const lists: string[][] = [];
      for (let i = 0; i < 40; i += 1) {
        const seen = await readHubStatus(nc, { counterId: 'counter-2' });
        lists.push(seen.counters.map((c) => c.counterName));
      }
      writing = false;
      await writer;
      expect(writes).toBeGreaterThan(40);
      expect(lists).toEqual(Array(40).fill(['Counter 2', 'Counter 1', 'Counter 3']));
    } finally {
      writing = false;
    }
  });
});
