/**
 * What the store sets is store-wide (issue 39): scan to pack, and how long an order stays with its
 * counter without a tap, are the store's settings, not a counter's. One key per setting in
 * `packdesk-store-settings`; a manager's change at any counter is put there, and every counter
 * takes the hub's word into its own settings as it hears it (so a counter that was away or joins
 * later packs the way the store does). A change made while the hub did not take it is kept and put
 * when the hub is back, over the hub's older word; a store whose hub holds no word yet takes the
 * first counter's. Each counter's settings file keeps its copy, so a counter without its hub goes
 * on as the store last said.
 */
import { z } from 'zod';
import { CounterNameSchema } from '../../../shared/hub';
import type { Logger } from '../log';
import { type Timers, TimerSlot } from '../time';
import { type Bucket, type BucketEntry, type BucketWatch, type NatsConnection, openBucket, watchBucket } from './nats/buckets';
import type { CounterIdentity } from './ports';
import { HUB_BUCKETS, STORE_SETTINGS_BUCKET } from './registry';

// The hub keeps a setting a year after its last write (a setting is not rewritten until someone changes it): registry.ts.
export { STORE_SETTINGS_BUCKET };
const RETRY_MS = 2_000;

/** The settings a store shares, with their values. */
export interface StoreSettingValues {
  readonly scanToPack: boolean;
  readonly claimQuietMs: number;
}
export type StoreSettingName = keyof StoreSettingValues;
export const STORE_SETTING_NAMES: readonly StoreSettingName[] = ['scanToPack', 'claimQuietMs'];

const Word = { by: CounterNameSchema, at: z.number() };
const StoreSettingSchema = z.discriminatedUnion('name', [
  z.object({ name: z.literal('scanToPack'), value: z.boolean(), ...Word }),
  z.object({ name: z.literal('claimQuietMs'), value: z.number().int().min(60_000).max(4 * 3_600_000), ...Word }),
]);
type StoreSetting = z.infer<typeof StoreSettingSchema>;

/** This counter's settings, as the store's rules read and write them. */
export interface StoreSettingsPorts {
  current(): StoreSettingValues;
  /** Takes the store's word into this counter's settings. */
  apply(patch: Partial<StoreSettingValues>): void;
}

export interface StoreSettings {
  /** A manager changed store settings at this counter: into the hub, now or when it is back. */
  changed(patch: Partial<StoreSettingValues>): void;
  /** The hub is back: changes made meanwhile put, and a store's first word where the hub has none. */
  republish(): Promise<void>;
  close(): void;
}

function parse(entry: BucketEntry): StoreSetting | null {
  if (entry.operation !== 'PUT') return null;
  try {
    const r = StoreSettingSchema.safeParse(entry.json());
    return r.success && r.data.name === entry.key ? r.data : null;
  } catch {
    return null;
  }
}

/** Only the store's settings out of a patch. */
export function storeSettingsOf(patch: Partial<Record<string, unknown>>): Partial<StoreSettingValues> {
  const out: { scanToPack?: boolean; claimQuietMs?: number } = {};
  if (typeof patch.scanToPack === 'boolean') out.scanToPack = patch.scanToPack;
  if (typeof patch.claimQuietMs === 'number') out.claimQuietMs = patch.claimQuietMs;
  return out;
}

export async function openStoreSettings(
  nc: NatsConnection,
  options: { me: CounterIdentity; ports: StoreSettingsPorts; now: () => number; timers: Timers; log: Logger; onApplied: (patch: Partial<StoreSettingValues>) => void },
): Promise<StoreSettings> {
  const kv = await openBucket(nc, HUB_BUCKETS.storeSettings);
  return storeSettingsOver(kv, options);
}

export function storeSettingsOver(
  kv: Bucket,
  options: { me: CounterIdentity; ports: StoreSettingsPorts; now: () => number; timers: Timers; log: Logger; onApplied: (patch: Partial<StoreSettingValues>) => void },
): StoreSettings {
  const { me, ports, now, timers, log } = options;
  /** Changes made here the hub has not taken yet: they win over the hub's older word. */
  const pending = new Map<StoreSettingName, unknown>();
  let closed = false;
  const retry = new TimerSlot(timers, now, () => void putPending(), { keepAlive: false });

  const heard = (entry: BucketEntry): void => {
    const word = parse(entry);
    if (!word || pending.has(word.name)) return;
    if (ports.current()[word.name] === word.value) return;
    const patch = { [word.name]: word.value } as Partial<StoreSettingValues>;
    log.info('a store setting changed at another counter', { name: word.name, value: word.value, by: word.by });
    ports.apply(patch);
    options.onApplied(patch);
  };

  const put = async (name: StoreSettingName, value: unknown): Promise<void> => {
    await kv.put(name, JSON.stringify({ name, value, by: me.counterName, at: now() }));
    if (pending.get(name) === value) pending.delete(name);
  };

  const putPending = async (): Promise<void> => {
    for (const [name, value] of [...pending]) {
      if (closed) return;
      try {
        await put(name, value);
      } catch {
        if (!closed) retry.arm(RETRY_MS);
        return;
      }
    }
  };

  const watch: BucketWatch = watchBucket(kv, heard, timers);

  return {
    changed(patch) {
      for (const name of STORE_SETTING_NAMES) if (patch[name] !== undefined) pending.set(name, patch[name]);
      void putPending();
    },
    async republish() {
      await putPending();
      // The store's first word: this counter's settings, where the hub has none yet (another counter's, if it was quicker).
      const current = ports.current();
      for (const name of STORE_SETTING_NAMES) {
        if (closed) return;
        try {
          await kv.create(name, JSON.stringify({ name, value: current[name], by: me.counterName, at: now() }));
        } catch {
          // There already, or the hub away: either way its word (heard by the watch) stands.
        }
      }
    },
    close() {
      closed = true;
      retry.clear();
      watch.stop();
    },
  };
}
