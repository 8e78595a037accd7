/**
 * Opening a hub bucket and watching it, and the one revision-conflict check: the one place the
 * store's rules (claims, taps, presence, the lease, shared orders, names, records ...) reach a KV
 * bucket from. They hold a `Bucket` and its `BucketEntry`s and never the client's managers, so a
 * change of client or of how buckets are made is made here. A watch on the hub ends for good only when asked to: the client's ordered consumer
 * survives a restarted hub by itself, and should its iterator end anyway the watch is opened again
 * after a pause.
 */
import { jetstream, jetstreamManager, type JetStreamClient, JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { type KV, type KvEntry, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Timers } from '../../time';
import type { BucketDeclaration } from '../registry';

/** The hub connection as the rules pass it around (they only hand it back to this folder). */
export type { NatsConnection };
/**
 * A KV bucket on the hub, as far as the rules use one: read, create (only if absent), update at a
 * revision, put, delete, its status, a watch. Nothing else of the client (purge, destroy, history,
 * and its listing of keys, which can leave a key out or never end: `bucketKeys` instead) is within
 * their reach.
 */
export type Bucket = Pick<KV, 'get' | 'create' | 'update' | 'put' | 'delete' | 'status' | 'watch'>;
/** One value of a bucket as read or watched: its key, revision, operation, the hub's stamp, its text. */
export type BucketEntry = KvEntry;
/**
 * What a bucket is opened through: the connection, a JetStream client, or a KV manager (the lease's
 * tests hand it one whose writes lose their answers, as a loaded hub does).
 */
export type BucketSource = Kvm | NatsConnection | JetStreamClient;

/**
 * How long a write waits for the hub before it is counted as not done. Short: a packer waits on a
 * claim, and a write that timed out is never replayed by the client anyway (the store-hub spec).
 */
export const WRITE_TIMEOUT_MS = 2_000;
/** The client's own deadline for a JetStream call: kept by the reads that never asked for a shorter one (names, `hub status`). */
export const CLIENT_TIMEOUT_MS = 5_000;

/**
 * Opens a bucket the registry declares, creating it as declared (its history and max age) the first
 * time. Only a declaration opens one: the hub holds no bucket registry.ts does not name.
 */
export async function openBucket(nc: NatsConnection, bucket: BucketDeclaration, timeoutMs = WRITE_TIMEOUT_MS): Promise<Bucket> {
  const js = jetstream(nc, { timeout: timeoutMs });
  return new Kvm(js).create(bucket.name, { history: bucket.history, ttl: bucket.maxAgeMs });
}

/**
 * A bucket as the hub holds it, never made here: a look (a one-off command, another counter's
 * state) makes nothing. Rejects when no counter has made it yet (isMissingBucket says so).
 */
export async function openExistingBucket(nc: NatsConnection, name: string, timeoutMs = WRITE_TIMEOUT_MS): Promise<Bucket> {
  return new Kvm(jetstream(nc, { timeout: timeoutMs })).open(name);
}

/**
 * Every key that has a value in the bucket now, from the hub's own count of the bucket's subjects:
 * one answer, a snapshot. Not the client's `keys()`, which lists through a live consumer that stops
 * at the first moment nothing is pending: a key written again while it lists (a counter's presence,
 * every half second) loses its old value before the consumer reaches it, and its new one may come
 * after the listing ended, so that counter is left out (seen in the session test under load: two of
 * three counters listed). A deleted key is still named here; its read says it was deleted.
 * Rejects as `openExistingBucket` does when no counter has made the bucket yet.
 */
export async function bucketKeys(nc: NatsConnection, name: string, timeoutMs = WRITE_TIMEOUT_MS): Promise<string[]> {
  const jsm = await jetstreamManager(nc, { timeout: timeoutMs });
  const prefix = `$KV.${name}.`;
  const info = await jsm.streams.info(`KV_${name}`, { subjects_filter: `${prefix}>` });
  return Object.keys(info.state.subjects ?? {})
    .filter((subject) => subject.startsWith(prefix))
    .map((subject) => subject.slice(prefix.length));
}

/** No counter has made this bucket yet: it holds nothing (not an error for a reader). */
export function isMissingBucket(error: unknown): boolean {
  return error instanceof Error && /stream not found/i.test(error.message);
}

/**
 * A bucket opened (made as declared the first time) when first asked for, and again after a
 * failure: rules that run on a timer whether or not the hub answers (the lease, shared orders) ask
 * on each tick and never hold a failed open. `name` stands in for the declared one (tests run
 * several stores on one server); `timeoutMs` is the deadline of a write.
 */
export function reopeningBucket(source: BucketSource, bucket: BucketDeclaration, options: { readonly name?: string; readonly timeoutMs: number }): () => Promise<Bucket> {
  const kvm = source instanceof Kvm ? source : new Kvm(source);
  let opened: Promise<Bucket> | null = null;
  return () => {
    opened ??= kvm.create(options.name ?? bucket.name, { history: bucket.history, ttl: bucket.maxAgeMs, timeout: options.timeoutMs }).catch((e: unknown) => {
      opened = null;
      throw e;
    });
    return opened;
  };
}

/**
 * The hub refused a revision-checked write because the key moved on (another counter wrote first).
 * The one such check for every bucket (claims, conflicts, the lease, shared orders); a client error
 * that only says so in words counts too.
 */
export function isRevisionConflict(error: unknown): boolean {
  if (error instanceof JetStreamApiError)
    return error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown;
  return error instanceof Error && /wrong last sequence/i.test(error.message);
}

/** A watch that stops when asked. */
export interface BucketWatch {
  stop(): void;
}

/**
 * Calls `onEntry` for every current value of the bucket, then for every change, until stopped.
 * `onEntry` must be idempotent: after a reopened watch the current values come again.
 */
export function watchBucket(kv: Bucket, onEntry: (entry: BucketEntry, isUpdate: boolean) => void, timers: Timers, reopenAfterMs = 1_000): BucketWatch {
  let stopped = false;
  let current: { stop(): void } | null = null;
  let pause: { timer: unknown; resolve: () => void } | null = null;
  const run = async (): Promise<void> => {
    while (!stopped) {
      try {
        const it = await kv.watch({ key: '>' });
        current = it;
        if (stopped) it.stop();
        for await (const entry of it) onEntry(entry, entry.isUpdate);
      } catch {
        // The hub away while opening the watch: try again after the pause.
      }
      current = null;
      if (stopped) return;
      await new Promise<void>((resolve) => {
        pause = { timer: timers.setTimeout(resolve, reopenAfterMs), resolve };
      });
      pause = null;
    }
  };
  void run();
  return {
    stop() {
      stopped = true;
      if (pause) {
        timers.clearTimeout(pause.timer);
        pause.resolve();
      }
      current?.stop();
    },
  };
}
