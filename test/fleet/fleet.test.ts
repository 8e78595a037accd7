/**
 * The fleet view end to end on real nats-server processes: a central server and three store hubs
 * (leaf nodes, each in its own JetStream domain, nats.conf written by the product) with two counters
 * each, sending north every 2 s (the product sends every 10 s; the thresholds are the product's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readAllNorth, readFleet } from '../../src/fleet/central';
import { runFleet } from '../../src/fleet/cli';
import { fleetStatus, type FleetStatus } from '../../src/fleet/status';
import { connect } from '@nats-io/transport-node';
import { Cleanup } from '../support/engine';
import { startTestNats } from '../support/nats';
import { type Central, roundTripThrough, startCentral, startStore, type TestStore, until } from './fleet-world';

const EVERY_MS = 2_000;

/** Runs the fleet CLI in this process. */
async function fleet(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runFleet(argv, { env: {}, write: (t) => (stdout += t), writeError: (t) => (stderr += t), now: Date.now });
  return { code, stdout, stderr };
}

async function status(central: Central): Promise<FleetStatus> {
  return fleetStatus(await readFleet(central.nc), Date.now());
}

describe('fleet view through leaf nodes', () => {
  const cleanup = new Cleanup();
  let central: Central;
  let stores: TestStore[];

  beforeAll(async () => {
    central = await startCentral(cleanup);
    stores = [];
    for (const id of ['store-a', 'store-b', 'store-c']) stores.push(await startStore(cleanup, central, id, 2, EVERY_MS));
    const out = await fleet(['stores', 'add', ...stores.map((s) => s.storeId), '--server', central.server.url]);
    expect(out).toMatchObject({ code: 0, stdout: 'The fleet sources 3 stores: store-a, store-b, store-c\n' });
  }, 60_000);
  afterAll(() => cleanup.run(), 30_000);

  it('shows all six counters with the figures they sent, and each store summary', async () => {
    stores[1]!.counters[1]!.figures = { ...stores[1]!.counters[1]!.figures, tapsWaiting: 14, online: false, clockDifferenceMs: 300_000, storageWarnings: ['disk-low'] };
    const { value } = await until('six counters at the centre', 20_000, async () => {
      const s = await status(central);
      const rows = s.stores.flatMap((st) => st.counters);
      return rows.length === 6 && rows.some((r) => r.health.tapsWaiting === 14) ? s : null;
    });
    expect(value.stores.map((s) => s.storeId).sort()).toEqual(['store-a', 'store-b', 'store-c']);
    for (const store of stores) {
      const row = value.stores.find((s) => s.storeId === store.storeId)!;
      expect(row.stale).toBe(false);
      expect(row.summary).toMatchObject(store.summary);
      for (const counter of store.counters) {
        const seen = row.counters.find((c) => c.health.counterId === counter.counterId)!;
        expect(seen.health).toMatchObject({ counterName: counter.counterName, version: counter.version, ...counter.figures });
      }
    }
    // Problems first: store-b holds the counter with a backlog, no service, clock off and low disk.
    expect(value.stores[0]!.storeId).toBe('store-b');
    expect(value.stores[0]!.counters[0]!.problems).toEqual(['no-service', 'backlog', 'clock-off', 'storage']);
  }, 40_000);

  it('fleet status prints the same, problems first, as text and as --json (its own entry point)', async () => {
    const json = await fleet(['status', '--json', '--server', central.server.url]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as FleetStatus;
    expect(parsed.stores.flatMap((s) => s.counters)).toHaveLength(6);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/fleet/cli.ts', 'status', '--server', central.server.url], { timeout: 30_000 });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^store-b {2}heard \d+ s ago {2}waiting for Accept 2 {2}being packed 1 {2}late 0 {2}cancelled alarms 1$/);
    expect(lines[1]).toMatch(/^ {2}Counter 2 \(store-b-c2\) {2}v1\.4\.0 {2}taps waiting 14 .* {2}clock \+300 s .*storage: disk-low {2}cannot reach the order service; taps waiting too long; clock off; storage warning$/);
    expect(lines).toHaveLength(9);
    expect(await fleet(['status'])).toMatchObject({ code: 1, stderr: expect.stringContaining('--server') as string });
    expect(await fleet(['tap', 'order-1'])).toMatchObject({ code: 2 });
  }, 40_000);

  it('shows a killed counter offline within 30 s', async () => {
    const victim = stores[2]!.counters[1]!;
    await victim.kill();
    const killedAt = Date.now();
    const { ms } = await until('counter offline', 32_000, async () => {
      const s = await status(central);
      const row = s.stores.flatMap((st) => st.counters).find((c) => c.health.counterId === victim.counterId);
      return row?.problems.includes('offline') ? true : null;
    });
    expect(Date.now() - killedAt).toBeLessThanOrEqual(30_000);
    expect(ms).toBeGreaterThan(10_000);
    // The other counter of that store, and its store, are fine.
    const s = await status(central);
    const store = s.stores.find((st) => st.storeId === 'store-c')!;
    expect(store.stale).toBe(false);
    expect(store.counters.find((c) => c.health.counterId !== victim.counterId)!.problems).toEqual([]);
  }, 45_000);

  it('marks a store cut off from the centre stale within 60 s, then catches up within 15 s with nothing lost or doubled', async () => {
    const store = stores[0]!;
    await until('store fresh before the cut', 20_000, async () => ((await status(central)).stores.find((st) => st.storeId === store.storeId)?.stale === false ? true : null));
    await store.setLink(false);
    const cutAt = Date.now();
    await until('store stale', 65_000, async () => {
      const s = await status(central);
      return s.stores.find((st) => st.storeId === store.storeId)?.stale ? true : null;
    });
    const staleAfter = Date.now() - cutAt;
    expect(staleAfter).toBeGreaterThan(50_000);
    expect(staleAfter).toBeLessThanOrEqual(62_000);
    // The counters kept working meanwhile: the store kept what flows north.
    store.summary = { ...store.summary, late: 3 };
    await new Promise((r) => setTimeout(r, Math.max(0, 65_000 - (Date.now() - cutAt))));
    await store.setLink(true);
    const back = Date.now();
    // The hub PC's own connection comes back first (the hub restarted to take its link back).
    const { value: kept, ms: readableAfter } = await until('store hub readable again', 10_000, () => storeIds(store));
    await until('caught up', 15_000 - (Date.now() - back), async () => {
      const central_ = await centralIds(central, store.storeId);
      return kept.every((id) => central_.includes(id)) ? central_ : null;
    });
    const caughtUpAfter = Date.now() - back;
    const atCentre = await centralIds(central, store.storeId);
    expect(new Set(atCentre).size).toBe(atCentre.length);
    const ownNow = await storeIds(store);
    expect(atCentre.every((id) => ownNow.includes(id))).toBe(true);
    expect(kept.length).toBeGreaterThan(60);
    const s = await status(central);
    expect(s.stores.find((st) => st.storeId === store.storeId)).toMatchObject({ stale: false, summary: { late: 3 } });
    console.log(`stale after ${staleAfter} ms; caught up within ${caughtUpAfter} ms after the link returned (the store hub readable again after ${readableAfter} ms); ${kept.length} messages kept by the store`);
  }, 120_000);

  it('lets nothing reach the centre but figures: no customer data, no secret', async () => {
    const all = await readAllNorth(central.nc);
    expect(all.length).toBeGreaterThan(50);
    const allowed = new Set(['kind', 'storeId', 'counterId', 'counterName', 'version', 'seq', 'runAt', 'at', 'tapsWaiting', 'oldestWaitingAt', 'lastSentAt', 'online', 'clockDifferenceMs', 'lastIntakeAt', 'storageWarnings', 'awaitingAccept', 'beingPacked', 'late', 'cancelledAlarmsOpen']);
    for (const { raw } of all) {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      for (const key of Object.keys(parsed)) expect(allowed.has(key), key).toBe(true);
      for (const value of Object.values(parsed)) {
        if (typeof value === 'string') expect(value).toMatch(/^(counter|summary|store-[abc](-c\d)?|Counter \d|\d+\.\d+\.\d+)$/);
      }
    }
  }, 60_000);

  it('lets the centre read the north stream but not change the store: no stream admin, no bucket writes', async () => {
    const store = stores[2]!;
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const before = (await (await jetstreamManager(store.chainNc)).streams.info('PACKDESK_NORTH')).state.messages;
    await expect(central.nc.request(`$JS.${store.storeId}.API.STREAM.DELETE.PACKDESK_NORTH`, '', { timeout: 1_500 })).rejects.toThrow();
    await expect(central.nc.request(`$JS.${store.storeId}.API.STREAM.PURGE.PACKDESK_NORTH`, '', { timeout: 1_500 })).rejects.toThrow();
    const { Kvm } = await import('@nats-io/kv');
    const claims = await new Kvm(store.nc).create('packdesk-claims');
    central.nc.publish('$KV.packdesk-claims.order-1', JSON.stringify({ counterId: 'centre' }));
    // Then something the centre may do, on the same connection and link: the store's answer comes after the write would have landed.
    await roundTripThrough(central.nc, store.storeId);
    expect(await claims.get('order-1')).toBeNull();
    const storeJsm = await jetstreamManager(store.chainNc);
    expect((await storeJsm.streams.info('PACKDESK_NORTH')).state.messages).toBeGreaterThanOrEqual(before);
  }, 20_000);

  it('believes a store only about itself: a hub of a store’s own making that speaks for another store is refused and counted', async () => {
    // Store x runs a plain nats-server (no accounts, no Packdesk) linked to the centre, and says what it likes.
    const leaf = central.leafUrl.replace('nats-leaf://', '');
    const rogue = await startTestNats({ jetstreamDomain: 'store-x', extraConfig: `server_name: rogue\nleafnodes { remotes [ { url: "nats-leaf://${leaf}" } ] }` });
    cleanup.add(() => rogue.stop());
    const nc = await connect({ servers: rogue.url });
    cleanup.add(() => nc.close());
    const { jetstreamManager, jetstream } = await import('@nats-io/jetstream');
    await (await jetstreamManager(nc)).streams.add({ name: 'PACKDESK_NORTH', subjects: ['packdesk.north.>'] });
    const victim = stores[1]!;
    const lie = (storeId: string, counterId: string, version: string) => ({ kind: 'counter', storeId, counterId, counterName: 'Counter 1', version, seq: 1, runAt: Date.now(), at: Date.now(), tapsWaiting: 0, oldestWaitingAt: null, lastSentAt: Date.now(), online: true, clockDifferenceMs: 0, lastIntakeAt: Date.now(), storageWarnings: [] });
    const js = jetstream(nc);
    // Fresh figures for a counter of store b, on store b's subject; and its own counter at a made-up version.
    // (A counter store b does not run: a real one's next figures would be that subject's newest message.)
    const forged = `${victim.storeId}-c9`;
    await js.publish(`packdesk.north.${victim.storeId}.counter.${forged}`, JSON.stringify(lie(victim.storeId, forged, '99.0.0')));
    await js.publish('packdesk.north.store-x.counter.x-c1', JSON.stringify(lie('store-x', 'x-c1', '99.0.0-x')));
    await js.publish('packdesk.north.store-never.counter.n-c1', JSON.stringify(lie('store-never', 'n-c1', '1.0.0')));
    expect((await fleet(['stores', 'add', 'store-x', '--server', central.server.url])).code).toBe(0);
    const { value: reading } = await until('the rogue store’s messages counted at the centre', 20_000, async () => {
      const r = await readFleet(central.nc);
      const n = Object.values(r.refused).reduce((a, b) => a + (b ?? 0), 0);
      return n >= 3 ? r : null;
    });
    expect(reading.refused).toMatchObject({ 'other-store': 2, version: 1 });
    expect(reading.latest.filter((m) => m.message.storeId === 'store-never' || (m.message.kind === 'counter' && m.message.version.startsWith('99')))).toEqual([]);
    const s = fleetStatus(reading, Date.now());
    expect(s.stores.map((st) => st.storeId)).not.toContain('store-never');
    expect(s.stores.flatMap((st) => st.counters).filter((c) => c.problems.includes('old-version'))).toEqual([]);
    expect((await fleet(['status', '--server', central.server.url])).stdout).toContain('messages refused: 3 (2 speaking for another store, 1 a version that is not a release number)');
  }, 40_000);
});

/** The ids (counter/summary, run, seq) of everything the store's own north stream holds (in the chain's account). */
async function storeIds(store: TestStore): Promise<string[]> {
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const jsm = await jetstreamManager(store.chainNc);
  const info = await jsm.streams.info('PACKDESK_NORTH');
  const out: string[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq += 1) {
    const m = await jsm.streams.getMessage('PACKDESK_NORTH', { seq }).catch(() => null);
    if (m) out.push(idOf(new TextDecoder().decode(m.data)));
  }
  return out;
}

async function centralIds(central: Central, storeId: string): Promise<string[]> {
  return (await readAllNorth(central.nc)).map((m) => JSON.parse(m.raw) as { storeId: string }).filter((m) => m.storeId === storeId).map((m) => idOf(JSON.stringify(m)));
}

function idOf(raw: string): string {
  const m = JSON.parse(raw) as { kind: string; counterId?: string; runAt: number; seq: number };
  return `${m.counterId ?? m.kind}.${m.runAt}.${m.seq}`;
}
