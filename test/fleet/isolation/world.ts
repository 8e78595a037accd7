/**
 * The isolation matrix's world: a plain centre (one account, no limits: the worst a chain could
 * run) and two training stores of two counters each, every counter a real host (engine, intake
 * against its own sandbox, hub session, all buckets), each store's hub linked to the centre through
 * the product's own Settings -> Chain path. The store's side of each judgement is read as the store
 * (a counter's connection) or from the hub's own monitoring port (/jsz), never through the link.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, createInbox, type NatsConnection } from '@nats-io/transport-node';
import { readFleet } from '../../../src/fleet/central';
import { runFleet } from '../../../src/fleet/cli';
import { connectHub } from '../../../src/main/core/hub/nats/connection';
import { parseJoinCode } from '../../../src/main/core/hub/join-code';
import { HUB_REGISTRY, type HubDeclaration } from '../../../src/main/core/hub/registry';
import { configuredMonitorPort, hubFiles } from '../../../src/main/core/hub/server';
import { startTrainingStore, type TrainingStore } from '../../../src/web/store';
import type { Cleanup } from '../../support/engine';
import { until } from '../../support/until';
import { type Central, startCentral } from '../fleet-world';
import { MARKER_KEY, type Principal, type StoreSide, streamOf, throughLink } from './probes';

export interface LinkedStore {
  readonly storeId: string;
  readonly store: TrainingStore;
  /** A counter of this store (Counter 2's join code, its own connection). */
  readonly counter: NatsConnection;
  /** The hub's data folder (its monitoring port is in nats.conf). */
  readonly hubDir: string;
}

/** Everything /jsz says of the hub's accounts, streams and consumers. */
export interface Jsz {
  readonly account_details?: readonly {
    readonly name: string;
    readonly stream_detail?: readonly { readonly name: string; readonly state: { readonly first_seq: number; readonly messages: number }; readonly consumer_detail?: readonly { readonly name: string }[] }[];
  }[];
}

/** The hub's own view of its accounts, from its monitoring port on 127.0.0.1. */
export async function jsz(store: LinkedStore): Promise<Jsz> {
  const port = configuredMonitorPort(hubFiles(store.hubDir));
  if (port === null) throw new Error('the hub has no monitoring port (not in a chain?)');
  const res = await fetch(`http://127.0.0.1:${port}/jsz?accounts=true&streams=true&consumers=true`);
  return (await res.json()) as Jsz;
}

/** Starts a training store of two counters and links its hub to the centre as `storeId`. */
export async function linkedStore(cleanup: Cleanup, central: Central, storeId: string): Promise<LinkedStore> {
  const dataDir = mkdtempSync(join(tmpdir(), `packdesk-isolation-${storeId}-`));
  cleanup.add(() => rmSync(dataDir, { recursive: true, force: true }));
  const store = await startTrainingStore({ counters: 2, dataDir, sandboxOptions: { orderCount: 6 }, host: { hubTuning: { awayAfterMs: 3_000 } } });
  cleanup.add(() => store.close());
  // As a manager does in Settings -> Chain on the hub PC: a PIN, then the link.
  const host = store.counters[0]!.host;
  const pin = await host.handle('pin.set', { newPin: '2468' });
  if (!pin.ok) throw new Error(pin.problem.message);
  const linked = await host.handle('chain.link', { pin: '2468', link: { storeId, url: central.leafUrl, credentials: null, ca: null } });
  if (!linked.ok) throw new Error(linked.problem.message);
  await until(`${storeId}'s counters back on their hub`, () => store.counters.every((c) => c.host.hub.status().mode === 'connected'), 30_000, 200);
  const code = parseJoinCode(store.joinCode);
  if (!code.ok) throw new Error(code.message);
  const joined = await connectHub(code.code, { name: 'isolation counter' });
  if (!joined.ok) throw new Error(joined.problem.message);
  cleanup.add(() => joined.connection.close());
  return { storeId, store, counter: joined.connection.nc, hubDir: join(dataDir, 'counter-1', 'environments', 'training') };
}

export interface IsolationWorld {
  readonly central: Central;
  readonly a: LinkedStore;
  readonly b: LinkedStore;
  readonly principals: readonly (Principal & { readonly role: Role })[];
  readonly side: StoreSide;
}

/** Who tries: a counter of the store under test, the centre, a counter of another store, the fleet page's client. */
export type Role = 'this-counter' | 'centre' | 'other-counter' | 'fleet-page';

/** The world: the centre, store-a (under test) and store-b, both sourced, and the four principals. */
export async function startIsolationWorld(cleanup: Cleanup): Promise<IsolationWorld> {
  const central = await startCentral(cleanup);
  const a = await linkedStore(cleanup, central, 'store-a');
  const b = await linkedStore(cleanup, central, 'store-b');
  const quiet = { env: {}, write: () => undefined, writeError: () => undefined, now: Date.now };
  await runFleet(['stores', 'add', 'store-a', 'store-b', '--server', central.server.url], quiet);
  await until('both stores heard at the centre', async () => {
    const reading = await readFleet(central.nc).catch(() => null);
    return reading !== null && ['store-a', 'store-b'].every((s) => reading.latest.some((m) => m.message.storeId === s));
  }, 60_000, 500);
  const page = await connect({ servers: central.server.url });
  cleanup.add(() => page.close());
  // Each principal's one path to store-a's hub, for `inOrder`: a counter of the store is on the hub itself (its
  // own round trip); the centre and the page reach it by its link. A counter of store-b could only go by store-b's
  // link, the centre and store-a's link: its own round trip (store-b's hub has passed on what it sent), one through
  // store-b's link (the centre has), one through store-a's link (store-a's hub has it); then back the same way.
  const viaLink = (nc: NatsConnection) => () => throughLink(nc, a.storeId);
  const viaCentre = async (): Promise<void> => {
    await b.counter.flush();
    await throughLink(central.nc, b.storeId);
    await throughLink(central.nc, a.storeId);
    await throughLink(central.nc, b.storeId);
    await b.counter.flush();
  };
  const principals = [
    { role: 'this-counter' as const, name: 'a counter of this store', nc: a.counter, api: '$JS.API', inOrder: () => a.counter.flush() },
    { role: 'centre' as const, name: 'the centre', nc: central.nc, api: `$JS.${a.storeId}.API`, inOrder: viaLink(central.nc) },
    { role: 'other-counter' as const, name: 'a counter of another store', nc: b.counter, api: `$JS.${a.storeId}.API`, inOrder: viaCentre },
    { role: 'fleet-page' as const, name: 'the fleet page’s client', nc: page, api: `$JS.${a.storeId}.API`, inOrder: viaLink(page) },
  ];
  return { central, a, b, principals, side: storeSide(a, central.nc) };
}

const decode = (data: Uint8Array): string => new TextDecoder().decode(data);

/** The stream sequence a push consumer's message carries in its reply subject ($JS.ACK.<stream>.<consumer>.<n>.<stream seq>.…). */
function streamSequenceOf(reply: string | undefined): number {
  const tokens = (reply ?? '').split('.');
  // Nine tokens in nats-server 2.9; a newer server adds the domain and account hash after ACK (and a token at the end).
  const sequence = Number(tokens.length === 9 ? tokens[5] : tokens.length >= 11 ? tokens[7] : Number.NaN);
  if (!tokens[0]?.startsWith('$JS') || !Number.isSafeInteger(sequence)) throw new Error(`a watched message without a stream sequence in its reply subject: ${reply ?? 'none'}`);
  return sequence;
}

/** How the test acts and judges as store-a itself. */
function storeSide(a: LinkedStore, centre: NatsConnection): StoreSide {
  const kvm = new Kvm(jetstream(a.counter, { timeout: 2_000 }));
  const buckets = new Map<string, Promise<KV>>();
  const bucket = (name: string): Promise<KV> => {
    if (!buckets.has(name)) buckets.set(name, kvm.open(name));
    return buckets.get(name)!;
  };
  const subjects = (target: HubDeclaration): string => (target.kind === 'bucket' ? `$KV.${target.name}.>` : `${target.prefix}.${a.storeId}${target.below ? '.>' : ''}`);
  const consumersOf = async (target: HubDeclaration): Promise<string[]> => {
    const account = target.kind === 'bucket' ? 'STORE' : 'CHAIN';
    const detail = (await jsz(a)).account_details?.find((d) => d.name === account)?.stream_detail?.find((s) => s.name === streamOf(target));
    return (detail?.consumer_detail ?? []).map((c) => c.name);
  };
  /** One watch of `stream` by the centre while `act` runs and the store's sentinel follows it. */
  const watchOnce = async (stream: string, text: string, act: () => Promise<void>): Promise<'kept' | 'not kept' | 'unsure'> => {
    const inbox = createInbox();
    let kept = false;
    const seen = new Map<string, number>();
    const sequences = new Set<number>();
    const sub = centre.subscribe(inbox, {
      callback: (_e, m) => {
        const data = decode(m.data);
        const sequence = streamSequenceOf(m.reply);
        seen.set(data, sequence);
        sequences.add(sequence);
        if (data.includes(text)) kept = true;
      },
    });
    const reply = await centre.request(`$JS.${a.storeId}.API.CONSUMER.CREATE.${stream}`, JSON.stringify({ stream_name: stream, config: { deliver_subject: inbox, ack_policy: 'none', deliver_policy: 'new', inactive_threshold: 5_000_000_000 } }), { timeout: 2_000 });
    const made = JSON.parse(decode(reply.data)) as { name?: string; delivered?: { stream_seq?: number }; error?: { description?: string } };
    if (!made.name) {
      sub.unsubscribe();
      // Without the centre's own consumer nothing could be seen kept: said, not judged refused.
      throw new Error(`the centre could not watch ${stream}: ${made.error?.description ?? 'no consumer was made'}`);
    }
    const from = made.delivered?.stream_seq ?? 0;
    try {
      await act();
      // Then the store's own counter feeds the stream: once its message is delivered here, one the act stored would have been (the stream keeps order).
      const sentinel = `sentinel ${createInbox()}`;
      const target = HUB_REGISTRY.find((d) => d.kind !== 'bucket' && d.name === stream);
      if (!target) throw new Error(`${stream} is not a chain stream of the registry`);
      a.counter.publish(subjects(target).replace(/\.>$/, '.counter.isolation'), sentinel);
      await a.counter.flush();
      await until(`the store's own message through ${stream}`, () => seen.has(sentinel), 10_000, 20);
      if (kept) return 'kept';
      const upTo = seen.get(sentinel)!;
      for (let sequence = from + 1; sequence < upTo; sequence += 1) if (!sequences.has(sequence)) return 'unsure';
      return 'not kept';
    } finally {
      sub.unsubscribe();
      centre.publish(`$JS.${a.storeId}.API.CONSUMER.DELETE.${stream}.${made.name}`, '');
    }
  };
  return {
    storeId: a.storeId,
    bucket,
    subjects,
    async chainKeeps(stream, text, act) {
      // A stream keeping one message a subject (the open orders) drops the act's message once the
      // sentinel (or the hub PC's refill) is stored after it: if that happens before the consumer
      // delivered it, the act looks refused. So the stream sequences delivered are kept (from each
      // message's reply subject), and a round with a gap before the sentinel says nothing: tried again.
      for (let round = 1; round <= 3; round += 1) {
        const verdict = await watchOnce(stream, text, act);
        if (verdict !== 'unsure') return verdict === 'kept';
      }
      throw new Error(`${stream}: three rounds each lost a message before the centre's watch saw it`);
    },
    async victimConsumer(target) {
      const owner = target.kind === 'bucket' ? { nc: a.counter, api: '$JS.API' } : { nc: centre, api: `$JS.${a.storeId}.API` };
      const stream = streamOf(target);
      const reply = await owner.nc.request(`${owner.api}.CONSUMER.CREATE.${stream}`, JSON.stringify({ stream_name: stream, config: { deliver_subject: createInbox(), ack_policy: 'none', inactive_threshold: 60_000_000_000 } }), { timeout: 2_000 });
      const name = (JSON.parse(decode(reply.data)) as { name?: string }).name;
      if (!name) throw new Error(`no victim consumer on ${stream}`);
      return name;
    },
    consumerExists: async (target, name) => (await consumersOf(target)).includes(name),
    async feed(target, text) {
      if (target.kind === 'bucket') await (await bucket(target.name)).put('feed', text);
      else a.counter.publish(subjects(target).replace(/\.>$/, '.counter.isolation'), text);
      await a.counter.flush();
    },
  };
}

/** Puts the marker into every bucket and a message into every chain stream, as the store itself does. */
export async function markEverything(world: IsolationWorld, targets: readonly HubDeclaration[]): Promise<void> {
  for (const target of targets) {
    if (target.kind === 'bucket') await (await world.side.bucket(target.name)).put(MARKER_KEY, 'marker');
    else await world.side.feed(target, 'marker');
  }
}
