/**
 * The intake lease against a real nats-server (Debian's 2.9.10) on 127.0.0.1, with real timers:
 * one holder among three counters; a clean quit hands over at once; a holder that vanishes is
 * replaced within 10 s; a holder that cannot renew stops at once; after the server is SIGKILLed and
 * restarted exactly one counter holds again.
 */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { type KV, Kvm } from '@nats-io/kv';
import { afterEach, describe, expect, it } from 'vitest';
import { type IntakeLease, LEASE_BUCKET, LEASE_KEY, type LeaseState, startIntakeLease } from '../../../../src/main/core/hub/lease';
import { systemTimers } from '../../../../src/main/core/time';
import { startTestNats, type TestNatsServer } from '../../../support/nats';
import { timeUntil, until } from '../../../support/until';

const undo: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
});

async function server(): Promise<TestNatsServer> {
  const s = await startTestNats();
  undo.push(() => s.stop());
  return s;
}

async function connection(s: TestNatsServer): Promise<NatsConnection> {
  const nc = await connect({ servers: s.url, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  undo.push(() => nc.close());
  return nc;
}

/**
 * The lease's buckets, whose next update can be made to lose its answer: the hub writes it, and the
 * counter hears a timeout (what a loaded machine or a slow link does to a renewal).
 */
class AnswerLosingKvm extends Kvm {
  loseNextAnswer = false;
  /**
   * How many times this counter has looked at the lease key (an observer looks once a renewal
   * period). A hand-over counted in looks holds on a loaded machine, where a stopwatch does not.
   */
  looks = 0;
  /** How many renewals (updates of the key) this counter has sent. */
  renewals = 0;
  override async create(name: string, opts?: Parameters<Kvm['create']>[1]): Promise<KV> {
    const kv = await super.create(name, opts);
    const update: KV['update'] = async (...args) => {
      this.renewals++;
      const revision = await kv.update(...args);
      if (!this.loseNextAnswer) return revision;
      this.loseNextAnswer = false;
      throw new Error('TIMEOUT (the answer was lost; the hub wrote it)');
    };
    const get: KV['get'] = (...args) => {
      this.looks++;
      return kv.get(...args);
    };
    const own: Partial<Record<PropertyKey, unknown>> = { update, get };
    return new Proxy(kv, { get: (target, key, receiver) => own[key] ?? Reflect.get(target, key, receiver) });
  }
}

interface Counter {
  readonly id: string;
  readonly nc: NatsConnection;
  readonly kvm: AnswerLosingKvm;
  readonly lease: IntakeLease;
  readonly heard: LeaseState[];
}

async function counter(s: TestNatsServer, id: string, clockOffMs = 0): Promise<Counter> {
  const nc = await connection(s);
  const kvm = new AnswerLosingKvm(nc);
  const now = (): number => Date.now() + clockOffMs;
  const lease = startIntakeLease(kvm, { counterId: id, counterName: `Counter ${id}`, version: 'test' }, { now, timers: systemTimers });
  undo.push(() => lease.close());
  const heard: LeaseState[] = [];
  lease.on((state) => heard.push(state));
  return { id, nc, kvm, lease, heard };
}


const holders = (counters: readonly Counter[]): Counter[] => counters.filter((c) => c.lease.holding());

/**
 * Waits (10 s at most, a guard against a hang) until one of `counters` holds, and returns how many
 * looks at the key that holder took from now: 1 or 2 is the look after the key was freed (one may
 * have been in flight); a lapsed lease would take at least five (5 s lease, a look a second).
 */
async function looksUntilOneHolds(counters: readonly Counter[]): Promise<number> {
  const before = new Map(counters.map((c) => [c, c.kvm.looks]));
  await until('another holder', () => holders(counters).length === 1, 10_000);
  const [next] = holders(counters);
  return next!.kvm.looks - before.get(next!)!;
}

/** Samples for `ms` that never more than one counter holds; returns how many samples had exactly one. */
async function neverTwo(counters: readonly Counter[], ms: number): Promise<number> {
  let one = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const n = holders(counters).length;
    expect(n).toBeLessThanOrEqual(1);
    if (n === 1) one++;
    await new Promise((r) => setTimeout(r, 25));
  }
  return one;
}

describe('intake lease', () => {
  it('gives the lease to exactly one of three counters, and all three know which', async () => {
    const s = await server();
    const counters = await Promise.all(['c1', 'c2', 'c3'].map((id) => counter(s, id)));
    await until('one holder', () => holders(counters).length === 1, 12_000);
    await neverTwo(counters, 3_000);
    const [holder] = holders(counters);
    expect(holder).toBeDefined();
    await until('everyone knows the holder', () => counters.every((c) => c.lease.holder()?.counterId === holder!.id), 12_000);
    expect(holders(counters)).toEqual([holder]);
  }, 30_000);

  it('does not care how far apart the counters\' clocks are: one holder, and a lapsed lease taken after 5 s', async () => {
    const s = await server();
    // A day ahead, right, and three hours behind (a flat CMOS battery, a wrong time zone).
    const counters = await Promise.all([counter(s, 'c1', 86_400_000), counter(s, 'c2'), counter(s, 'c3', -10_800_000)]);
    await until('one holder', () => holders(counters).length === 1, 12_000);
    await neverTwo(counters, 2_500);
    const first = holders(counters)[0]!;
    await first.nc.close();
    const others = counters.filter((c) => c !== first);
    const took = await timeUntil('another holder', () => holders(others).length === 1, 12_000);
    // Not before the lease lapsed, whatever the clocks say; and within the 10 s a vanished holder is
    // replaced in (5 s lease, a look every second, the rest for timers late on a loaded machine).
    expect(took).toBeGreaterThan(3_000);
    expect(took).toBeLessThan(10_000);
    await neverTwo(others, 2_000);
  }, 30_000);

  it('a counter that quits while its first take is in flight leaves nothing behind to lapse', async () => {
    const s = await server();
    const quick = await counter(s, 'c1');
    // Told "nobody holds it" just before it sends its create: quitting then leaves that create in flight.
    let closing: Promise<void> | null = null;
    quick.lease.on(() => (closing ??= quick.lease.close()));
    await until('quit', () => closing !== null, 3_000);
    await closing;
    expect(quick.heard.some((h) => h.holding)).toBe(false);
    const next = await counter(s, 'c2');
    expect(await looksUntilOneHolds([next])).toBeLessThanOrEqual(2); // nothing left behind to lapse
  }, 30_000);

  it('hands over at once when the holder quits cleanly', async () => {
    const s = await server();
    const counters = await Promise.all(['c1', 'c2', 'c3'].map((id) => counter(s, id)));
    await until('one holder', () => holders(counters).length === 1, 12_000);
    const first = holders(counters)[0]!;
    await first.lease.close();
    const others = counters.filter((c) => c !== first);
    expect(await looksUntilOneHolds(others)).toBeLessThanOrEqual(2); // the next look after the delete, not a lapsed lease (5 s)
    await neverTwo(others, 2_000);
  }, 30_000);

  it('hands over at once when the holder quits just after a renewal whose answer it never heard', async () => {
    const s = await server();
    const counters = await Promise.all(['c1', 'c2', 'c3'].map((id) => counter(s, id)));
    await until('one holder', () => holders(counters).length === 1, 12_000);
    const first = holders(counters)[0]!;
    first.kvm.loseNextAnswer = true; // the hub writes the next renewal; the holder hears a timeout
    await until('the holder lets go', () => !first.lease.holding(), 3_000);
    await first.lease.close();
    const others = counters.filter((c) => c !== first);
    expect(await looksUntilOneHolds(others)).toBeLessThanOrEqual(2); // the key it may have written was deleted: no 5 s lapse to wait out
    await neverTwo(others, 2_000);
  }, 30_000);

  it('replaces a holder whose connection died within 10 s, and that holder stops holding', async () => {
    const s = await server();
    const counters = await Promise.all(['c1', 'c2', 'c3'].map((id) => counter(s, id)));
    await until('one holder', () => holders(counters).length === 1, 12_000);
    const first = holders(counters)[0]!;
    await first.nc.close(); // the counter is gone; its key stays in the hub until it lapses
    await until('the old holder stops', () => !first.lease.holding(), 3_000);
    expect(first.heard.at(-1)).toEqual({ holding: false, holder: null });
    const others = counters.filter((c) => c !== first);
    const took = await timeUntil('another holder', () => holders(others).length === 1, 10_000);
    expect(took).toBeGreaterThan(3_000); // it waited out the lease: the key was never deleted
    await neverTwo(others, 2_000);
  }, 30_000);

  it('stops holding at once when a renewal meets a revision it did not write', async () => {
    const s = await server();
    const [only] = await Promise.all([counter(s, 'c1')]);
    await until('holding', () => only!.lease.holding(), 12_000);
    const rogue = await connection(s);
    const kv = await new Kvm(rogue).open(LEASE_BUCKET);
    const renewalsBefore = only!.kvm.renewals;
    await kv.put(LEASE_KEY, JSON.stringify({ counterId: 'c9', counterName: 'Counter 9', at: Date.now() }));
    await until('stopped holding', () => !only!.lease.holding(), 10_000);
    // The next renewal (one may have been in flight when the rogue wrote), not a later one.
    expect(only!.kvm.renewals - renewalsBefore).toBeLessThanOrEqual(2);
    const said = only!.heard.map((h) => h.holding);
    expect(said.slice(said.indexOf(true))).toEqual([true, false]); // told it lost the lease, once
    await until('knows the new holder', () => only!.lease.holder()?.counterId === 'c9', 3_000);
  }, 30_000);

  it('stops holding within 3 s when the hub hangs (renewals time out), and one holds again when it wakes', async () => {
    const s = await server();
    const counters = await Promise.all(['c1', 'c2', 'c3'].map((id) => counter(s, id)));
    await until('one holder', () => holders(counters).length === 1, 12_000);
    const pid = s.pid()!;
    process.kill(pid, 'SIGSTOP');
    try {
      const stopped = await timeUntil('nobody holds', () => holders(counters).length === 0, 6_000);
      expect(stopped).toBeLessThan(3_500);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await until('one holder again', () => holders(counters).length === 1, 15_000);
    await neverTwo(counters, 2_000);
  }, 40_000);

  it('stops holding within the lease when the hub goes away, and exactly one holds after it restarts', async () => {
    const s = await server();
    const counters = await Promise.all(['c1', 'c2', 'c3'].map((id) => counter(s, id)));
    await until('one holder', () => holders(counters).length === 1, 12_000);
    await s.kill();
    const stopped = await timeUntil('nobody holds', () => holders(counters).length === 0, 6_000);
    expect(stopped).toBeLessThan(4_500); // before any other counter could believe the lease lapsed
    await s.restart();
    await until('one holder again', () => holders(counters).length === 1, 15_000);
    await neverTwo(counters, 3_000);
  }, 40_000);
});
