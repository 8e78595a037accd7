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

export type Outcome = { readonly allowed: boolean; readonly how: string };
const allowed = (how: string): Outcome => ({ allowed: true, how });
const refused = (how: string): Outcome => ({ allowed: false, how });

export interface Principal {
  readonly name: string;
  readonly nc: NatsConnection;
  /** The JetStream API prefix this principal reaches the store with (`$JS.API` at home, `$JS.<store>.API` from afar). */
  readonly api: string;
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
  /** The subject a fresh value of this target travels on, and a way to put one as the store does. */
  feed(target: HubDeclaration, text: string): Promise<void>;
  /** The subject (or wildcard) the target's traffic travels on. */
  subjects(target: HubDeclaration): string;
}

export const streamOf = (target: HubDeclaration): string => (target.kind === 'bucket' ? bucketStream(target.name) : target.name);
export const MARKER_KEY = 'isolation-marker';

const decode = (data: Uint8Array): string => new TextDecoder().decode(data);
const settle = (ms = 600): Promise<void> => new Promise((r) => setTimeout(r, ms));

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

/** Reads by an ephemeral push consumer: allowed when a message is delivered. */
export async function readByConsumer(p: Principal, target: HubDeclaration): Promise<Outcome> {
  const stream = streamOf(target);
  const inbox = createInbox();
  const sub = p.nc.subscribe(inbox, { max: 1 });
  const got = (async () => {
    for await (const m of sub) return m.data.length;
    return null;
  })();
  const made = await api(p, `${p.api}.CONSUMER.CREATE.${stream}`, { stream_name: stream, config: { deliver_subject: inbox, ack_policy: 'none', deliver_policy: 'all', inactive_threshold: 5_000_000_000 } });
  if (!made.ok) {
    sub.unsubscribe();
    return refused(made.how);
  }
  const length = await Promise.race([got, settle(1_500).then(() => null)]);
  sub.unsubscribe();
  await api(p, `${p.api}.CONSUMER.DELETE.${stream}.${String(made.json.name)}`, '');
  return length !== null ? allowed('delivered') : refused('made but nothing delivered');
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
  const sub = p.nc.subscribe(side.subjects(target));
  let seen = 0;
  void (async () => {
    for await (const m of sub) if (decode(m.data).includes(text)) seen += 1;
  })();
  await p.nc.flush();
  await settle(300);
  await side.feed(target, text);
  await settle(800);
  sub.unsubscribe();
  return seen > 0 ? allowed(`${seen} heard`) : refused('nothing heard');
}

function markerSubject(target: HubDeclaration, side: StoreSide): string {
  return target.kind === 'bucket' ? `$KV.${target.name}.${MARKER_KEY}` : side.subjects(target).replace(/\.>$/, '.counter.isolation');
}

/** A put the way a bucket or stream is written, on its own subject (or through the domain): allowed when the value landed. */
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
    await p.nc.flush();
    await settle();
  };
  // A chain stream may keep one message a subject, refilled by the hub PC: watched while it happens.
  if (target.kind !== 'bucket') return (await side.chainKeeps(target.name, text, publish)) ? allowed('message kept') : refused('no effect');
  await publish();
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
  await p.nc.flush();
  await settle();
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
  return (await holding(target, side)) === 'no marker' ? allowed('rolled up') : refused('landed, rolled nothing up');
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
  await settle(300);
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
