/**
 * The hub session: three counters on a real hub (nats-server with TLS and the store's secret,
 * supervised on 127.0.0.1). One intake for the store; claims and taps seen across counters; the hub
 * stopped: every counter takes in orders on its own, says so, and keeps its taps; the hub back:
 * counters rejoin by themselves, publish what they did meanwhile, and one intake resumes.
 * Each counter's ports are kept in memory here: the engine's side of them has tests of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CounterPresence, HubMode, SharedTap } from '../../../../src/shared/hub';
import type { Order } from '../../../../src/shared/protocol/schemas';
import { connectHub } from '../../../../src/main/core/hub/nats/connection';
import type { CounterPorts, HubEvent, HubSession } from '../../../../src/main/core/hub/ports';
import { startHubSession } from '../../../../src/main/core/hub/session';
import { readHubStatus } from '../../../../src/main/core/hub/read-status';
import { systemTimers } from '../../../../src/main/core/time';
import { sampleOrder } from '../../../support/orders';
import { waitFor } from './helpers';
import { hubTarget, leaseWrites, makeTestHub, type TestHub } from './hub-fixture';

interface Counter {
  readonly name: string;
  readonly session: HubSession;
  readonly orders: Map<string, Order>;
  readonly taps: SharedTap[];
  readonly events: HubEvent[];
  polling(): boolean;
  /** How many times this counter's intake started or stopped polling. */
  turns(): number;
  /** This counter's own intake stored an order (while it polls). */
  intakeStored(order: Order): void;
}

let hub: TestHub;
const counters: Counter[] = [];

function startCounter(n: number): Counter {
  const orders = new Map<string, Order>();
  const taps: SharedTap[] = [];
  const events: HubEvent[] = [];
  let polling = true;
  let turns = 0;
  const poll = (on: boolean): void => {
    if (polling !== on) turns += 1;
    polling = on;
  };
  const ports: CounterPorts = {
    saveOrders: (bodies) =>
      bodies.map((o) => {
        const held = orders.get(o.id);
        orders.set(o.id, o);
        return held === undefined ? 'new' : JSON.stringify(held) === JSON.stringify(o) ? 'unchanged' : 'updated';
      }),
    bodies: (ids) => ids.map((id) => orders.get(id)).filter((o): o is Order => o !== undefined),
    heldOrderIds: () => [...orders.keys()],
    resumeIntake: () => poll(true),
    pauseIntake: () => poll(false),
    ownTaps: () => taps,
    presence: (): Omit<CounterPresence, 'counterId' | 'counterName' | 'version' | 'at'> => ({
      tapsWaiting: taps.filter((t) => t.state === 'waiting').length,
      oldestWaitingAt: null,
      lastSentAt: null,
      clockDifferenceMs: 0,
      online: true,
    }),
  };
  const name = `Counter ${n}`;
  const session = startHubSession({
    me: { counterId: `counter-${n}`, counterName: name, version: '0.1.0' },
    role: n === 1 ? 'hub' : 'counter',
    ports,
    connect: () => connectHub(hubTarget(hub), { name, pingIntervalMs: 1000 }),
    now: Date.now,
    timers: systemTimers,
    awayAfterMs: 1_500,
    lease: { leaseMs: 2_000, renewMs: 400 },
    presence: { everyMs: 500, windowMs: 3_000 },
  });
  session.on((e) => events.push(e));
  const counter: Counter = {
    name,
    session,
    orders,
    taps,
    events,
    polling: () => polling,
    turns: () => turns,
    intakeStored(order) {
      orders.set(order.id, order);
      session.publishOrders([order.id]);
    },
  };
  counters.push(counter);
  return counter;
}

const modes = (): HubMode[] => counters.map((c) => c.session.status().mode);
const pollers = (): string[] => counters.filter((c) => c.polling()).map((c) => c.name);

function tapOn(c: Counter, orderId: string, requestId: string): SharedTap {
  return {
    requestId,
    orderId,
    counterId: c.session.status().counterId ?? '',
    counterName: c.name,
    action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
    summary: 'Accept order',
    state: 'waiting',
    queuedAt: Date.now(),
    sentAt: null,
  };
}

beforeAll(async () => {
  hub = await makeTestHub({ supervisor: { backoff: { initialMs: 500, maxMs: 500 } } });
  for (const n of [1, 2, 3]) startCounter(n);
  await waitFor(() => modes().every((m) => m === 'connected'), 10_000, 'three counters connected');
});

afterAll(async () => {
  for (const c of counters) await c.session.close();
  await hub?.dispose();
});

describe('three counters and one store hub', () => {
  it('poll with exactly one intake, and every counter lists all three and who takes in orders', async () => {
    await waitFor(() => pollers().length === 1, 8_000, 'exactly one counter polls');
    // Held steady over several renewals, not a moment's agreement: five writes of the lease all name
    // the one counter polling, it is the only one polling as each arrives, and no counter's intake
    // started or stopped meanwhile, not even for an instant.
    const [poller] = counters.filter((c) => c.polling());
    const turned = counters.map((c) => c.turns());
    const named = await leaseWrites(hub, 5, () => {
      expect(pollers()).toHaveLength(1);
    });
    expect(named).toEqual(Array(5).fill(poller!.session.status().counterId));
    expect(counters.map((c) => c.turns())).toEqual(turned);
    await waitFor(() => counters.every((c) => c.session.status().counters.filter((v) => v.present).length === 3), 5_000, 'all three listed');
    const holder = counters.find((c) => c.polling())!;
    for (const c of counters) expect(c.session.status().intakeHolder?.counterName).toBe(holder.name);
  });

  it('are seen the same way by a look from a shell (packdesk hub status), which takes no part', async () => {
    const look = await connectHub(hubTarget(hub), { name: 'status' });
    if (!look.ok) throw new Error(look.problem.message);
    try {
      const seen = await readHubStatus(look.connection.nc, { counterId: 'counter-2' });
      const holder = counters.find((c) => c.polling())!;
      expect(seen.intakeHolder?.counterName).toBe(holder.name);
      expect(seen.counters.map((c) => [c.counterName, c.present, c.isThisCounter])).toEqual([
        ['Counter 2', true, true],
        ['Counter 1', true, false],
        ['Counter 3', true, false],
      ]);
      // Looking took nothing: still one poller, and no fourth counter.
      expect(pollers()).toHaveLength(1);
    } finally {
      await look.connection.close();
    }
  });

  it("bring an order one counter's intake stored to every counter, new once", async () => {
    const order = sampleOrder({ id: 'ORD-SESSION-1', orderState: 'Created' });
    counters[0]!.intakeStored(order);
    await waitFor(() => counters.every((c) => c.orders.has(order.id)), 5_000, 'the order on every counter');
    const news = counters.slice(1).map((c) => c.events.filter((e) => e.kind === 'stored' && e.newIds.includes(order.id)).length);
    expect(news).toEqual([1, 1]);
  });

  it('let one counter claim an order, tell the other who has it, and show its tap there', async () => {
    const [one, two] = counters as [Counter, Counter];
    expect((await one.session.claim('ORD-SESSION-1')).kind).toBe('held');
    const lost = await two.session.claim('ORD-SESSION-1');
    expect(lost.kind === 'taken' && lost.by.counterName).toBe('Counter 1');
    const tap = tapOn(one, 'ORD-SESSION-1', 'req-1');
    one.taps.push(tap);
    one.session.publishTap(tap);
    await waitFor(() => two.session.tapsOf('ORD-SESSION-1').some((t) => t.requestId === 'req-1'), 2_000, 'the tap on counter 2');
    await waitFor(() => two.session.claimOf('ORD-SESSION-1')?.counterName === 'Counter 1', 2_000, 'the claim on counter 2');
  });

  it('with the hub stopped: every counter says so, takes in orders itself and keeps its taps; back: one intake again, and what was done meanwhile reaches the others', async () => {
    const [one, two, three] = counters as [Counter, Counter, Counter];
    await hub.supervisor.stop();
    const awayIn = await waitFor(() => modes().every((m) => m === 'away'), 15_000, 'every counter away');
    expect(awayIn).toBeLessThan(15_000);
    expect(pollers()).toHaveLength(3);
    for (const c of counters) expect(c.session.status().problem).toMatch(/hub/i);
    // Claims cannot be checked: the packer may go on, told so.
    expect((await two.session.claim('ORD-SESSION-2')).kind).toBe('unchecked');
    // Work meanwhile: counter 2 taps, counter 3's own intake stores an order.
    const tap = tapOn(two, 'ORD-SESSION-1', 'req-away');
    two.taps.push(tap);
    two.session.publishTap(tap);
    const meanwhile = sampleOrder({ id: 'ORD-SESSION-AWAY', orderState: 'Created' });
    three.intakeStored(meanwhile);

    const health = await hub.supervisor.start();
    expect(health.running).toBe(true);
    await waitFor(() => modes().every((m) => m === 'connected'), 15_000, 'every counter back');
    await waitFor(() => pollers().length === 1, 10_000, 'one intake again');
    await waitFor(() => one.session.tapsOf('ORD-SESSION-1').some((t) => t.requestId === 'req-away'), 5_000, "counter 2's tap on counter 1");
    await waitFor(() => one.orders.has(meanwhile.id) && two.orders.has(meanwhile.id), 5_000, "counter 3's order on the others");
    // Not doubled: one tap of each request id on each counter.
    expect(three.session.tapsOf('ORD-SESSION-1').filter((t) => t.requestId === 'req-away')).toHaveLength(1);
  });

  it('tell a counter that opens later of the taps already in the hub as taps heard, as the others were told (what keeps them in its History and finds taps made apart)', async () => {
    const four = startCounter(4);
    await waitFor(() => four.session.status().mode === 'connected', 10_000, 'counter 4 connected');
    await waitFor(() => four.session.tapsOf('ORD-SESSION-1').length === 2, 5_000, 'the earlier taps listed on counter 4');
    // Told, not only listed: the store soak's counters restarted after another's tap was put never looked at it.
    await waitFor(() => four.events.filter((e) => e.kind === 'tap' && e.tap.orderId === 'ORD-SESSION-1').length === 2, 2_000, 'the earlier taps told on counter 4');
    const told = four.events.flatMap((e) => (e.kind === 'tap' ? [e.tap.requestId] : []));
    expect(told.sort()).toEqual(['req-1', 'req-away']);
  });
});
