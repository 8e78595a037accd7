/**
 * A store that splits heals out loud (issue 39): when counters find each other again, every order
 * that more than one of them worked on while apart is a conflict, raised at each counter involved
 * until a person settles at either one who keeps the order. Found two ways, both when the hub
 * answers again:
 *
 * - by this counter's own taps made without asking the hub (the outbox keeps which): for each such
 *   order it asks for the claim now. Held by another counter: that counter had the order while this
 *   one worked on it unseen, a conflict. Free: this counter claims it, so a counter coming back
 *   after it finds the claim and says so in its turn (exactly one of two counters wins a claim);
 * - by other counters' taps as they are heard (every counter puts its taps into the hub again when
 *   it is back): a tap of theirs and one of this counter's that neither had heard of, one of them
 *   unchecked, are a conflict (apart.ts).
 *
 * One record an order in `packdesk-conflicts` (create, or update at the revision read, merged, so
 * two counters finding it at once make one record naming both). Every counter keeps every record in
 * its own file (the engine's side), so the alarm survives a restart and the hub going away again;
 * a record the hub does not hold as this counter does is put again whenever the hub is back. The
 * first settlement to reach the hub stands; the counter that keeps the order takes its claim, and
 * the others let theirs go.
 */
import { type ConflictRecord, conflictRecordSchema, type SharedTap } from '../../../shared/hub';
import type { Logger } from '../log';
import { type Timers, TimerSlot } from '../time';
import { canonical, findApart, mergeConflict, sameConflict, type WorkTap } from './apart';
import { type Bucket, type BucketEntry, type BucketWatch, isRevisionConflict, type NatsConnection, openBucket, watchBucket } from './nats/buckets';
import type { Claims } from './claims';
import { keyOf } from './keys';
import type { CounterIdentity } from './ports';
import { CONFLICTS_BUCKET, HUB_BUCKETS } from './registry';

export { CONFLICTS_BUCKET };
/**
 * The hub forgets a record a week after its last write. Every counter involved keeps its own copy
 * until a person settles it (and puts it into the hub again if the hub lacks it), so a week only
 * keeps settled ones from piling up.
 */
export const CONFLICTS_MAX_AGE_MS = HUB_BUCKETS.conflicts.maxAgeMs;
/** Heard taps are kept and looked at in one go per this many ms (a returning counter puts hundreds at once). */
const HEARD_BATCH_MS = 100;
/** Pause before trying again a write the hub did not take. */
const RETRY_MS = 2_000;

/** This counter's work on one order made without asking the hub, not yet looked at with the hub back. */
export interface UncheckedWork {
  readonly orderId: string;
  readonly requestIds: readonly string[];
  readonly packers: readonly string[];
}

/** What the conflicts need of this counter's data file (engine/conflicts.ts through the host). */
export interface ConflictPorts {
  uncheckedWork(): readonly UncheckedWork[];
  reconciled(orderIds: readonly string[]): void;
  /** This counter's and others' taps on an order, as finding taps made apart reads them. */
  workTaps(orderId: string): { readonly own: readonly WorkTap[]; readonly others: readonly WorkTap[] };
  /** Keeps other counters' taps; answers the orders whose taps changed here. */
  keepTaps(taps: readonly SharedTap[]): readonly string[];
  /** Keeps a record found here or heard from the hub; true when this counter's record changed. */
  keep(record: ConflictRecord, from: 'found' | 'hub'): boolean;
  /** Records the hub does not hold as this counter does. */
  unshared(): readonly ConflictRecord[];
  /** Whether the order still has a step to take here (only then is it worth claiming). */
  hasNextStep(orderId: string): boolean;
}

export interface ConflictsOptions {
  readonly me: CounterIdentity;
  readonly ports: ConflictPorts;
  readonly claims: Pick<Claims, 'claim' | 'claimOf' | 'release'>;
  readonly now: () => number;
  readonly timers: Timers;
  readonly log: Logger;
  /** Told of orders whose conflict changed here (found, heard, settled). */
  readonly onChanged: (orderIds: readonly string[]) => void;
}

export interface SharedConflicts {
  /** Other counters' taps heard through the hub: kept, and looked at for taps made apart. */
  heard(tap: SharedTap): void;
  /** With the hub back: this counter's unchecked work looked at against the claims, records the hub lacks put again. */
  reconcile(): Promise<void>;
  /** A person at this counter settled who keeps the order (kept in the file already): into the hub, the claim moved. */
  settled(record: ConflictRecord): Promise<void>;
  close(): void;
}

function parse(entry: BucketEntry): ConflictRecord | null {
  if (entry.operation !== 'PUT') return null;
  try {
    const r = conflictRecordSchema().safeParse(entry.json());
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Opens (creating if needed) the conflicts bucket and watches it. */
export async function openConflicts(nc: NatsConnection, options: ConflictsOptions): Promise<SharedConflicts> {
  const kv = await openBucket(nc, HUB_BUCKETS.conflicts);
  return conflictsOver(kv, options);
}

/** The conflicts over an open bucket. */
export function conflictsOver(kv: Bucket, options: ConflictsOptions): SharedConflicts {
  const { me, ports, claims, now, timers, log } = options;
  let closed = false;
  const waiting: SharedTap[] = [];
  const batch = new TimerSlot(timers, now, () => keepHeard(), { keepAlive: false });
  const retry = new TimerSlot(timers, now, () => void putUnshared(), { keepAlive: false });

  /** The order's settlement, acted on here: the keeper takes the claim, the others let theirs go. */
  const follow = async (record: ConflictRecord): Promise<void> => {
    const settled = record.settled;
    if (!settled || !record.parties.some((p) => p.counterId === me.counterId)) return;
    const holder = claims.claimOf(record.orderId);
    if (settled.keeperId === me.counterId) {
      if (holder?.counterId === me.counterId || !ports.hasNextStep(record.orderId)) return;
      const packer = record.parties.find((p) => p.counterId === me.counterId)?.packers[0] ?? null;
      const outcome = await claims.claim(record.orderId, { takeOver: true, packer });
      if (outcome.kind === 'held') log.info('order packed twice kept here: claimed', { orderId: record.orderId });
    } else if (holder?.counterId === me.counterId) {
      await claims.release(record.orderId);
    }
  };

  /** What the hub holds now, taken in here. */
  const adopt = (record: ConflictRecord): void => {
    if (ports.keep(record, 'hub')) options.onChanged([record.orderId]);
    void follow(record).catch((error: unknown) => log.warn('the claim of an order packed twice could not be moved', { orderId: record.orderId, error }));
  };

  /** Puts this counter's word on an order's conflict into the hub, merged with the hub's; throws when the hub does not take it. */
  const share = async (record: ConflictRecord): Promise<void> => {
    const key = keyOf(record.orderId);
    for (let i = 0; i < 3; i++) {
      const entry = await kv.get(key);
      const current = entry ? parse(entry) : null;
      const next = current ? mergeConflict(current, record) : record;
      if (current && sameConflict(next, current)) return adopt(current);
      try {
        if (entry) await kv.update(key, JSON.stringify(next), entry.revision);
        else await kv.create(key, JSON.stringify(next));
        return adopt(next);
      } catch (error) {
        // Another counter wrote it meanwhile: read it again and merge.
        if (!isRevisionConflict(error)) throw error;
      }
    }
    throw new Error('the conflict record kept moving on the hub');
  };

  /** Puts every record the hub lacks; one that fails is tried again a little later. */
  const putUnshared = async (): Promise<void> => {
    for (const record of ports.unshared()) {
      if (closed) return;
      try {
        await share(record);
      } catch (error) {
        log.warn('an order packed twice could not be put into the hub yet', { orderId: record.orderId, error: error instanceof Error ? error.message : String(error) });
        if (!closed) retry.arm(RETRY_MS);
        return;
      }
    }
  };

  /** Found here: kept at once (the alarm does not wait for the hub), then shared. */
  const raise = async (record: ConflictRecord): Promise<void> => {
    if (ports.keep(record, 'found')) {
      log.warn('order packed twice while the counters could not see each other', { orderId: record.orderId, counters: record.parties.map((p) => p.counterName) });
      options.onChanged([record.orderId]);
    }
    await share(record).catch(() => retry.arm(RETRY_MS));
  };

  const keepHeard = (): void => {
    if (closed || waiting.length === 0) return;
    const taps = waiting.splice(0);
    let changed: readonly string[];
    try {
      changed = ports.keepTaps(taps);
    } catch (error) {
      log.warn("other counters' taps could not be kept", { error });
      return;
    }
    for (const orderId of changed) {
      const { own, others } = ports.workTaps(orderId);
      const found = findApart(orderId, own, others, now());
      if (found) void raise(found);
    }
  };

  const watch: BucketWatch = watchBucket(
    kv,
    (entry) => {
      const record = parse(entry);
      if (record) adopt(record);
    },
    timers,
  );

  return {
    heard(tap) {
      if (closed) return;
      waiting.push(tap);
      batch.arm(HEARD_BATCH_MS);
    },

    async reconcile() {
      // Taps heard just before the hub went away, kept first.
      keepHeard();
      const done: string[] = [];
      for (const work of ports.uncheckedWork()) {
        if (closed) break;
        const other = claims.claimOf(work.orderId);
        const outcome = ports.hasNextStep(work.orderId)
          ? await claims.claim(work.orderId, { packer: work.packers[0] ?? null })
          : other && other.counterId !== me.counterId
            ? ({ kind: 'taken', by: other } as const)
            : ({ kind: 'held' } as const);
        // The hub went away again: looked at next time.
        if (outcome.kind === 'unchecked') break;
        done.push(work.orderId);
        if (outcome.kind !== 'taken') continue;
        const by = outcome.by;
        await raise(canonical({
          orderId: work.orderId,
          parties: [
            { counterId: me.counterId, counterName: me.counterName, packers: [...work.packers] },
            { counterId: by.counterId, counterName: by.counterName, packers: by.packer ? [by.packer] : [] },
          ],
          taps: [...work.requestIds],
          raisedAt: now(),
          settled: null,
        }));
      }
      ports.reconciled(done);
      await putUnshared();
    },

    async settled(record) {
      options.onChanged([record.orderId]);
      try {
        await share(record);
      } catch {
        retry.arm(RETRY_MS);
        // Kept in the file: put into the hub when it is back. The claim moves then too.
      }
    },

    close() {
      closed = true;
      batch.clear();
      retry.clear();
      watch.stop();
    },
  };
}
