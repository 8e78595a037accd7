/**
 * Opening a hub bucket and watching it, shared by the claims, shared taps and presence. A watch on
 * the hub ends for good only when asked to: the client's ordered consumer survives a restarted hub
 * by itself, and should its iterator end anyway the watch is opened again after a pause.
 */
import { jetstream, JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { type KV, type KvEntry, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Timers } from '../time';
import type { BucketDeclaration } from './registry';

/**
 * How long a write waits for the hub before it is counted as not done. Short: a packer waits on a
 * claim, and a write that timed out is never replayed by the client anyway (the store-hub spec).
 */
export const WRITE_TIMEOUT_MS = 2_000;

/**
 * Opens a bucket the registry declares, creating it as declared (its history and max age) the first
 * time. Only a declaration opens one: the hub holds no bucket registry.ts does not name.
 */
export async function openBucket(nc: NatsConnection, bucket: BucketDeclaration): Promise<KV> {
  const js = jetstream(nc, { timeout: WRITE_TIMEOUT_MS });
  return new Kvm(js).create(bucket.name, { history: bucket.history, ttl: bucket.maxAgeMs });
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
export function watchBucket(kv: KV, onEntry: (entry: KvEntry, isUpdate: boolean) => void, timers: Timers, reopenAfterMs = 1_000): BucketWatch {
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

/** Whether the connection is up, as its last status said; followed until the connection closes. */
export function connectionState(nc: NatsConnection): { connected(): boolean } {
  let up = !nc.isClosed();
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') up = false;
      if (status.type === 'reconnect') up = true;
    }
    up = false;
  })();
  return { connected: () => up && !nc.isClosed() };
}
