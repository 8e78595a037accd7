/**
 * Who may do what to a store, tried on real nats-server processes: every bucket and chain stream
 * the registry declares x every way to read, write and administer it x four principals (a counter
 * of the store, the centre, a counter of another store of the chain, the fleet page's client).
 * The expected answer comes from the registry's `reach` and the principal's place, never from a
 * list of names; an unexpected allow fails the test, and so does an unexpected refusal of the
 * store's own counter (the store must keep working). The matrix is printed (docs/fleet.md has it).
 * Then the attack that stopped a store's intake: the lease written every 0.7 s for 20 s from the
 * centre and from another store, while a new order must still arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_KEY } from '../../src/main/core/hub/lease';
import { declaredStream, HUB_BUCKETS, HUB_REGISTRY, type HubDeclaration } from '../../src/main/core/hub/registry';
import { CHAIN_ACCOUNT, STORE_ACCOUNT } from '../../src/main/core/hub/server/accounts';
import { readFleet } from '../../src/fleet/central';
import { Cleanup } from '../support/engine';
import { until } from '../support/until';
import { roundTripThrough } from './fleet-world';
import * as probe from './isolation/probes';
import { type IsolationWorld, jsz, markEverything, type Role, startIsolationWorld } from './isolation/world';

type Probe = (p: probe.Principal, target: HubDeclaration, side: IsolationWorld['side']) => Promise<probe.Outcome>;

/**
 * Every way to read, write and administer a bucket or stream: the probe that tries it, and whether
 * it destroys what it meets (those run last, once the rest of the matrix is filled in). One table:
 * the names, the two lists and the probes cannot drift apart.
 */
const OPS = {
  'read: consumer': { destructive: false, run: probe.readByConsumer },
  'read: durable': { destructive: false, run: probe.durableConsumer },
  'read: direct get': { destructive: false, run: probe.directGet },
  'read: message get': { destructive: false, run: probe.messageGet },
  'read: subscription': { destructive: false, run: probe.plainSubscription },
  'write: put': { destructive: false, run: (p, target, side) => probe.put(p, target, side, 'subject') },
  'write: put via domain': { destructive: false, run: (p, target, side) => probe.put(p, target, side, 'domain') },
  'write: delete key': { destructive: false, run: probe.deleteKey },
  'admin: info': { destructive: false, run: (p, target) => probe.streamAdminRead(p, target, 'info') },
  'admin: names': { destructive: false, run: (p, target) => probe.streamAdminRead(p, target, 'names') },
  'admin: list': { destructive: false, run: (p, target) => probe.streamAdminRead(p, target, 'list') },
  'consumers: list': { destructive: false, run: (p, target) => probe.consumerList(p, target) },
  'consumers: delete': { destructive: false, run: probe.consumerDelete },
  'write: rollup': { destructive: true, run: probe.rollup },
  'write: purge': { destructive: true, run: probe.purge },
  'admin: delete stream': { destructive: true, run: probe.deleteStream },
} satisfies Record<string, { destructive: boolean; run: Probe }>;

type OpName = keyof typeof OPS;
const opsWhere = (destructive: boolean): OpName[] => (Object.keys(OPS) as OpName[]).filter((op) => OPS[op].destructive === destructive);
const NON_DESTRUCTIVE = opsWhere(false);
const DESTRUCTIVE = opsWhere(true);

/**
 * What each principal may do, from the registry's reach. A counter of the store: everything on the
 * store's buckets (it is the store), and on a chain stream only what feeds it (its own north
 * subjects) and hearing its own store's traffic. The centre and the fleet page: on a chain stream,
 * an ephemeral consumer and deleting one; nothing else anywhere. Another store: nothing.
 */
function expected(role: Role, target: HubDeclaration, op: OpName): boolean | 'n/a' {
  if (op === 'write: delete key' && target.kind !== 'bucket') return 'n/a';
  if (role === 'this-counter') {
    if (op === 'write: put via domain') return 'n/a';
    if (target.reach === 'store') return true;
    return op === 'write: put' || op === 'read: subscription';
  }
  if (role === 'centre' || role === 'fleet-page') return target.reach === 'chain' && (op === 'read: consumer' || op === 'consumers: delete');
  return false;
}

function run(world: IsolationWorld, p: probe.Principal, target: HubDeclaration, op: OpName): Promise<probe.Outcome> {
  return (OPS[op].run as Probe)(p, target, world.side);
}

interface Cell {
  readonly role: Role;
  readonly principal: string;
  readonly target: string;
  readonly op: OpName;
  readonly expect: boolean;
  readonly outcome: probe.Outcome;
}

describe('what crosses the chain link: the isolation matrix', () => {
  const cleanup = new Cleanup();
  let world: IsolationWorld;
  const cells: Cell[] = [];

  beforeAll(async () => {
    world = await startIsolationWorld(cleanup);
    await markEverything(world, HUB_REGISTRY);
  }, 180_000);
  afterAll(async () => {
    printMatrix(cells);
    await cleanup.run();
  }, 60_000);

  /** Runs these ops for these principals, targets side by side, and keeps each cell. */
  async function tryAll(roles: readonly Role[], ops: readonly OpName[]): Promise<Cell[]> {
    const made: Cell[] = [];
    for (const p of world.principals.filter((x) => roles.includes(x.role))) {
      await Promise.all(
        HUB_REGISTRY.map(async (target) => {
          for (const op of ops) {
            const want = expected(p.role, target, op);
            if (want === 'n/a') continue;
            const outcome = await run(world, p, target, op).catch((error: unknown) => ({ allowed: false, how: `threw: ${String(error).slice(0, 80)}` }));
            made.push({ role: p.role, principal: p.name, target: target.name, op, expect: want, outcome });
          }
        }),
      );
    }
    cells.push(...made);
    return made;
  }

  it('the hub holds nothing the registry does not name, each in its account: buckets with the counters, chain streams with the link', async () => {
    const accounts = (await jsz(world.a)).account_details ?? [];
    const held = accounts.flatMap((account) => (account.stream_detail ?? []).map((stream) => ({ account: account.name, stream: stream.name })));
    expect(held.length).toBeGreaterThanOrEqual(HUB_REGISTRY.length);
    const misplaced = held.filter(({ account, stream }) => {
      const declared = declaredStream(stream);
      return declared === null || account !== (declared.reach === 'chain' ? CHAIN_ACCOUNT : STORE_ACCOUNT);
    });
    expect(misplaced).toEqual([]);
    // Every declaration is in use on a running hub PC of a store in a chain.
    expect(HUB_REGISTRY.filter((d) => !held.some((h) => h.stream === (d.kind === 'bucket' ? `KV_${d.name}` : d.name))).map((d) => d.name)).toEqual([]);
  }, 30_000);

  const wrong = (made: readonly Cell[]): string[] => made.filter((c) => c.outcome.allowed !== c.expect).map((c) => `${c.principal} / ${c.target} / ${c.op}: ${c.outcome.allowed ? 'ALLOWED' : 'refused'} (${c.outcome.how})`);

  it('reading, writing and administering: the centre, the fleet page and another store reach nothing of the store; its counter reaches all of it', async () => {
    const made = await tryAll(['centre', 'fleet-page', 'other-counter', 'this-counter'], NON_DESTRUCTIVE);
    expect(wrong(made)).toEqual([]);
  }, 600_000);

  it('nobody outside the store speaks for a store: a north message naming another store is never believed at the centre', async () => {
    const health = (storeId: string, counterId: string) => ({ kind: 'counter', storeId, counterId, counterName: 'Counter 9', version: '99.0.0', seq: 1, runAt: Date.now(), at: Date.now(), tapsWaiting: 0, oldestWaitingAt: null, lastSentAt: null, online: true, clockDifferenceMs: 0, lastIntakeAt: null, storageWarnings: [] });
    const tries: [Role, string, string][] = [
      ['this-counter', 'store-b', 'spoof-from-a'],
      ['other-counter', 'store-a', 'spoof-from-b'],
      ['centre', 'store-a', 'spoof-from-centre'],
      ['fleet-page', 'store-b', 'spoof-from-page'],
    ];
    for (const [role, storeId, counterId] of tries) {
      const p = world.principals.find((x) => x.role === role)!;
      for (let i = 0; i < 3; i += 1) p.nc.publish(`packdesk.north.${storeId}.counter.${counterId}`, JSON.stringify(health(storeId, counterId)));
      await p.nc.flush();
    }
    // The centre's and the page's spoofs went down each store's link before these round trips came back.
    for (const role of ['centre', 'fleet-page'] as const) {
      for (const storeId of ['store-a', 'store-b']) await roundTripThrough(world.principals.find((x) => x.role === role)!.nc, storeId);
    }
    // Then each store's counter speaks for its own store on the same connection as its spoofs: once that is
    // believed at the centre, a spoof (stored before it on the hub, sourced in order) would have been too.
    const marks: [Role, string][] = [['this-counter', 'store-a'], ['other-counter', 'store-b']];
    for (const [role, storeId] of marks) {
      const p = world.principals.find((x) => x.role === role)!;
      p.nc.publish(`packdesk.north.${storeId}.counter.mark-${storeId}`, JSON.stringify(health(storeId, `mark-${storeId}`)));
      await p.nc.flush();
    }
    const reading = await until('both stores’ own marks believed at the centre', async () => {
      const read = await readFleet(world.central.nc);
      return marks.every(([, storeId]) => read.latest.some((m) => m.message.kind === 'counter' && m.message.counterId === `mark-${storeId}`)) ? read : false;
    }, 30_000, 100);
    for (const [role, , counterId] of tries) {
      const believed = reading.latest.some((m) => m.message.kind === 'counter' && m.message.counterId === counterId);
      cells.push({ role, principal: world.principals.find((x) => x.role === role)!.name, target: 'north, as another store', op: 'write: put', expect: false, outcome: { allowed: believed, how: believed ? 'believed at the centre' : 'not believed' } });
      expect(believed, counterId).toBe(false);
    }
  }, 60_000);

  it('the intake lease written every 0.7 s for 20 s from the centre, the fleet page and another store: a real counter keeps it and a new order arrives', async () => {
    const a = world.a.store;
    const forged = JSON.stringify({ counterId: 'counter-9', counterName: 'Counter 9', at: Date.now() });
    const attackers = world.principals.filter((p) => p.role !== 'this-counter');
    const holders = new Set<string>();
    let order: string | null = null;
    const started = Date.now();
    while (Date.now() - started < 20_000) {
      for (const p of attackers) {
        p.nc.publish(`$KV.${HUB_BUCKETS.lease.name}.${LEASE_KEY}`, forged);
        p.nc.publish(`${p.api}.$KV.${HUB_BUCKETS.lease.name}.${LEASE_KEY}`, forged);
      }
      for (const c of a.counters) holders.add(c.host.hub.status().intakeHolder?.counterName ?? 'none');
      if (order === null && Date.now() - started > 3_000) order = a.sandbox.placeOrder().id;
      // The scenario's own pace (a forged write every 0.7 s across the lease's renewals for 20 s), not a wait for something.
      await new Promise((r) => setTimeout(r, 700));
    }
    expect([...holders].filter((h) => !/^Counter [12]$/.test(h))).toEqual([]);
    const arrived = await until('the new order on both counters of the store', () => a.counters.every((c) => c.host.engine()?.getOrder(order!) != null), 30_000, 250);
    expect(arrived).toBe(true);
    for (const p of attackers) cells.push({ role: p.role, principal: p.name, target: HUB_BUCKETS.lease.name, op: 'write: put', expect: false, outcome: { allowed: holders.has('Counter 9'), how: `holders seen: ${[...holders].join(', ')}` } });
  }, 90_000);

  it('purging, rolling up and deleting: nobody outside the store can; the store’s own counter can (tried last)', async () => {
    const outside = await tryAll(['centre', 'fleet-page', 'other-counter'], DESTRUCTIVE);
    expect(wrong(outside)).toEqual([]);
    const own = await tryAll(['this-counter'], DESTRUCTIVE);
    expect(wrong(own)).toEqual([]);
  }, 600_000);
});

/** Prints the matrix: a row per principal and target, a column per operation; A allowed, · refused, ! not as expected. */
function printMatrix(cells: readonly Cell[]): void {
  if (cells.length === 0) return;
  const ops = [...new Set(cells.map((c) => c.op))];
  const rows = [...new Set(cells.map((c) => `${c.principal} | ${c.target}`))];
  const lines = [`| principal | target | ${ops.join(' | ')} |`, `|---|---|${ops.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const [principal, target] = row.split(' | ');
    const marks = ops.map((op) => {
      const cell = cells.find((c) => `${c.principal} | ${c.target}` === row && c.op === op);
      if (!cell) return 'n/a';
      const mark = cell.outcome.allowed ? 'A' : '·';
      return cell.outcome.allowed === cell.expect ? mark : `${mark}!`;
    });
    lines.push(`| ${principal} | ${target} | ${marks.join(' | ')} |`);
  }
  const allowedCount = cells.filter((c) => c.outcome.allowed).length;
  const unexpected = cells.filter((c) => c.outcome.allowed !== c.expect).length;
  console.log(`Isolation matrix: ${cells.length} cells, ${allowedCount} allowed, ${unexpected} not as expected\n${lines.join('\n')}`);
}
