/**
 * One intake per store (issue 23): a hub (a real nats-server) and three real engines (their own
 * SQLite files, the real token manager and client) against one sandbox over HTTP. New orders reach
 * every counter from one poller; the sandbox hears `changes` as often as from one counter alone;
 * the lease holder vanishing hands polling to another counter within 10 s with no order missed;
 * two pollers overlapping never double an order or its alert.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../../sandbox';
import type { ReadLogEntry } from '../../../../sandbox/types';
import { bundle } from '../../../support/bundle';
import { Cleanup, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { REPO_ROOT } from '../../../support/paths';
import { type HubCounter, joinHub, putMarkerBody } from '../../../support/hub-store';
import { startTestNats, type TestNatsServer } from '../../../support/nats';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const INTERVAL_MS = 400;

async function hub(): Promise<TestNatsServer> {
  const s = await startTestNats();
  cleanup.add(() => s.stop());
  return s;
}

async function store(): Promise<Sandbox> {
  return sandbox(cleanup, { orderCount: 4, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
}

function engineFor(box: Sandbox, name: string): ReturnType<typeof serviceEngine> {
  return serviceEngine(cleanup, box, tempDir(cleanup, `packdesk-${name}-`), {
    terminalId: name,
    serviceProviderId: () => box.serviceProviderId,
    intakeIntervalMs: () => INTERVAL_MS,
    intakeMinIntervalMs: 50,
  });
}

async function counters(box: Sandbox, nats: TestNatsServer, n: number, first = 1): Promise<HubCounter[]> {
  const out: HubCounter[] = [];
  for (let i = first; i < first + n; i++) {
    const c = await joinHub(nats.url, `c${i}`, engineFor(box, `c${i}`));
    cleanup.add(() => c.vanish());
    out.push(c);
  }
  return out;
}

/** The sandbox's read log, over HTTP as support would read it. */
async function reads(box: Sandbox): Promise<ReadLogEntry[]> {
  const res = await fetch(`${box.url}/__sandbox/reads`);
  return (await res.json()) as ReadLogEntry[];
}
const changesCalls = async (box: Sandbox): Promise<number> => (await reads(box)).filter((r) => r.call === 'changes').length;
/** How many times the sandbox was asked for an order's body. */
const bodyReads = async (box: Sandbox, orderId: string): Promise<number> => (await reads(box)).filter((r) => r.call === 'status' && r.orderId === orderId).length;

const holds = (cs: readonly HubCounter[]): HubCounter[] => cs.filter((c) => c.lease.holding());
const hasAll = (c: HubCounter, ids: readonly string[]): boolean => ids.every((id) => c.service.engine.getOrder(id)?.order != null);

/**
 * Waits until what the counters make of the orders read so far is over, so what they stored and
 * rang is final: a pass of each poller has completed since (the one that read them, or a later
 * one), no put of what their intakes stored is left unanswered, and every counter holds a marker
 * body put into the hub after all of it (putMarkerBody).
 */
async function untilSettled(nats: TestNatsServer, cs: readonly HubCounter[], pollers: readonly HubCounter[]): Promise<void> {
  const from = Date.now();
  await until('a pass of each poller completed', () => pollers.every((c) => (c.service.intake.status().lastCompleteAt ?? 0) > from), 10_000);
  await until('every put into the hub answered', () => cs.every((c) => c.publishing() === 0), 10_000);
  const nc = await connect({ servers: nats.url });
  cleanup.add(() => nc.close());
  const marker = await putMarkerBody(nc);
  await until('the marker body on every counter', () => cs.every((c) => hasAll(c, [marker])), 10_000);
}

describe('one intake per store', () => {
  it('new orders reach all three counters from one poller, with the changes calls of one counter alone', async () => {
    const [box, solo, nats] = await Promise.all([store(), store(), hub()]);
    const cs = await counters(box, nats, 3);
    // The same engine on its own, against a sandbox of its own, over the same time: the yardstick.
    const alone = engineFor(solo, 'solo');
    alone.intake.start();
    await until('a lease holder', () => holds(cs).length === 1, 10_000);
    const seeded = box.orders().map((o) => o.id);
    await until('the seeded orders everywhere', () => cs.every((c) => hasAll(c, seeded)), 10_000);

    const before = [await changesCalls(box), await changesCalls(solo)] as const;
    const placed: string[] = [];
    for (let i = 0; i < 6; i++) {
      // One at a time: each taken in by a pass of the poller and on every counter before the next.
      placed.push(box.placeOrder().id);
      await until(`new order ${i + 1} everywhere`, () => cs.every((c) => hasAll(c, placed)), 10_000);
    }
    // And a while longer with nothing new, measured in the lone engine's passes rather than by a clock.
    const soloSoFar = await changesCalls(solo);
    await until('four more passes of the lone engine', async () => (await changesCalls(solo)) >= soloSoFar + 4, 10_000);
    const hubCalls = (await changesCalls(box)) - before[0];
    const soloCalls = (await changesCalls(solo)) - before[1];

    const [poller] = holds(cs);
    for (const c of cs) {
      if (c === poller) expect(c.ownStored).toEqual(expect.arrayContaining(placed));
      else {
        expect(c.ownStored).toEqual([]); // its intake never polled
        expect([...c.hubNew].filter((id) => placed.includes(id)).sort()).toEqual([...placed].sort()); // each rang once
      }
    }
    expect(soloCalls).toBeGreaterThan(5);
    // One counter's calls, give or take a poll at either end of the run (three pollers would make three times as many).
    expect(hubCalls).toBeLessThanOrEqual(soloCalls + 2);
    expect(hubCalls).toBeGreaterThanOrEqual(soloCalls / 2);
  }, 60_000);

  it('the lease holder vanishing: another counter polls within 10 s and no order is missed', async () => {
    const [box, nats] = await Promise.all([store(), hub()]);
    const cs = await counters(box, nats, 3);
    await until('a lease holder', () => holds(cs).length === 1, 10_000);
    const [first] = holds(cs);
    const others = cs.filter((c) => c !== first);
    const placed = [box.placeOrder().id];
    await until('the first order everywhere', () => others.every((c) => hasAll(c, placed)), 10_000);

    const callsAtKill = await changesCalls(box);
    const killedAt = Date.now();
    await first!.vanish();
    placed.push(box.placeOrder().id, box.placeOrder().id); // while nobody polls
    await until('another counter polls', async () => (await changesCalls(box)) > callsAtKill, 10_000);
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(10_000);
    expect(holds(others)).toHaveLength(1);
    placed.push(box.placeOrder().id);
    await until('every order on both counters left', () => others.every((c) => hasAll(c, placed)), 10_000);
    const [second] = holds(others);
    const third = others.find((c) => c !== second)!;
    expect([...third.hubNew].sort()).toEqual([...box.orders().map((o) => o.id)].sort()); // each order rang once there
  }, 60_000);

  it('the lease holder SIGKILLed (a counter in its own process): another polls within 10 s, no order missed', async () => {
    const [box, nats] = await Promise.all([store(), hub()]);
    const script = bundle('test/main/core/hub/counter-child.ts', path.join(tempDir(cleanup, 'packdesk-hub-child-'), 'counter.cjs'));
    const child = spawn(process.execPath, [script], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_PATH: path.join(REPO_ROOT, 'node_modules'),
        HUB_URL: nats.url,
        SANDBOX_URL: box.url,
        PROVIDER: box.serviceProviderId,
        DATA_DIR: tempDir(cleanup, 'packdesk-child-'),
        COUNTER_ID: 'c1',
        INTERVAL_MS: String(INTERVAL_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    cleanup.add(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await until(`the child holds the lease (${err})`, () => out.includes('holding\n'), 15_000);
    const others = await counters(box, nats, 2, 2); // c2 and c3 beside the child's c1
    const placed = [box.placeOrder().id];
    await until('the first order reaches the others from the child', () => others.every((c) => hasAll(c, placed)), 10_000);
    expect(holds(others)).toHaveLength(0);
    expect(others.every((c) => c.ownStored.length === 0)).toBe(true);

    const callsAtKill = await changesCalls(box);
    const killedAt = Date.now();
    child.kill('SIGKILL');
    await exited;
    placed.push(box.placeOrder().id, box.placeOrder().id); // while nobody polls
    await until('another counter polls', async () => (await changesCalls(box)) > callsAtKill, 10_000);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(holds(others)).toHaveLength(1);
    await until('every order on both counters', () => others.every((c) => hasAll(c, placed)), 10_000);
  }, 60_000);

  it('two pollers overlapping (a hand-over) never double an order or its alert', async () => {
    const [box, nats] = await Promise.all([store(), hub()]);
    const cs = await counters(box, nats, 3);
    await until('a lease holder', () => holds(cs).length === 1, 10_000);
    await until('the seeded orders everywhere', () => cs.every((c) => hasAll(c, box.orders().map((o) => o.id))), 10_000);
    const [holder] = holds(cs);
    const [other, watcher] = cs.filter((c) => c !== holder);
    // Once every counter has heard who holds the lease: a counter hearing it later pauses its own
    // intake then (the lease's listener), which would end the overlap unseen.
    await until('every counter knows the holder', () => cs.every((c) => c.lease.holder()?.counterId === holder!.counterId), 10_000);
    // As if `other` believed it held the lease while the holder still polled: both intakes run.
    other!.service.intake.resume();
    const placed: string[] = [];
    for (let i = 0; i < 10; i++) {
      // Each arrives once a pass has read the one before: spread over the two intakes' passes.
      const id = box.placeOrder().id;
      placed.push(id);
      await until(`order ${i + 1} read`, async () => (await bodyReads(box, id)) >= 1, 10_000);
    }
    // Both really polled: the sandbox was asked each order's body twice, once by each intake.
    await until('both pollers read every order', async () => {
      const asked = (await reads(box)).filter((r) => r.call === 'status');
      return placed.every((id) => asked.filter((r) => r.orderId === id).length >= 2);
    }, 10_000);
    await until('the watcher has them all', () => hasAll(watcher!, placed), 10_000);
    await untilSettled(nats, cs, [holder!, other!]);
    for (const c of cs) {
      const rung = c.hubNew.filter((id) => placed.includes(id));
      expect(new Set(rung).size).toBe(rung.length); // no order rang twice on any counter
      for (const id of placed) expect(c.service.engine.getOrder(id)?.order?.id).toBe(id);
    }
    expect([...watcher!.hubNew].filter((id) => placed.includes(id)).sort()).toEqual([...placed].sort());
    // A poller rings for an order either from its own intake or from the hub (the other poller was
    // first), never both: whichever stored it second found it unchanged.
    for (const poller of [holder!, other!]) {
      for (const id of placed) expect(Number(poller.ownStored.includes(id)) + Number(poller.hubNew.includes(id))).toBe(1);
    }
  }, 60_000);
});
