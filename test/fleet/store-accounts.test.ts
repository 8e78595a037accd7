/**
 * The chain's default deployment (docs/fleet.md, "Stores apart at the centre"), in operator mode on
 * a real centre: each store an account of its own, the fleet's account importing only what the
 * page and status need. The fleet sees both stores (figures, a drill-down); a store's stolen leaf
 * credentials reach nothing of the other store: no read, no write, no consumer made, listed or
 * deleted, no lease, nothing heard, nothing believed; nor anything of the fleet's account.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountNorthStream, ensureFleetStream, readFleet } from '../../src/fleet/central';
import { readOpenOrders } from '../../src/fleet/drill';
import { startOpenOrdersSender } from '../../src/main/core/hub/chain/open-orders';
import { LEASE_KEY } from '../../src/main/core/hub/lease';
import { HUB_BUCKETS, NORTH_STREAM, OPEN_STREAM } from '../../src/main/core/hub/registry';
import { systemTimers } from '../../src/main/core/time';
import { Cleanup, tempDir } from '../support/engine';
import { until } from '../support/until';
import { roundTripThrough, startStore, type TestStore } from './fleet-world';
import { startStoreAccountsCentral, type StoreAccountsCentral } from './operator-central';

const decode = (data: Uint8Array): string => new TextDecoder().decode(data);

/** A request's answer in words: "ok" only when the store's server did what was asked. */
async function ask(nc: NatsConnection, subject: string, body: unknown = {}): Promise<string> {
  try {
    const reply = await nc.request(subject, JSON.stringify(body), { timeout: 1_500 });
    const answer = JSON.parse(decode(reply.data) || '{}') as { error?: { description?: string } };
    return answer.error ? `refused: ${answer.error.description ?? '?'}` : 'ok';
  } catch (error) {
    return `refused: ${String(error).slice(0, 60)}`;
  }
}

describe('stores apart at the centre (operator mode)', () => {
  const cleanup = new Cleanup();
  let central: StoreAccountsCentral;
  const stores: TestStore[] = [];
  let thief: NatsConnection;

  beforeAll(async () => {
    const dir = tempDir(cleanup, 'packdesk-store-accounts-');
    central = await startStoreAccountsCentral(cleanup, dir, ['store-a', 'store-b']);
    const like = { server: central.server, leafUrl: central.leafUrl, nc: central.nc };
    for (const account of central.stores) {
      const credentialsPath = path.join(dir, `${account.storeId}.creds`);
      writeFileSync(credentialsPath, account.leafCreds, { mode: 0o600 });
      const store = await startStore(cleanup, like, account.storeId, 1, 1_000, { caPath: central.certPath, credentialsPath });
      stores.push(store);
      cleanup.add(startOpenOrdersSender({ nc: store.nc, storeId: account.storeId, orders: () => [{ orderId: `ORD-${account.storeId}`, nextStep: 'ACCEPT', late: false, cancelledAlarm: false, claim: null }], now: Date.now, timers: systemTimers, everyMs: 1_000 }));
      // The chain's operators make the store account's copy of the hub's north stream (nats CLI in docs/fleet.md).
      const ops = await connect({ servers: central.server.url, authenticator: credsAuthenticator(new TextEncoder().encode(account.opsCreds)) });
      await (await jetstreamManager(ops)).streams.add({ name: accountNorthStream(account.storeId), sources: [{ name: NORTH_STREAM, external: { api: `$JS.${account.storeId}.API`, deliver: '' } }] });
      await ops.close();
    }
    await ensureFleetStream(central.nc, ['store-a', 'store-b'], true);
    thief = await connect({ servers: central.server.url, authenticator: credsAuthenticator(new TextEncoder().encode(central.stores[0]!.leafCreds)) });
    cleanup.add(() => thief.close());
  }, 90_000);
  afterAll(() => cleanup.run(), 30_000);

  it('the fleet sees every store, believes each about itself, and opens a store’s open orders', async () => {
    const reading = await until('both stores’ counters at the centre', async () => {
      const r = await readFleet(central.nc);
      return ['store-a', 'store-b'].every((id) => r.latest.some((m) => m.message.kind === 'counter' && m.message.storeId === id)) ? r : false;
    }, 30_000, 250);
    expect(reading.refused).toEqual({});
    const drill = await readOpenOrders(central.nc, 'store-b');
    expect(drill.state === 'ok' ? drill.list.orders.map((o) => o.orderId) : drill).toEqual(['ORD-store-b']);
  }, 40_000);

  it('a store’s leaf credentials reach nothing of another store, nor of the fleet', async () => {
    const b = 'store-b';
    const consumer = { deliver_subject: 'thief.inbox', ack_policy: 'none', deliver_policy: 'all' };
    const tries: Record<string, string> = {
      'read the other hub’s north stream': await ask(thief, `$JS.${b}.API.CONSUMER.CREATE.${NORTH_STREAM}`, { stream_name: NORTH_STREAM, config: consumer }),
      'read the other hub’s open orders': await ask(thief, `$JS.${b}.API.CONSUMER.CREATE.${OPEN_STREAM}`, { stream_name: OPEN_STREAM, config: consumer }),
      'read the other hub’s orders bucket': await ask(thief, `$JS.${b}.API.CONSUMER.CREATE.KV_${HUB_BUCKETS.orders.name}`, { stream_name: `KV_${HUB_BUCKETS.orders.name}`, config: consumer }),
      'direct get from the other hub': await ask(thief, `$JS.${b}.API.DIRECT.GET.KV_${HUB_BUCKETS.staff.name}`, { last_by_subj: `$KV.${HUB_BUCKETS.staff.name}.>` }),
      'read the other store’s copy at the centre': await ask(thief, `$JS.API.CONSUMER.CREATE.${accountNorthStream(b)}`, { stream_name: accountNorthStream(b), config: consumer }),
      'list the other hub’s consumers': await ask(thief, `$JS.${b}.API.CONSUMER.LIST.${NORTH_STREAM}`),
      'delete a consumer of the other store’s copy': await ask(thief, `$JS.API.CONSUMER.DELETE.${accountNorthStream(b)}.any`),
      'list the other hub’s streams': await ask(thief, `$JS.${b}.API.STREAM.NAMES`),
      'read the fleet stream': await ask(thief, `$JS.API.STREAM.INFO.PACKDESK_FLEET`),
    };
    expect(Object.entries(tries).filter(([, answer]) => answer === 'ok')).toEqual([]);
    // Its own account's streams are its own copy only.
    const names = JSON.parse(decode((await thief.request('$JS.API.STREAM.NAMES', '{}', { timeout: 1_500 })).data)) as { streams: string[] | null };
    expect(names.streams).toEqual([accountNorthStream('store-a')]);

    // Writes: the lease and a north message naming the other store, plus listening to everything meanwhile.
    const heard: string[] = [];
    const sub = thief.subscribe('>', {
      callback: (_e, m) => {
        heard.push(m.subject);
      },
    });
    // Store b's lease, held by its Counter 1 as a store's lease is.
    const lease = await new Kvm(stores[1]!.nc).create(HUB_BUCKETS.lease.name, { history: HUB_BUCKETS.lease.history });
    await lease.put(LEASE_KEY, JSON.stringify({ counterId: 'store-b-c1', counterName: 'Counter 1', at: Date.now() }));
    const seqs = async (): Promise<Map<string, number>> => new Map((await readFleet(central.nc)).latest.filter((m) => m.message.kind === 'counter').map((m) => [m.message.storeId, m.message.seq]));
    const before = await seqs();
    for (let i = 0; i < 5; i += 1) {
      thief.publish(`$JS.${b}.API.$KV.${HUB_BUCKETS.lease.name}.${LEASE_KEY}`, JSON.stringify({ counterId: 'counter-9', counterName: 'Counter 9', at: Date.now() }));
      thief.publish(`$KV.${HUB_BUCKETS.lease.name}.${LEASE_KEY}`, JSON.stringify({ counterId: 'counter-9', counterName: 'Counter 9', at: Date.now() }));
      thief.publish(`packdesk.north.${b}.counter.forged`, JSON.stringify({ kind: 'counter', storeId: b, counterId: 'forged' }));
    }
    // The writes went down store a's link before this round trip came back (one connection, one link).
    await roundTripThrough(thief, 'store-a');
    // Both stores have sent newer figures to the fleet while the thief listened: store b's traffic happened, and the fleet took in what came after the forgeries.
    await until('newer figures from both stores at the centre', async () => {
      const now = await seqs();
      return ['store-a', b].every((id) => (now.get(id) ?? 0) > (before.get(id) ?? 0));
    }, 15_000, 100);
    sub.unsubscribe();
    expect(JSON.parse((await lease.get(LEASE_KEY))!.string())).toMatchObject({ counterName: 'Counter 1' });
    expect((await readFleet(central.nc)).latest.filter((m) => m.message.kind === 'counter' && m.message.counterId === 'forged')).toEqual([]);
    // Nothing of store b was heard in store a's account but what the thief itself sent.
    const own = new Set([`$JS.${b}.API.$KV.${HUB_BUCKETS.lease.name}.${LEASE_KEY}`, `packdesk.north.${b}.counter.forged`]);
    expect(heard.filter((subject) => subject.includes(b) && !own.has(subject))).toEqual([]);
  }, 40_000);
});
