/**
 * Claims: "being packed at Counter 2". One KV entry per order, made with `create` so two counters
 * racing for an order cannot both win; the entry carries its own expiry (`expiresAt`), since a 2.9
 * hub has no per-key TTL. Renewal, a lapsed claim taken, a take-over and a release are all writes
 * at the revision this counter saw, so none of them can undo another counter's newer write.
 * A watch keeps this counter's view of every claim current; the view is what screens read.
 *
 * Whether a claim has lapsed is judged on the hub's clock, not the claiming counter's: counters'
 * clocks differ (by minutes, in stores), and a counter running ahead would otherwise see every
 * claim lapse early and take live ones without being asked. The hub stamps each write; a claim
 * lapses a quiet period (its `expiresAt - renewedAt`) after the stamp of its last renewal, and this
 * counter reads the hub's clock off the hub's stamps on its own writes (when it opens, and each
 * claim it writes), set against the middle of each write's round trip.
 */
import { type Claim, type ClaimOutcome, claimSchema } from '../../../shared/hub';
import { every, systemTimers, type Timers } from '../time';
import { type Bucket, type BucketEntry, type BucketWatch, isRevisionConflict, type NatsConnection, openBucket, watchBucket } from './nats/buckets';
import { connectionState } from './nats/connection';
import { idOfKey, keyOf } from './keys';
import type { HubEvent } from './ports';
import { CLAIMS_BUCKET, HUB_BUCKETS } from './registry';

export { CLAIMS_BUCKET };
/** The quiet period after which an unrenewed claim lapses, unless the store's setting says otherwise. */
export const DEFAULT_CLAIM_QUIET_MS = 15 * 60_000;
// The hub drops a claim entry (and a release's delete marker) a day after its last write: a claim
// renewed within the quiet period is rewritten long before, and a lapsed one means nothing after
// its expiry, so a day only keeps markers of finished orders from piling up in the store folder (its bucket in registry.ts).
/** How often lapses are looked for: a lapse raises no watch event, so screens learn of it from here. */
const LAPSE_CHECK_MS = 1_000;

/** What the claims tell the counter. */
export type ClaimEvent = Extract<HubEvent, { kind: 'claim' } | { kind: 'claimTaken' }>;

export interface ClaimsOptions {
  readonly counter: { readonly counterId: string; readonly counterName: string };
  readonly now: () => number;
  /** The quiet period in ms (the store's setting, read at each write). */
  readonly quietMs?: () => number;
  readonly timers?: Timers;
  /** Whether the hub connection is up: while it is down a claim says at once that it could not check, rather than after a write's timeout. */
  readonly connected?: () => boolean;
}

/** The store's claims as this counter sees and makes them. */
export interface Claims {
  /** Claims an order for this counter; `takeOver` moves another counter's live claim here. */
  claim(orderId: string, options?: { readonly takeOver?: boolean; readonly packer?: string | null }): Promise<ClaimOutcome>;
  /** Pushes this counter's claim's expiry a quiet period on; `taken` when another counter holds it now. */
  renew(orderId: string): Promise<ClaimOutcome>;
  /** Ends this counter's claim on an order; a claim another counter holds is left alone. */
  release(orderId: string): Promise<void>;
  /** The live (not lapsed) claim on an order, as last heard from the hub. */
  claimOf(orderId: string): Claim | null;
  /** Every live claim, as last heard. */
  all(): readonly Claim[];
  on(listener: (event: ClaimEvent) => void): () => void;
  close(): void;
}

/** A key as last heard: its claim (null once released) at a revision, so an older word never wins. */
interface Held {
  readonly claim: Claim | null;
  readonly revision: number;
  /** The hub's stamp on the write (its clock, epoch ms). */
  readonly hubAt: number;
}

/** Opens (creating if needed) the claims bucket on the hub, reads the hub's clock and starts watching. */
export async function openClaims(nc: NatsConnection, options: ClaimsOptions): Promise<Claims> {
  const kv = await openBucket(nc, HUB_BUCKETS.claims);
  const connection = connectionState(nc);
  return claimsOver(kv, { connected: connection.connected, ...options }, await hubOffsetOf(kv, options));
}

/**
 * The hub's clock minus this counter's, read off the hub's stamp on a write of this counter's own
 * (a key no order id can have: order keys hold no dot), so claims found already there are judged
 * right from the start, before any change is heard.
 */
async function hubOffsetOf(kv: Bucket, options: ClaimsOptions): Promise<number> {
  const key = `clock.${options.counter.counterId}`;
  const sentAt = options.now();
  await kv.put(key, String(sentAt));
  const ackedAt = options.now();
  const stamp = await kv.get(key);
  return stamp ? stamp.created.getTime() - (sentAt + ackedAt) / 2 : 0;
}

/** Claims over an open bucket; `hubOffsetMs` is the hub's clock minus this counter's, as far as known. */
export function claimsOver(kv: Bucket, options: ClaimsOptions, hubOffsetMs = 0): Claims {
  const { counter, now } = options;
  const quietMs = options.quietMs ?? (() => DEFAULT_CLAIM_QUIET_MS);
  const timers = options.timers ?? systemTimers;
  const listeners = new Set<(event: ClaimEvent) => void>();
  /** Every claim heard, by order id, lapsed ones included until the lapse check announces them. */
  const known = new Map<string, Held>();
  /** Orders whose lapse was announced, so it is announced once. */
  const lapsed = new Set<string>();

  const emit = (event: ClaimEvent): void => {
    for (const listener of listeners) listener(event);
  };
  /** This counter's writes not yet heard back, by revision: the middle of each one's round trip. */
  const ownWrites = new Map<number, number>();
  const hubNow = (): number => now() + hubOffsetMs;
  const live = (held: Held | undefined): Claim | null =>
    held?.claim && held.hubAt + (held.claim.expiresAt - held.claim.renewedAt) > hubNow() ? held.claim : null;

  const parse = (entry: BucketEntry): Claim | null => {
    if (entry.operation !== 'PUT') return null;
    try {
      const parsed = claimSchema().safeParse(entry.json());
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  };

  /** Takes in what the hub says of a key (from the watch or a read), announcing what changed. */
  const heard = (entry: BucketEntry): void => {
    const writtenAt = ownWrites.get(entry.revision);
    if (writtenAt !== undefined) {
      ownWrites.delete(entry.revision);
      hubOffsetMs = entry.created.getTime() - writtenAt;
    }
    if (entry.key.includes('.')) return;
    const orderId = idOfKey(entry.key);
    const before = known.get(orderId);
    if (before && before.revision > entry.revision) return;
    if (before?.revision === entry.revision) {
      // This counter's own write coming back: only the hub's stamp on it is new.
      known.set(orderId, { ...before, hubAt: entry.created.getTime() });
      return;
    }
    const claim = parse(entry);
    const held: Held = { claim, revision: entry.revision, hubAt: entry.created.getTime() };
    known.set(orderId, held);
    lapsed.delete(orderId);
    if (claim === null) {
      if (live(before)) emit({ kind: 'claim', orderId, claim: null });
      return;
    }
    if (before?.claim?.counterId === counter.counterId && claim.counterId !== counter.counterId) {
      emit({ kind: 'claimTaken', orderId, by: claim });
    }
    emit({ kind: 'claim', orderId, claim: live(held) });
  };

  const watch: BucketWatch = watchBucket(kv, heard, timers);
  const stopLapseCheck = every(timers, LAPSE_CHECK_MS, () => {
    for (const [orderId, held] of known) {
      if (!held.claim || live(held) || lapsed.has(orderId)) continue;
      lapsed.add(orderId);
      emit({ kind: 'claim', orderId, claim: null });
    }
  });

  /** The hub's current entry for an order, taken into the view; null when no claim (or deleted). */
  const read = async (orderId: string): Promise<{ entry: BucketEntry | null; claim: Claim | null; lapsed: boolean }> => {
    const entry = await kv.get(keyOf(orderId));
    if (entry) heard(entry);
    const claim = entry ? parse(entry) : null;
    return { entry, claim, lapsed: entry !== null && live({ claim, revision: entry.revision, hubAt: entry.created.getTime() }) === null };
  };

  const fresh = (orderId: string, packer: string | null, since?: Claim): Claim => {
    const at = now();
    return {
      orderId,
      counterId: counter.counterId,
      counterName: counter.counterName,
      packer,
      claimedAt: since?.claimedAt ?? at,
      renewedAt: at,
      expiresAt: at + quietMs(),
    };
  };

  /** Writes a claim: `create` when the key holds none, else `update` at the revision seen. */
  const write = async (claim: Claim, revision: number | null): Promise<ClaimOutcome> => {
    const key = keyOf(claim.orderId);
    const data = JSON.stringify(claim);
    const sentAt = now();
    const written = revision === null ? await kv.create(key, data) : await kv.update(key, data, revision);
    // Several writes may be in flight; only the latest few matter for reading the hub's clock.
    if (ownWrites.size > 100) ownWrites.clear();
    ownWrites.set(written, (sentAt + now()) / 2);
    // The hub's stamp comes with the watch; until then this counter's reading of the hub's clock stands in.
    const held: Held = { claim, revision: written, hubAt: hubNow() };
    const before = known.get(claim.orderId);
    if (!before || before.revision < written) {
      known.set(claim.orderId, held);
      lapsed.delete(claim.orderId);
      emit({ kind: 'claim', orderId: claim.orderId, claim });
    }
    return { kind: 'held', claim };
  };

  /** One attempt: null when the key moved on under us (try again with what the hub says now). */
  const attempt = async (orderId: string, takeOver: boolean, packer: string | null): Promise<ClaimOutcome | null> => {
    const { entry, claim, lapsed: gone } = await read(orderId);
    const mine = claim?.counterId === counter.counterId;
    try {
      if (!entry || !claim) return await write(fresh(orderId, packer), null);
      if (mine) return await write(fresh(orderId, packer ?? claim.packer, claim), entry.revision);
      if (gone || takeOver) return await write(fresh(orderId, packer), entry.revision);
      return { kind: 'taken', by: claim };
    } catch (error) {
      if (isRevisionConflict(error)) return null;
      throw error;
    }
  };

  const claim: Claims['claim'] = async (orderId, claimOptions = {}) => {
    if (options.connected?.() === false) return { kind: 'unchecked' };
    try {
      // A lost race ends at the second look: the winner's claim is there to be read. A third only
      // when the winner released in between.
      for (let i = 0; i < 3; i++) {
        const outcome = await attempt(orderId, claimOptions.takeOver === true, claimOptions.packer ?? null);
        if (outcome) return outcome;
      }
      const by = live(known.get(orderId));
      return by ? { kind: 'taken', by } : { kind: 'unchecked' };
    } catch {
      return { kind: 'unchecked' };
    }
  };

  return {
    claim,

    async renew(orderId) {
      if (options.connected?.() === false) return { kind: 'unchecked' };
      const held = known.get(orderId);
      const other = live(held);
      if (other && other.counterId !== counter.counterId) return { kind: 'taken', by: other };
      try {
        if (held?.claim?.counterId === counter.counterId) return await write(fresh(orderId, held.claim.packer, held.claim), held.revision);
      } catch (error) {
        if (!isRevisionConflict(error)) return { kind: 'unchecked' };
        const { claim: current } = await read(orderId).catch(() => ({ claim: null }));
        if (current && current.counterId !== counter.counterId) return { kind: 'taken', by: current };
      }
      // Not held here (lapsed and taken by nobody, or released): renewing claims it afresh.
      return claim(orderId);
    },

    async release(orderId) {
      try {
        const { entry, claim: current } = await read(orderId);
        if (!entry || current?.counterId !== counter.counterId) return;
        await kv.delete(keyOf(orderId), { previousSeq: entry.revision });
      } catch {
        // The hub away, or the claim moved on meanwhile: either way it is not this counter's to end.
        // A claim left behind lapses after its quiet period.
      }
    },

    claimOf: (orderId) => live(known.get(orderId)),

    all: () => [...known.values()].flatMap((held) => live(held) ?? []),

    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    close() {
      stopLapseCheck();
      watch.stop();
      listeners.clear();
    },
  };
}
