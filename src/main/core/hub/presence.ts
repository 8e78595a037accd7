/**
 * Presence: each counter writes its name, version and outbox figures every few seconds and on
 * change; every counter watches them into the Counters list. Whether a counter is there is judged
 * by when this counter last HEARD from it, on this counter's own clock: the `at` a counter writes
 * is on its clock, and counters' clocks may differ by minutes. How long ago an entry was written
 * is measured on the hub's clock (its stamp on each write), read off this counter's own writes.
 */
import { type CounterPresence, counterPresenceSchema, type CounterView } from '../../../shared/hub';
import { every, systemTimers, type Timers } from '../time';
import { type Bucket, type BucketEntry, type BucketWatch, type NatsConnection, openBucket, watchBucket } from './nats/buckets';
import type { CounterIdentity, CounterPorts } from './ports';
import { HUB_BUCKETS, PRESENCE_BUCKET } from './registry';

export { PRESENCE_BUCKET };
/** How often a counter writes its presence when nothing changed. */
export const PRESENCE_EVERY_MS = 5_000;
/** A counter not heard from for this long is shown as not there: three writes missed. */
export const PRESENCE_WINDOW_MS = 15_000;
// The hub forgets a counter a week after it last wrote: a PC switched off for a weekend still
// shows as "not there" on Monday, and one taken away for good drops off the list by itself (its bucket in registry.ts).
/** How often the list is looked over for counters that fell silent (silence raises no watch event). */
const SILENCE_CHECK_MS = 1_000;

export interface PresenceOptions {
  readonly identity: CounterIdentity;
  /** This counter's figures, read at each write. */
  readonly figures: CounterPorts['presence'];
  readonly now: () => number;
  readonly timers?: Timers;
  readonly everyMs?: number;
  readonly windowMs?: number;
}

/** The counters of the store as this counter sees them, and its own presence written. */
export interface Presence {
  /** Writes this counter's presence now (its figures changed); false when the hub did not take it. */
  changed(): Promise<boolean>;
  /** Every counter heard of, this one first, then by name; `intakeHolder` is the counter polling for the store. */
  list(intakeHolder?: string | null): readonly CounterView[];
  /** Takes this counter off the list (it leaves the store). */
  leave(): Promise<void>;
  /** Called when a counter appears, changes, or comes or goes. */
  on(listener: () => void): () => void;
  close(): void;
}

interface Heard {
  readonly presence: CounterPresence;
  /** When this counter heard it, on this counter's clock. */
  readonly heardAt: number;
}

/** Opens (creating if needed) the presence bucket, writes this counter's presence and starts watching. */
export async function openPresence(nc: NatsConnection, options: PresenceOptions): Promise<Presence> {
  const kv = await openBucket(nc, HUB_BUCKETS.presence);
  return presenceOver(kv, options);
}

/** Presence over an open bucket. */
export async function presenceOver(kv: Bucket, options: PresenceOptions): Promise<Presence> {
  const { identity, now } = options;
  const timers = options.timers ?? systemTimers;
  const windowMs = options.windowMs ?? PRESENCE_WINDOW_MS;
  const listeners = new Set<() => void>();
  const counters = new Map<string, Heard>();
  /** Which counters were there at the last look, to tell listeners when one falls silent. */
  let presentAtLastLook = new Set<string>();
  /**
   * The hub's clock as last read off this counter's own write (the hub stamps each entry), and when
   * that was on this counter's clock: the age of an entry found already there when the watch opens
   * is measured on the hub's clock alone, then carried over to this one.
   */
  let hubClock: { hubAt: number; ownAt: number } | null = null;

  const notify = (): void => {
    for (const listener of listeners) listener();
  };

  const write = async (): Promise<boolean> => {
    try {
      // Read inside: the engine may have closed a moment before the hub link does (a switch of
      // service, a damaged file), and a timer's write must not become an unhandled failure.
      const presence: CounterPresence = {
        counterId: identity.counterId,
        counterName: identity.counterName,
        version: identity.version,
        at: now(),
        ...options.figures(),
      };
      await kv.put(identity.counterId, JSON.stringify(counterPresenceSchema().parse(presence)));
      return true;
    } catch {
      // The hub away, or no figures to give: the next write says it again; other counters see this
      // one go silent meanwhile.
      return false;
    }
  };

  const heard = (entry: BucketEntry): void => {
    if (entry.operation !== 'PUT') {
      if (counters.delete(entry.key)) notify();
      return;
    }
    let presence: CounterPresence;
    try {
      const parsed = counterPresenceSchema().safeParse(entry.json());
      if (!parsed.success || parsed.data.counterId !== entry.key) return;
      presence = parsed.data;
    } catch {
      return;
    }
    const at = now();
    if (presence.counterId === identity.counterId) hubClock = { hubAt: entry.created.getTime(), ownAt: at };
    // Aged on the hub's clock, every entry alike: one found when the watch opens may have been
    // written long ago by a counter since switched off, and the watch cannot be trusted to say
    // which entries those are (it marks the last of them as an update).
    const hubNow = hubClock ? hubClock.hubAt + (at - hubClock.ownAt) : entry.created.getTime();
    let heardAt = at - Math.max(0, hubNow - entry.created.getTime());
    const before = counters.get(presence.counterId);
    if (before && before.heardAt > heardAt) heardAt = before.heardAt;
    counters.set(presence.counterId, { presence, heardAt });
    notify();
  };

  // This counter's own write first: the hub's stamp on it dates what the watch then finds there.
  await write();
  const own = await kv.get(identity.counterId).catch(() => null);
  if (own?.operation === 'PUT') hubClock = { hubAt: own.created.getTime(), ownAt: now() };
  const watch: BucketWatch = watchBucket(kv, heard, timers);
  const stopWrites = every(timers, options.everyMs ?? PRESENCE_EVERY_MS, () => void write());
  const isPresent = (h: Heard): boolean => now() - h.heardAt <= windowMs;
  const stopSilenceCheck = every(timers, SILENCE_CHECK_MS, () => {
    const present = new Set([...counters].flatMap(([id, h]) => (isPresent(h) ? [id] : [])));
    const same = present.size === presentAtLastLook.size && [...present].every((id) => presentAtLastLook.has(id));
    presentAtLastLook = present;
    if (!same) notify();
  });

  return {
    changed: write,

    list(intakeHolder = null) {
      const views = [...counters.values()].map(
        (h): CounterView => ({
          ...h.presence,
          present: isPresent(h),
          isThisCounter: h.presence.counterId === identity.counterId,
          holdsIntake: h.presence.counterId === intakeHolder,
        }),
      );
      return views.sort((a, b) => Number(b.isThisCounter) - Number(a.isThisCounter) || a.counterName.localeCompare(b.counterName));
    },

    async leave() {
      stopWrites();
      await kv.delete(identity.counterId).catch(() => undefined);
    },

    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    close() {
      stopWrites();
      stopSilenceCheck();
      watch.stop();
      listeners.clear();
    },
  };
}
