/**
 * The isolation matrix's operations: each tries one thing against one thing the store hub keeps
 * (a bucket or a chain stream from the registry), as one principal, over real NATS, and reports
 * whether it was ALLOWED (it had its effect: data came back, a value changed, a stream went) or
 * refused (no responders, an error, or no effect). An operation is judged by its effect, never by
 * an answer alone: a write "accepted" that changed nothing is refused.
 */
import { createInbox, headers, type NatsConnection } from '@nats-io/transport-node';
import type { KV } from '@nats-io/kv';
import { bucketStream, type HubDeclaration } from '../../../src/main/core/hub/registry';
import { until } from '../../support/until';

export type Outcome = { readonly allowed: boolean; readonly how: string };
const allowed = (how: string): Outcome => ({ allowed: true, how });
const refused = (how: string): Outcome => ({ allowed: false, how });

export interface Principal {
  readonly name: string;
  readonly nc: NatsConnection;
  /** The JetStream API prefix this principal reaches the store with (`$JS.API` at home, `$JS.<store>.API` from afar). */
  readonly api: string;
  /**
   * A round trip along this principal's one path to the store's hub: when it is back, whatever the
   * principal sent before has reached the hub (as far as it goes at all), and whatever the hub sent
   * the principal before has arrived. What the probes wait for instead of a fixed time.
   */
  inOrder(): Promise<void>;
}

/** What the test gives the probes to set things up and to judge effects, as the store itself. */
export interface StoreSide {
  readonly storeId: string;
  /** The store's own buckets, opened by one of its counters. */
  bucket(name: string): Promise<KV>;
  /** Whether a message holding `text` is kept by a chain stream while `act` runs (watched as the centre does, from now on). */
  chainKeeps(stream: string, text: string, act: () => Promise<void>): Promise<boolean>;
  /** Makes a consumer on the target's stream as its owner would (a counter for a bucket, the centre for a chain stream); returns its name. */
  victimConsumer(target: HubDeclaration): Promise<string>;
  /** Whether that consumer still exists (asked as its owner). */
  consumerExists(target: HubDeclaration, name: string): Promise<boolean>;
  /** Puts a fresh value on the target as the store does; for a bucket, back once the bucket has stored it (so also whatever reached the hub before it). */
  feed(target: HubDeclaration, text: string): Promise<void>;
  /** The subject (or wildcard) the target's traffic travels on. */
  subjects(target: HubDeclaration): string;
}

export const streamOf = (target: HubDeclaration): string => (target.kind === 'bucket' ? bucketStream(target.name) : target.name);
export const MARKER_KEY = 'isolation-marker';

const decode = (data: Uint8Array): string => new TextDecoder().decode(data);

/**
 * A round trip from `nc` at the centre through a store's link to its hub's JetStream API and back,
 * with what the link lets through (a plain consumer create), for a stream the hub does not have, so
 * it makes nothing: its "stream not found" can only come from the hub. One connection and one link
 * keep their order each way, and nats-server 2.9 takes what comes over a link for its JetStream API
 * in one queue, in order: so whatever `nc` sent the hub before has reached it (and a request of it
 * has been handled), and whatever the hub sent `nc` over the link before has arrived. Not
 * fleet-world's roundTripThrough: that makes a consumer each time, and the probes run fifteen side by
 * side against the chain account's limit of 32.
 */
export async function throughLink(nc: NatsConnection, storeId: string): Promise<void> {
  const reply = await nc.request(`$JS.${storeId}.API.CONSUMER.CREATE.ISOLATION_NO_SUCH_STREAM`, JSON.stringify({ stream_name: 'ISOLATION_NO_SUCH_STREAM', config: { deliver_subject: createInbox(), ack_policy: 'none' } }), { timeout: 5_000 });
  const answer = ((): { error?: { err_code?: number } } => {
    try {
      return JSON.parse(decode(reply.data)) as { error?: { err_code?: number } };
    } catch {
      return {};
    }
  })();
  if (answer.error?.err_code !== STREAM_NOT_FOUND) throw new Error(`no round trip through ${storeId}'s link: ${decode(reply.data).slice(0, 80)}`);
}
/** JetStream's error code for "stream not found". */
const STREAM_NOT_FOUND = 10059;

/** A request whose answer is JSON; "no responders", a timeout and an error answer are all refusals, in words. */
async function api(p: Principal, subject: string, body: unknown): Promise<{ ok: true; json: Record<string, unknown> } | { ok: false; how: string }> {
  try {
    const reply = await p.nc.request(subject, body === '' ? '' : JSON.stringify(body), { timeout: 1_500 });
    const text = decode(reply.data);
    if (text === '') return { ok: false, how: `empty answer (${reply.headers?.code ?? '?'})` };
    const json = JSON.parse(text) as Record<string, unknown> & { error?: { description?: string } };
    if (json.error) return { ok: false, how: json.error.description ?? 'error' };
    return { ok: true, json };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, how: /no responders/i.test(message) ? 'no responders' : /timeout/i.test(message) ? 'no answer' : message.slice(0, 60) };
  }
}

/**
 * Reads by an ephemeral push consumer: allowed when a message is delivered. The subscription's
 * interest goes ahead of the create on the same path, so the hub's answer says whether anyone will
 * be delivered to (`push_bound`): when nobody is, nothing can come; when we are, the stream's
 * messages are on their way and are waited for.
 */
export async function readByConsumer(p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> {
  const stream = streamOf(target);
  const inbox = createInbox();
  let delivered = false;
  const sub = p.nc.subscribe(inbox, {
    max: 1,
    callback: () => {
      delivered = true;
    },
  });
  const made = await api(p, `${p.api}.CONSUMER.CREATE.${stream}`, { stream_name: stream, config: { deliver_subject: inbox, ack_policy: 'none', deliver_policy: 'all', inactive_threshold: 5_000_000_000 } });
  if (!made.ok) {
    sub.unsubscribe();
    return refused(made.how);
  }
  const name = String(made.json.name);
  const bound = made.json.push_bound === true;
  // Nothing to deliver (an empty stream): the store puts something in, as it would.
  if (bound && !delivered && !made.json.num_pending) await side.feed(target, `for ${p.name}'s consumer`);
  // The bound is only against a hang: the hub has a listener and something to send, so it comes.
  if (bound) await until(`a message from ${name} on ${stream} for ${p.name}`, () => delivered, 10_000).catch(() => undefined);
  sub.unsubscribe();
  await api(p, `${p.api}.CONSUMER.DELETE.${stream}.${name}`, '');
  return delivered ? allowed('delivered') : refused(bound ? 'made and bound, nothing delivered' : 'made, nobody to deliver to');
}

/** Makes a durable consumer: allowed when it exists afterwards. */
export async function durableConsumer(p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> {
  const stream = streamOf(target);
  const name = `probe-${p.name.replace(/\W+/g, '-')}`;
  const config = { durable_name: name, deliver_subject: createInbox(), ack_policy: 'none' };
  const made = await api(p, `${p.api}.CONSUMER.DURABLE.CREATE.${stream}.${name}`, { stream_name: stream, config });
  const again = made.ok ? made : await api(p, `${p.api}.CONSUMER.CREATE.${stream}`, { stream_name: stream, config });
  if (!again.ok) return refused(again.how);
  return (await side.consumerExists(target, name)) ? allowed('durable made') : refused('answered but no durable');
}

/** A direct get of the newest value: allowed when data comes back. */
export async function directGet(p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> {
  try {
    const reply = await p.nc.request(`${p.api}.DIRECT.GET.${streamOf(target)}`, JSON.stringify({ last_by_subj: markerSubject(target, side) }), { timeout: 1_500 });
    return reply.data.length > 0 && !reply.headers?.hasError ? allowed('data') : refused(`status ${reply.headers?.code ?? '?'}`);
  } catch (error) {
    return refused(/no responders/i.test(String(error)) ? 'no responders' : 'no answer');
  }
}

/** A message get through the stream API: allowed when a message comes back. */
export async function messageGet(p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> {
  const got = await api(p, `${p.api}.STREAM.MSG.GET.${streamOf(target)}`, { last_by_subj: markerSubject(target, side) });
  return got.ok && got.json.message ? allowed('message') : refused(got.ok ? 'no message' : got.how);
}

/** A plain subscription on the target's subjects while the store writes: allowed when anything arrives. */
export async function plainSubscription(p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> {
  // Only the store's own write counts: a principal of another store hears its own store's traffic on the same names.
  const text = `subscription probe by ${p.name} ${Math.random()}`;
  let seen = 0;
  // Counted as each message is read off the connection, so before anything read after it.
  const sub = p.nc.subscribe(side.subjects(target), {
    callback: (_e, m) => {
      if (decode(m.data).includes(text)) seen += 1;
    },
  });
  // The subscription's interest has gone as far towards the hub as it will...
  await p.inOrder();
  await side.feed(target, text);
  // ...and what the hub sent on it before this round trip's answer is here.
  await p.inOrder();
  sub.unsubscribe();
  return seen > 0 ? allowed(`${seen} heard`) : refused('nothing heard');
}

function markerSubject(target: HubDeclaration, side: StoreSide): string {
  return target.kind === 'bucket' ? `$KV.${target.name}.${MARKER_KEY}` : side.subjects(target).replace(/\.>$/, '.counter.isolation');
}

/**
 * A put the way a bucket or stream is written, on its own subject (or through the domain): allowed
 * when the value landed. What refuses it on a bucket from outside (server/accounts.ts), and that this
 * probe says ALLOWED once a write lands: test/fleet/bucket-writes.test.ts.
 */
export async function put(p: Principal, target: HubDeclaration, side: StoreSide, via: 'subject' | 'domain', rollup = false): Promise<Outcome> {
  const key = `probe-${via}${rollup ? '-rollup' : ''}-${p.name.replace(/\W+/g, '-')}`;
  const text = `${key} written by ${p.name}`;
  const h = headers();
  if (rollup) h.set('Nats-Rollup', 'all');
  const subject =
    target.kind === 'bucket'
      ? via === 'domain'
        ? `${p.api}.$KV.${target.name}.${key}`
        : `$KV.${target.name}.${key}`
      : side.subjects(target).replace(/\.>$/, `.counter.${key}`);
  const publish = async (): Promise<void> => {
    p.nc.publish(subject, text, { headers: h });
    await p.inOrder();
  };
  // A chain stream may keep one message a subject, refilled by the hub PC: watched while it happens.
  if (target.kind !== 'bucket') return (await side.chainKeeps(target.name, text, publish)) ? allowed('message kept') : refused('no effect');
  await publish();
  // The store's own later write: once the bucket has stored it, it has stored what reached the hub before it.
  await side.feed(target, `after ${key}`);
  {
    const entry = await (await side.bucket(target.name)).get(key);
    return entry?.operation === 'PUT' && entry.string() === text ? allowed('value landed') : refused('no effect');
  }
}

/** Deletes the marker key the KV way (a delete marker): allowed when the marker is gone. */
export async function deleteKey(p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> {
  if (target.kind !== 'bucket') return refused('not a bucket');
  const h = headers();
  h.set('KV-Operation', 'DEL');
  p.nc.publish(`$KV.${target.name}.${MARKER_KEY}`, '', { headers: h });
  await p.inOrder();
  await side.feed(target, 'after a delete'); // stored in order after the delete, if the delete reached the bucket
  const kv = await side.bucket(target.name);
  const entry = await kv.get(MARKER_KEY);
  const gone = entry === null || entry.operation !== 'PUT';
  if (gone) await kv.put(MARKER_KEY, 'marker');
  return gone ? allowed('marker deleted') : refused('no effect');
}

/** Stream info, names and list: allowed when the answer shows the stream. */
export async function streamAdminRead(p: Principal, target: HubDeclaration, kind: 'info' | 'names' | 'list'): Promise<Outcome> {
  const stream = streamOf(target);
  const subject = kind === 'info' ? `${p.api}.STREAM.INFO.${stream}` : kind === 'names' ? `${p.api}.STREAM.NAMES` : `${p.api}.STREAM.LIST`;
  const got = await api(p, subject, kind === 'info' ? '' : {});
  if (!got.ok) return refused(got.how);
  const text = JSON.stringify(got.json);
  return text.includes(`"${stream}"`) ? allowed('shown') : refused('not shown');
}

/** The consumers of the target's stream: allowed when answered. */
export async function consumerList(p: Principal, target: HubDeclaration): Promise<Outcome> {
  const got = await api(p, `${p.api}.CONSUMER.LIST.${streamOf(target)}`, {});
  return got.ok ? allowed('listed') : refused(got.how);
}

/** Deletes a consumer its owner made: allowed when it is gone. */
export async function consumerDelete(p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> {
  const name = await side.victimConsumer(target);
  await api(p, `${p.api}.CONSUMER.DELETE.${streamOf(target)}.${name}`, '');
  return (await side.consumerExists(target, name)) ? refused('still there') : allowed('deleted');
}

/**
 * A put that rolls everything else up (`Nats-Rollup: all`): allowed when it landed and, for a
 * bucket, what the bucket held is gone (a chain stream takes no rollup at all: its landing is enough).
 */
export async function rollup(p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> {
  const landed = await put(p, target, side, 'subject', true);
  if (!landed.allowed) return landed;
  if (target.kind !== 'bucket') return allowed('rollup message kept');
  if ((await holding(target, side)) !== 'no marker') return refused('landed, rolled nothing up');
  // The marker went with the rollup: put back, so that the purge tried after this is judged by its own
  // effect (with outside bucket writes let through on purpose, purges answered "no responders" came out
  // "purged" on a marker this rollup had taken).
  await (await side.bucket(target.name)).put(MARKER_KEY, 'marker');
  return allowed('rolled up');
}

/**
 * Purges or deletes the target's stream: allowed when the store's server answered that it did, or
 * when the bucket's marker (or the bucket) is gone. A chain stream is judged by the answer alone:
 * the hub PC refills its open-orders list by itself, so its contents cannot tell. Destructive.
 */
async function streamAdminWrite(p: Principal, target: HubDeclaration, side: StoreSide, verb: 'PURGE' | 'DELETE'): Promise<Outcome> {
  const answer = await api(p, `${p.api}.STREAM.${verb}.${streamOf(target)}`, '');
  if (answer.ok) return allowed(`answered: ${JSON.stringify(answer.json).slice(0, 40)}`);
  if (target.kind !== 'bucket') return refused(answer.how);
  // Had the request reached the hub's JetStream API anyway, it has been handled once this is back.
  await p.inOrder();
  const after = await holding(target, side).catch(() => 'gone');
  const done = verb === 'DELETE' ? after === 'gone' : after !== 'marker';
  return done ? allowed(`${verb.toLowerCase()}d`) : refused(answer.how);
}

/** Purges the target's stream (see streamAdminWrite). Destructive. */
export const purge = (p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> => streamAdminWrite(p, target, side, 'PURGE');

/** Deletes the target's stream (see streamAdminWrite). Destructive. */
export const deleteStream = (p: Principal, target: HubDeclaration, side: StoreSide): Promise<Outcome> => streamAdminWrite(p, target, side, 'DELETE');

/** What a bucket holds, as the store sees it: the marker (nobody but the test writes it; the lease's holder refills its own key at once). */
async function holding(target: HubDeclaration, side: StoreSide): Promise<string> {
  const kv = await side.bucket(target.name);
  await kv.status();
  const entry = await kv.get(MARKER_KEY);
  return entry?.operation === 'PUT' ? 'marker' : 'no marker';
}
