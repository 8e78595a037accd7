/**
 * A hub made before accounts came in moves to today's layout when the app starts it, with no
 * manager step and nothing lost: a real nats-server runs the old nats.conf (one user, the global
 * account) and fills buckets and the north stream; then the hub is started as the app starts it
 * now (nats.conf written afresh, the supervisor), and every bucket answers with its values from
 * the counters' account while the north stream, with what it kept, is in the chain's account.
 */
import { writeFileSync } from 'node:fs';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHub, type HubConnection } from '../../../../../src/main/core/hub/nats/connection';
import { HUB_BUCKETS, NORTH_STREAM } from '../../../../../src/main/core/hub/registry';
import { KEEPER_INBOX_PREFIX, KEEPER_USER } from '../../../../../src/main/core/hub/server/accounts';
import { configuredPasswordHash, hashSecret, HubSupervisor, writeHubConfig } from '../../../../../src/main/core/hub/server';
import { moveToAccounts } from '../../../../../src/main/core/hub/server/layout';
import { freePort } from '../../../../support/nats';
import { makeTestHub, type TestHub } from '../hub-fixture';

/** nats.conf as Packdesk wrote it before accounts: the counters' user at the top, the global account. */
function oldConfig(hub: TestHub, hash: string): string {
  const q = (text: string): string => JSON.stringify(text);
  return [
    `listen: ${q(hub.listen)}`,
    'server_name: packdesk_hub',
    `pid_file: ${q(hub.files.pidPath)}`,
    `tls {\n  cert_file: ${q(hub.files.certPath)}\n  key_file: ${q(hub.files.keyPath)}\n  timeout: 3\n}`,
    `authorization {\n  user: "packdesk"\n  password: ${q(hash)}\n  timeout: 3\n}`,
    `jetstream {\n  store_dir: ${q(hub.files.storeDir)}\n  max_memory_store: 64MB\n  max_file_store: 2GB\n}`,
    '',
  ].join('\n');
}

describe('a hub made before accounts', () => {
  let hub: TestHub | null = null;
  const open: HubConnection[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close();
    await hub?.dispose();
    hub = null;
  });

  const counter = async (h: TestHub, user?: string, secret = h.secret): Promise<HubConnection> => {
    const joined = await connectHub({ host: '127.0.0.1', port: h.port, secret, fingerprint: h.fingerprint }, user ? { user, inboxPrefix: KEEPER_INBOX_PREFIX } : {});
    if (!joined.ok) throw new Error(joined.problem.message);
    open.push(joined.connection);
    return joined.connection;
  };

  it('keeps every bucket and the north stream when the app starts it with accounts', async () => {
    hub = await makeTestHub({ start: false });
    const hash = configuredPasswordHash(hub.files)!;
    writeFileSync(hub.files.configPath, oldConfig(hub, hash));
    expect(await hub.supervisor.start()).toMatchObject({ running: true });
    const before = await counter(hub);
    const kvm = new Kvm(jetstream(before.nc));
    const staff = await kvm.create(HUB_BUCKETS.staff.name);
    for (let i = 0; i < 40; i += 1) await staff.put(`packer-${i}`, JSON.stringify({ name: `Packer ${i}` }));
    const orders = await kvm.create(HUB_BUCKETS.orders.name);
    await orders.put('ORD-1', '{"id":"ORD-1"}');
    await (await jetstreamManager(before.nc)).streams.add({ name: NORTH_STREAM, subjects: ['packdesk.north.>'] });
    await jetstream(before.nc).publish('packdesk.north.store-m.counter.c1', 'kept while the link was down');
    await before.close();
    await hub.supervisor.stop();

    // The app starts the hub: nats.conf written afresh (with the chain link it has), then the supervisor.
    const keeperPassword = 'keeper-password-for-this-run';
    const link = { storeId: 'store-m', url: `nats-leaf://127.0.0.1:${await freePort()}`, credentialsPath: null, caPath: null, training: true };
    writeHubConfig(hub.files, hub.listen, hash, link, null, hashSecret(keeperPassword));
    const again = new HubSupervisor({ program: hub.program, version: hub.version, files: hub.files, listen: hub.listen, stopGraceMs: 3000 });
    // Its dispose stops this supervisor too: the one makeTestHub made is stopped already, and this one's nats-server outlived the test.
    const made = hub;
    hub = {
      ...made,
      supervisor: again,
      dispose: async () => {
        await again.stop();
        await made.dispose();
      },
    };
    expect(await again.start()).toMatchObject({ running: true });

    const after = await counter(hub);
    const staffAfter = await new Kvm(jetstream(after.nc)).open(HUB_BUCKETS.staff.name);
    expect((await staffAfter.status()).values).toBe(40);
    expect((await staffAfter.get('packer-39'))?.json()).toEqual({ name: 'Packer 39' });
    expect((await (await new Kvm(jetstream(after.nc)).open(HUB_BUCKETS.orders.name)).get('ORD-1'))?.string()).toBe('{"id":"ORD-1"}');
    // The north stream is no longer with the counters, but in the chain's account with what it kept.
    expect(await (await jetstreamManager(after.nc)).streams.names().next()).not.toContain(NORTH_STREAM);
    const keeper = await counter(hub, KEEPER_USER, keeperPassword);
    const north = await (await jetstreamManager(keeper.nc)).streams.getMessage(NORTH_STREAM, { seq: 1 });
    expect(new TextDecoder().decode(north!.data)).toBe('kept while the link was down');
  }, 60_000);

  it('moves nothing twice and deletes nothing a move left behind', async () => {
    hub = await makeTestHub({ start: false });
    expect(moveToAccounts(hub.files.storeDir)).toBeNull();
  });
});
