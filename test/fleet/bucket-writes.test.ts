/**
 * What keeps a write from the chain's centre out of a store's buckets, proved from the other side:
 * the store hub's own nats.conf (natsConfig, as the product writes it), then loosened one layer at a
 * time on a copy until the write lands, judged by the isolation matrix's own probes (put, put through
 * the store's domain, KV delete). So those probes can fail, and the layers that refuse are named:
 *
 * - `$JS.<store>.API.$KV.<bucket>.<key>` (the KV API through the store's JetStream domain): the link's
 *   deny_imports entry `$JS.<store>.API.$KV.>`, and the account boundary: the link is bound to CHAIN,
 *   where nats-server maps that subject to `$KV.<bucket>.<key>`, and CHAIN has no bucket and imports
 *   nothing of `$KV` from STORE. Either one alone refuses; without both, the write lands.
 * - `$KV.<bucket>.<key>` (and a KV delete, the same subject with a header): those two (the deny entry
 *   here is `$KV.>`) and a third the config cannot remove: nats-server 2.9 itself denies `$KV.>` (with
 *   `$JS.API.>` and `$OBJ.>`) both ways on a leaf connection of an account whose JetStream is not
 *   extended over it ("JetStream Not Extended, adding deny"), on the hub and on the centre alike. Only
 *   `default_js_domain: { <account>: "" }` on both servers lifts that; then, with the other two gone
 *   too, the write lands.
 *
 * A counter of another store meets, besides these, its own store's boundary: its `$KV` write is stored
 * in its own store's bucket of the same name and nothing of it leaves its STORE account (shown by the
 * matrix run loosened, in the commit that added this file).
 */
import { writeFileSync } from 'node:fs';
import { jetstream } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainLink } from '../../src/main/core/hub/chain/link';
import { connectHub } from '../../src/main/core/hub/nats/connection';
import { HUB_BUCKETS } from '../../src/main/core/hub/registry';
import { createHubFiles, hashSecret, HubSupervisor, hubFiles, natsConfig, newHubSecret } from '../../src/main/core/hub/server';
import { natsProgram } from '../main/core/hub/hub-fixture';
import { Cleanup, tempDir } from '../support/engine';
import { freePort, startTestNats } from '../support/nats';
import { until } from '../support/until';
import * as probe from './isolation/probes';

const STORE_ID = 'store-a';
const TARGET = HUB_BUCKETS.lease;

/** One change to the product's nats.conf text; each must find what it changes, so a new config format fails here instead of proving nothing. */
type Loosening = 'no $KV deny entries' | 'STORE exports $KV to CHAIN' | 'default JetStream domain';
const EDITS: Record<Loosening, (conf: string) => string> = {
  'no $KV deny entries': (conf) => replaceAll(replaceAll(conf, '"$KV.>",', ''), `"$JS.${STORE_ID}.API.$KV.>",`, ''),
  'STORE exports $KV to CHAIN': (conf) => replaceAll(replaceAll(conf, '    exports: [ ', '    exports: [ { service: "$KV.>", accounts: [CHAIN] }, '), '    imports: [ ', '    imports: [ { service: { account: STORE, subject: "$KV.>" } }, '),
  'default JetStream domain': (conf) => `default_js_domain: { CHAIN: "" }\n${conf}`,
};

function replaceAll(text: string, what: string, by: string): string {
  if (!text.includes(what)) throw new Error(`nats.conf has no ${what}`);
  return text.split(what).join(by);
}

type Outcomes = Record<'put' | 'put via domain' | 'delete key', boolean>;

describe('a write from the centre into a store’s bucket: which layer refuses it', () => {
  const cleanup = new Cleanup();
  let dir: string;
  let listen: string;
  let secret: string;
  let fingerprint: string;
  let program: { program: string; version: string };

  beforeAll(async () => {
    dir = tempDir(cleanup, 'packdesk-bucket-writes-');
    listen = `127.0.0.1:${await freePort()}`;
    secret = newHubSecret();
    program = await natsProgram();
    ({ fingerprint } = await createHubFiles(hubFiles(dir), { listen, secret, now: new Date(), chain: null }));
  }, 30_000);
  afterAll(() => cleanup.run(), 30_000);

  /** A centre and the store's hub with `loosened` applied to its nats.conf; the centre tries the three writes as the matrix does. Both servers stopped after. */
  async function attempt(name: string, loosened: readonly Loosening[]): Promise<Outcomes> {
    const local = new Cleanup();
    try {
      const leafPort = await freePort();
      const centreDomain = loosened.includes('default JetStream domain') ? 'default_js_domain: { "$G": "" }\n' : '';
      const server = await startTestNats({ extraConfig: `${centreDomain}server_name: central\nleafnodes { listen: "127.0.0.1:${leafPort}" }` });
      local.add(() => server.stop());
      const files = hubFiles(dir);
      const chain: ChainLink = { storeId: STORE_ID, url: `nats-leaf://127.0.0.1:${leafPort}`, credentialsPath: null, caPath: null, training: true };
      const conf = loosened.reduce((text, l) => EDITS[l](text), natsConfig(files, listen, hashSecret(secret, 4), chain));
      writeFileSync(files.configPath, conf, { mode: 0o600 });
      const hub = new HubSupervisor({ ...program, files, listen, stopGraceMs: 3_000 });
      local.add(() => hub.stop());
      const started = await hub.start();
      if (!started.running) throw new Error(`the hub did not start: ${started.problem}`);
      const joined = await connectHub({ host: '127.0.0.1', port: Number(listen.split(':')[1]), secret, fingerprint }, { name: 'counter' });
      if (!joined.ok) throw new Error(joined.problem.message);
      local.add(() => joined.connection.close());
      const kv: KV = await new Kvm(jetstream(joined.connection.nc)).create(TARGET.name);
      await kv.put(probe.MARKER_KEY, 'marker');
      const centre = await connect({ servers: server.url });
      local.add(() => centre.close());
      // The link is up (and has told the centre what the hub takes) once a request gets through it to the hub's JetStream.
      await until('the link up', () => probe.throughLink(centre, STORE_ID).then(() => true, () => false), 10_000, 50);
      const principal: probe.Principal = { name: `centre ${name}`, nc: centre, api: `$JS.${STORE_ID}.API`, inOrder: () => probe.throughLink(centre, STORE_ID) };
      const notHere = (): never => {
        throw new Error('not used by the write probes');
      };
      const side: probe.StoreSide = {
        storeId: STORE_ID,
        bucket: () => Promise.resolve(kv),
        async feed(_target, text) {
          await kv.put('feed', text);
        },
        subjects: (target) => `$KV.${target.name}.>`,
        chainKeeps: notHere,
        victimConsumer: notHere,
        consumerExists: notHere,
      };
      return {
        put: (await probe.put(principal, TARGET, side, 'subject')).allowed,
        'put via domain': (await probe.put(principal, TARGET, side, 'domain')).allowed,
        'delete key': (await probe.deleteKey(principal, TARGET, side)).allowed,
      };
    } finally {
      await local.run();
    }
  }

  const none: Outcomes = { put: false, 'put via domain': false, 'delete key': false };

  it('the product’s config refuses all three, and so does each of its two layers left alone', async () => {
    expect(await attempt('as shipped', [])).toEqual(none);
    // Only the deny entries left: CHAIN passes `$KV` on to STORE, nats-server's own deny is lifted.
    expect(await attempt('deny entries alone', ['STORE exports $KV to CHAIN', 'default JetStream domain'])).toEqual(none);
    // Only the account boundary left: no deny entries, nats-server's own deny lifted, the link in CHAIN (no bucket, no import).
    expect(await attempt('boundary alone', ['no $KV deny entries', 'default JetStream domain'])).toEqual(none);
  }, 30_000);

  it('loosened until the write lands, the probes say so: through the domain once the deny entry and the boundary are gone; on `$KV` once nats-server’s own deny is too', async () => {
    // Only nats-server's own `$KV.>` deny left: it holds the put and the delete on `$KV`; the domain's subject is not under it.
    expect(await attempt('server deny alone', ['no $KV deny entries', 'STORE exports $KV to CHAIN'])).toEqual({ put: false, 'put via domain': true, 'delete key': false });
    expect(await attempt('all open', ['no $KV deny entries', 'STORE exports $KV to CHAIN', 'default JetStream domain'])).toEqual({ put: true, 'put via domain': true, 'delete key': true });
  }, 30_000);
});
