/**
 * A counter's real hub session in a store that is in a chain: its health reaches the centre through
 * the store hub's leaf link, at once when a figure changes (not only every 10 s), and stops when
 * the session closes. The session's other rules run as in the hub's own tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFleet } from '../../src/fleet/central';
import { runFleet } from '../../src/fleet/cli';
import { readOpenOrders } from '../../src/fleet/drill';
import type { OpenOrder } from '../../src/main/core/hub/chain/open-orders';
import type { CounterHealth } from '../../src/main/core/hub/chain/north';
import { connectHub } from '../../src/main/core/hub/nats/connection';
import type { CounterPorts, HubSession } from '../../src/main/core/hub/ports';
import { startHubSession } from '../../src/main/core/hub/session';
import { jetstreamManager } from '@nats-io/jetstream';
import { systemTimers, type Timers } from '../../src/main/core/time';
import { Cleanup } from '../support/engine';
import { type Central, startCentral, startStore, type TestStore } from './fleet-world';
import { timeUntil, until } from '../support/until';

async function health(central: Central, counterId: string): Promise<CounterHealth | null> {
  const reading = await readFleet(central.nc).catch(() => null);
  const found = reading?.latest.find((a) => a.message.kind === 'counter' && a.message.counterId === counterId);
  return (found?.message as CounterHealth | undefined) ?? null;
}

/** Node's timers, keeping count of those set and not yet fired or cleared: what could still make the session act. */
function countedTimers(): { timers: Timers; pending: () => number } {
  const live = new Set<unknown>();
  return {
    timers: {
      setTimeout(fn, ms, options) {
        const handle: unknown = systemTimers.setTimeout(() => {
          live.delete(handle);
          fn();
        }, ms, options);
        live.add(handle);
        return handle;
      },
      clearTimeout(handle) {
        live.delete(handle);
        systemTimers.clearTimeout(handle);
      },
    },
    pending: () => live.size,
  };
}

describe('a hub session sends its counter north', () => {
  const cleanup = new Cleanup();
  let central: Central;
  let store: TestStore;
  let session: HubSession;
  const sessionTimers = countedTimers();
  let tapsWaiting = 0;
  let openOrders: OpenOrder[] = [{ orderId: 'ORD-S-1', nextStep: 'ACCEPT', late: false, cancelledAlarm: false, claim: null }];

  beforeAll(async () => {
    central = await startCentral(cleanup);
    store = await startStore(cleanup, central, 'store-s', 0, 10_000);
    await runFleet(['stores', 'add', 'store-s', '--server', central.server.url], { env: {}, write: () => undefined, writeError: () => undefined, now: Date.now });
    const ports: CounterPorts = {
      saveOrders: (bodies) => bodies.map(() => 'new' as const),
      bodies: () => [],
      heldOrderIds: () => [],
      resumeIntake: () => undefined,
      pauseIntake: () => undefined,
      ownTaps: () => [],
      presence: () => ({ tapsWaiting, oldestWaitingAt: tapsWaiting ? 1_700_000_000_000 : null, lastSentAt: 1_700_000_100_000, clockDifferenceMs: 1_200, online: true }),
    };
    session = startHubSession({
      me: { counterId: 'store-s-c1', counterName: 'Counter 1', version: '2.0.1' },
      role: 'hub',
      ports,
      connect: () => connectHub(store.target, { name: 'Counter 1' }),
      now: Date.now,
      timers: sessionTimers.timers,
      north: {
        health: () => ({ lastIntakeAt: 1_700_000_200_000, storageWarnings: [] }),
        summary: () => ({ awaitingAccept: 4, beingPacked: 1, late: 0, cancelledAlarmsOpen: 0 }),
        openOrders: () => openOrders,
      },
    });
    cleanup.add(() => session.close());
  }, 60_000);
  afterAll(() => cleanup.run(), 30_000);

  it('reaches the centre with its figures, and a change within 3 s', async () => {
    await until('the counter at the centre', async () => (await health(central, 'store-s-c1')) !== null, 15_000, 200);
    expect(await health(central, 'store-s-c1')).toMatchObject({ counterName: 'Counter 1', version: '2.0.1', tapsWaiting: 0, clockDifferenceMs: 1_200, lastIntakeAt: 1_700_000_200_000, online: true });
    const reading = await readFleet(central.nc);
    // Two summaries reach the centre: the bare store's own sender (fleet-world) and this session's; both are the hub PC's in real life.
    expect(reading.latest.some((a) => a.message.kind === 'summary' && a.message.awaitingAccept === 4)).toBe(true);
    tapsWaiting = 3;
    const ms = await timeUntil('the change at the centre', async () => (await health(central, 'store-s-c1'))?.tapsWaiting === 3, 3_000, 200);
    expect(ms).toBeLessThan(3_000);
  }, 30_000);

  it('publishes the hub PC open orders for the drill-down, read live by the centre through the store domain, a change within 5 s', async () => {
    const ids = async (): Promise<string[] | null> => {
      const read = await readOpenOrders(central.nc, 'store-s');
      return read.state === 'ok' ? read.list.orders.map((o) => o.orderId) : null;
    };
    await until('the list readable at the centre', async () => (await ids())?.join() === 'ORD-S-1', 15_000, 200);
    openOrders = [...openOrders, { orderId: 'ORD-S-2', nextStep: 'PACKED', late: true, cancelledAlarm: false, claim: { counterId: 'store-s-c1', counterName: 'Counter 1', claimedAt: 1_700_000_300_000 } }];
    const ms = await timeUntil('the change at the centre', async () => (await ids())?.join() === 'ORD-S-1,ORD-S-2', 5_000, 200);
    expect(ms).toBeLessThan(5_000);
  }, 30_000);

  it('stops sending when the session closes', async () => {
    await session.close();
    // Nothing is left that could send: every timer of the session is cleared (its senders and change checks run on them).
    expect(sessionTimers.pending()).toBe(0);
    // What it sent before closing is on the hub; wait until the centre has the last of it.
    const hubJsm = await jetstreamManager(store.chainNc);
    const last = await hubJsm.streams.getMessage('PACKDESK_NORTH', { last_by_subj: 'packdesk.north.store-s.counter.store-s-c1' });
    const lastSeq = (last!.json<CounterHealth>()).seq;
    await until('the centre has the session’s last health', async () => (await health(central, 'store-s-c1'))?.seq === lastSeq, 15_000, 100);
    const before = (await health(central, 'store-s-c1'))!.seq;
    tapsWaiting = 5;
    expect((await hubJsm.streams.getMessage('PACKDESK_NORTH', { last_by_subj: 'packdesk.north.store-s.counter.store-s-c1' }))!.json<CounterHealth>().seq).toBe(lastSeq);
    expect((await health(central, 'store-s-c1'))!.seq).toBe(before);
  }, 15_000);
});
