/**
 * Every tap seen everywhere: each counter puts its own taps (waiting, then sent, failed or
 * discarded) into one bucket, keyed by counter and request id, and watches the others' into a view
 * by order. The hub never holds the only copy: a counter's outbox sends its own taps, and a write
 * made while the hub was away is not replayed by the client, so after any failed write, and
 * whenever the connection comes back, the counter's own taps (its outbox's word, `ownTaps`) are put
 * again until the hub takes them. Puts are keyed, so putting again never doubles a tap.
 */
import { type SharedTap, sharedTapSchema } from '../../../shared/hub';
import { every, systemTimers, type Timers, TimerSlot } from '../time';
import { type Bucket, type BucketEntry, type BucketWatch, type NatsConnection, openBucket, watchBucket } from './nats/buckets';
import { keyOf } from './keys';
import type { HubEvent } from './ports';
import { HUB_BUCKETS, TAPS_BUCKET } from './registry';

export { TAPS_BUCKET };
/**
 * The hub forgets a tap a day after its last write. A shift is well under a day, and what another
 * counter needs of a tap is "waiting" until it is sent and "sent" for a while after; a tap still
 * waiting is put again every REFRESH_MS, so it never ages out while it matters.
 */
export const TAPS_MAX_AGE_MS = HUB_BUCKETS.taps.maxAgeMs;
/** How often this counter puts its own taps again, well inside TAPS_MAX_AGE_MS. */
const REFRESH_MS = 6 * 3_600_000;
/** How often the view drops taps it has not heard of for TAPS_MAX_AGE_MS (the hub's expiry raises no event). */
const PRUNE_MS = 3_600_000;
/** The pause before putting this counter's taps again after a write failed. */
const DEFAULT_RETRY_MS = 1_000;

/** What the shared taps tell the counter: another counter's tap appeared or changed. */
export type TapEvent = Extract<HubEvent, { kind: 'tap' }>;

export interface SharedTapsOptions {
  readonly counter: { readonly counterId: string };
  /** This counter's taps the hub should show: its outbox is the truth, put again after the hub was away. */
  readonly ownTaps: () => readonly SharedTap[];
  readonly now: () => number;
  readonly timers?: Timers;
  readonly retryMs?: number;
}

/** The store's taps as this counter shares and sees them. */
export interface SharedTaps {
  /** Puts one of this counter's taps on the hub; false when the hub did not take it (all are put again later). */
  publish(tap: SharedTap): Promise<boolean>;
  /** Puts every tap `ownTaps` gives now, one by one; stops at the first failure and tries again later. */
  republish(): Promise<{ readonly published: number; readonly failed: boolean }>;
  /** Other counters' taps on an order, oldest first, as last heard. */
  tapsOf(orderId: string): readonly SharedTap[];
  on(listener: (event: TapEvent) => void): () => void;
  close(): void;
}

interface Heard {
  readonly tap: SharedTap;
  /** When this counter heard it (its own clock). */
  readonly heardAt: number;
}

/** The key of a counter's tap: the counter's id (a key-safe token), then the request id. */
export function tapKey(counterId: string, requestId: string): string {
  return `${counterId}.${keyOf(requestId)}`;
}

/** Opens (creating if needed) the taps bucket on the hub, watches it, and puts this counter's taps again whenever the connection returns. */
export async function openSharedTaps(nc: NatsConnection, options: SharedTapsOptions): Promise<SharedTaps> {
  const kv = await openBucket(nc, HUB_BUCKETS.taps);
  const taps = sharedTapsOver(kv, options);
  let closed = false;
  void (async () => {
    for await (const status of nc.status()) {
      if (closed) return;
      if (status.type === 'reconnect') void taps.republish();
    }
  })();
  return {
    ...taps,
    close() {
      closed = true;
      taps.close();
    },
  };
}

/** Shared taps over an open bucket. */
export function sharedTapsOver(kv: Bucket, options: SharedTapsOptions): SharedTaps {
  const { counter, now, ownTaps } = options;
  const timers = options.timers ?? systemTimers;
  const listeners = new Set<(event: TapEvent) => void>();
  /** Other counters' taps by order id, then by key. */
  const byOrder = new Map<string, Map<string, Heard>>();
  let closed = false;
  let running: Promise<{ published: number; failed: boolean }> | null = null;
  let again = false;
  /**
   * Counts publishes; each request's last publish is noted with the count, so a republish working
   * from an earlier list of the outbox does not put an older word over a newer one.
   */
  let publishes = 0;
  const lastPublished = new Map<string, number>();

  const retry = new TimerSlot(timers, now, () => void republish(), { keepAlive: false });

  const heard = (entry: BucketEntry): void => {
    const [counterId] = entry.key.split('.');
    if (counterId === counter.counterId) return;
    if (entry.operation !== 'PUT') {
      for (const [orderId, taps] of byOrder) {
        if (taps.delete(entry.key) && taps.size === 0) byOrder.delete(orderId);
      }
      return;
    }
    let tap: SharedTap;
    try {
      const parsed = sharedTapSchema().safeParse(entry.json());
      if (!parsed.success || parsed.data.counterId !== counterId || tapKey(counterId, parsed.data.requestId) !== entry.key) return;
      tap = parsed.data;
    } catch {
      return;
    }
    const taps = byOrder.get(tap.orderId) ?? new Map<string, Heard>();
    byOrder.set(tap.orderId, taps);
    const before = taps.get(entry.key);
    taps.set(entry.key, { tap, heardAt: now() });
    // Put again unchanged (after the hub was away, or to keep it from ageing out): nothing new to say.
    if (before && JSON.stringify(before.tap) === JSON.stringify(tap)) return;
    for (const listener of listeners) listener({ kind: 'tap', tap });
  };

  const put = async (tap: SharedTap): Promise<void> => {
    await kv.put(tapKey(counter.counterId, tap.requestId), JSON.stringify(tap));
  };

  const republishOnce = async (): Promise<{ published: number; failed: boolean }> => {
    let published = 0;
    const listedAt = publishes;
    lastPublished.clear();
    for (const tap of ownTaps()) {
      if (closed) break;
      if (!sharedTapSchema().safeParse(tap).success) continue;
      // Published since the list was read: the hub has a newer word than this one.
      if ((lastPublished.get(tap.requestId) ?? -1) >= listedAt) continue;
      try {
        await put(tap);
        published += 1;
      } catch {
        // The hub away (or not ready yet after a restart): one failed write says so; try all again later.
        if (!closed) retry.arm(options.retryMs ?? DEFAULT_RETRY_MS);
        return { published, failed: true };
      }
    }
    return { published, failed: false };
  };

  /** One republish at a time; a call during one runs once more after it, with the outbox's word then. */
  const republish = async (): Promise<{ published: number; failed: boolean }> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let result = await republishOnce();
      while (again && !result.failed && !closed) {
        again = false;
        result = await republishOnce();
      }
      again = false;
      return result;
    })();
    try {
      return await running;
    } finally {
      running = null;
    }
  };

  const watch: BucketWatch = watchBucket(kv, heard, timers);
  const stopRefresh = every(timers, REFRESH_MS, () => void republish());
  const stopPrune = every(timers, PRUNE_MS, () => {
    const oldest = now() - TAPS_MAX_AGE_MS;
    for (const [orderId, taps] of byOrder) {
      for (const [key, { heardAt }] of taps) if (heardAt < oldest) taps.delete(key);
      if (taps.size === 0) byOrder.delete(orderId);
    }
  });

  return {
    async publish(tap) {
      // A tap that does not fit the shared shape is this counter's bug, not the hub being away: say so.
      sharedTapSchema().parse(tap);
      lastPublished.set(tap.requestId, publishes++);
      try {
        await put(tap);
        return true;
      } catch {
        if (!closed) retry.arm(options.retryMs ?? DEFAULT_RETRY_MS);
        return false;
      }
    },

    republish,

    tapsOf(orderId) {
      const taps = [...(byOrder.get(orderId)?.values() ?? [])].map((h) => h.tap);
      return taps.sort((a, b) => a.queuedAt - b.queuedAt || (a.requestId < b.requestId ? -1 : 1));
    },

    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    close() {
      closed = true;
      retry.clear();
      stopRefresh();
      stopPrune();
      watch.stop();
      listeners.clear();
    },
  };
}
