/**
 * The store's intake lease: one key in a bucket of its own, naming the counter whose intake polls
 * the order service for the whole store. Counters' clocks are never compared: the holder renews
 * every second by an `update` at the revision it wrote last, and an observer that has seen no new
 * revision for the lease period, by its own clock, takes the lease with an `update` at the revision
 * it saw (exactly one of several observers wins: the others get "wrong last sequence"). A holder
 * whose renewal fails or times out (2 s), or that has had none succeed for the lease less two
 * renewal periods (3 s, counted from when it was sent), stops holding at once, before anything else
 * happens: a tick before any observer may take the lease, so two intakes never poll together.
 * A write whose answer never came may still have landed: the hub may hold a key naming this counter
 * that it does not know it holds. A clean quit then deletes that key too, at the revision it has.
 */
import { z } from 'zod';
import { CounterIdSchema, CounterNameSchema } from '../../../shared/hub';
import { type Logger, silentLogger } from '../log';
import { awaitWithin, every, type Timers } from '../time';
import { type Bucket, type BucketEntry, type BucketSource, isRevisionConflict, reopeningBucket } from './nats/buckets';
import type { CounterIdentity } from './ports';
import { HUB_BUCKETS, LEASE_BUCKET } from './registry';

/** The bucket of the intake lease (nothing else lives in it, so its watch filter is its one key). */
export { LEASE_BUCKET };
export const LEASE_KEY = 'intake';
/** Without a new revision for this long, an observer takes the lease (measured here: 4.7-4.9 s to hand over). */
export const DEFAULT_LEASE_MS = 5_000;
export const DEFAULT_RENEW_MS = 1_000;

/** What the lease key holds; parsed when read back (the hub is outside the process). */
export const LeaseValueSchema = z.object({
  counterId: CounterIdSchema,
  counterName: CounterNameSchema,
  /** When the holder wrote it, on the holder's clock: shown to people, never compared. */
  at: z.number(),
});
export type LeaseValue = z.infer<typeof LeaseValueSchema>;

/** The counter whose intake polls for the store. */
export interface LeaseHolder {
  readonly counterId: string;
  readonly counterName: string;
}

/** What the lease's listeners hear whenever who holds it, or whether this counter does, changes. */
export interface LeaseState {
  /** This counter holds the lease: its intake polls for the store. */
  readonly holding: boolean;
  /** The holder as last heard from the hub (this counter while `holding`); null when none is known. */
  readonly holder: LeaseHolder | null;
}

export interface IntakeLeaseOptions {
  readonly now: () => number;
  readonly timers: Timers;
  readonly log?: Logger;
  /** The lease period (default 5 s). */
  readonly leaseMs?: number;
  /** How often the holder renews and an observer looks (default 1 s). */
  readonly renewMs?: number;
  /** Deadline of one write to the hub (default twice the renewal period, well inside the lease). */
  readonly writeTimeoutMs?: number;
  /** The bucket's name (tests may run several stores on one server). */
  readonly bucket?: string;
}

export interface IntakeLease {
  /** The holder as last heard, or null. */
  holder(): LeaseHolder | null;
  /** Whether this counter holds the lease now. */
  holding(): boolean;
  /** Hears every change of the lease's state (the first listener to learn a lost lease, before anything else runs). */
  on(listener: (state: LeaseState) => void): () => void;
  /** Stops renewing and, when holding, deletes the key at its revision so another counter takes it at once. */
  close(): Promise<void>;
}

/** Starts taking part in the store's intake lease; nothing is awaited: the bucket is opened (again) on each tick until it answers. */
export function startIntakeLease(source: BucketSource, me: CounterIdentity, options: IntakeLeaseOptions): IntakeLease {
  const log = (options.log ?? silentLogger).child('lease');
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const renewMs = options.renewMs ?? DEFAULT_RENEW_MS;
  const writeTimeoutMs = options.writeTimeoutMs ?? renewMs * 2;
  const self: LeaseHolder = { counterId: me.counterId, counterName: me.counterName };
  const listeners = new Set<(state: LeaseState) => void>();

  let closed = false;
  /** The tick in flight, awaited by close() so a write it makes is released too. */
  let ticking: Promise<void> | null = null;
  /** The revision this counter wrote last while holding; null while observing. */
  let heldRevision: number | null = null;
  /** When this counter's last renewal succeeded (its own clock). */
  let renewedAt = 0;
  /** The last revision seen as an observer, and when it was first seen (own clock). */
  let seenRevision: number | null = null;
  let seenAt = 0;
  let holder: LeaseHolder | null = null;
  let lastSaid = '';
  /** A write of this counter's went unanswered, or it let go while holding: the key may name it still. */
  let mayBeNamed = false;

  const state = (): LeaseState => ({ holding: heldRevision !== null, holder: heldRevision !== null ? self : holder });
  const tell = (): void => {
    const now = state();
    const said = JSON.stringify(now);
    if (said === lastSaid) return;
    lastSaid = said;
    for (const l of [...listeners]) {
      try {
        l(now);
      } catch (e) {
        log.error('lease listener failed', { error: e });
      }
    }
  };

  /** Stops holding at once (the listeners hear it first), then watches as an observer from the revision held. */
  const letGo = (why: string): void => {
    if (heldRevision === null) return;
    mayBeNamed = true;
    seenRevision = heldRevision;
    seenAt = options.now();
    heldRevision = null;
    holder = null;
    tell();
    log.warn('intake lease lost: this counter stops polling', { why });
  };

  const bucketKv = reopeningBucket(source, HUB_BUCKETS.lease, { ...(options.bucket ? { name: options.bucket } : {}), timeoutMs: writeTimeoutMs });
  const value = (): string => JSON.stringify({ ...self, at: options.now() } satisfies LeaseValue);

  const took = (revision: number, sentAt: number): void => {
    heldRevision = revision;
    renewedAt = sentAt;
    if (closed) return; // close() releases it; nobody is told of a lease held for an instant
    seenRevision = null;
    holder = self;
    tell();
    log.info('intake lease taken: this counter polls for the store', { revision });
  };

  const renew = async (store: Bucket): Promise<void> => {
    const revision = heldRevision;
    if (revision === null) return;
    // Counted from when it was sent: the hub may have written it at any moment until the answer came.
    const sentAt = options.now();
    try {
      const next = await store.update(LEASE_KEY, value(), revision, writeTimeoutMs);
      if (heldRevision !== revision) return; // let go meanwhile (the guard below)
      heldRevision = next;
      renewedAt = sentAt;
    } catch (e) {
      letGo(isRevisionConflict(e) ? 'another counter holds it' : `renewal failed: ${describe(e)}`);
    }
  };

  const observe = async (store: Bucket): Promise<void> => {
    const entry = await store.get(LEASE_KEY);
    if (closed || heldRevision !== null) return;
    if (entry === null || entry.operation !== 'PUT') {
      holder = null;
      tell();
      await attempt(() => store.create(LEASE_KEY, value()));
      return;
    }
    holder = holderOf(entry, log) ?? holder;
    if (entry.revision !== seenRevision) {
      seenRevision = entry.revision;
      seenAt = options.now();
      tell();
      return;
    }
    if (options.now() - seenAt >= leaseMs) await attempt(() => store.update(LEASE_KEY, value(), entry.revision, writeTimeoutMs));
  };

  const attempt = async (write: () => Promise<number>): Promise<void> => {
    const sentAt = options.now();
    try {
      took(await write(), sentAt);
    } catch (e) {
      if (isRevisionConflict(e)) return; // another counter won: the next look reads its revision
      mayBeNamed = true;
      log.debug('lease write failed', { error: e });
    }
  };

  const tick = (): void => {
    // A renewal still hanging when the lease is nearly spent: stop now, whatever it will say. Checked
    // once a tick, so two ticks short of the lease: stopped a tick before any observer may take it.
    if (heldRevision !== null && options.now() - renewedAt >= leaseMs - 2 * renewMs) letGo('no renewal succeeded within the lease');
    if (ticking || closed) return;
    ticking = step().finally(() => {
      ticking = null;
    });
  };
  const step = async (): Promise<void> => {
    try {
      const store = await bucketKv();
      if (closed) return;
      if (heldRevision !== null) await renew(store);
      else await observe(store);
    } catch (e) {
      letGo(`the hub did not answer: ${describe(e)}`);
      log.debug('lease tick failed', { error: e });
    }
  };

  /** The key's revision when it names this counter (a write whose answer was lost landed), else null. */
  const namedRevision = async (store: Bucket): Promise<number | null> => {
    const entry = await store.get(LEASE_KEY);
    return entry?.operation === 'PUT' && holderOf(entry, log)?.counterId === self.counterId ? entry.revision : null;
  };

  /**
   * Deletes the key at the revision this counter holds, or at the one it has when it names this
   * counter. Given one write's deadline in all, so a quit never waits long on a hub that is gone.
   */
  const release = async (revision: number | null): Promise<void> => {
    const deleting = (async () => {
      const store = await bucketKv();
      const at = revision ?? (await namedRevision(store));
      if (at !== null) await store.delete(LEASE_KEY, { previousSeq: at });
    })().then(
      () => 'done' as const,
      (e: unknown) => log.debug('lease not released; another counter takes it when it lapses', { error: e }),
    );
    if ((await awaitWithin(deleting, writeTimeoutMs, 'late' as const, options.timers)) === 'late') {
      log.debug('lease not released in time; another counter takes it when it lapses');
    }
  };

  const stopTicks = every(options.timers, renewMs, tick);
  tick();

  return {
    holder: () => state().holder,
    holding: () => heldRevision !== null,
    on(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      stopTicks();
      await ticking;
      const revision = heldRevision;
      heldRevision = null;
      holder = null;
      if (revision !== null) tell();
      if (revision !== null || mayBeNamed) await release(revision);
      listeners.clear();
    },
  };
}

function holderOf(entry: BucketEntry, log: Logger): LeaseHolder | null {
  try {
    const parsed = LeaseValueSchema.safeParse(entry.json());
    if (parsed.success) return { counterId: parsed.data.counterId, counterName: parsed.data.counterName };
  } catch {
    // not JSON: said below
  }
  log.warn('the intake lease holds a value that is not a counter; it is taken over when it lapses', { revision: entry.revision });
  return null;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
