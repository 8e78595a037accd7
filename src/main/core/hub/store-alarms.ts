/**
 * An order cancelled (or its items changed) elsewhere while a counter packs it raises the alarm on
 * that counter (outbox/elsewhere.ts); every other counter of the store shows a solid red line about
 * it, on every screen, until the packing counter's people acknowledge the alarm (issue 39). Each
 * counter puts its own alarms into `packdesk-alarms` (one key per counter and order: raised, then
 * acknowledged) and watches the others'. A counter puts its open alarms again when the hub is back.
 */
import { z } from 'zod';
import { CounterIdSchema, CounterNameSchema } from '../../../shared/hub';
import { OrderIdSchema } from '../../../shared/protocol/schemas';
import type { Logger } from '../log';
import { type Timers, TimerSlot } from '../time';
import { type Bucket, type BucketEntry, type BucketWatch, type NatsConnection, openBucket, watchBucket } from './nats/buckets';
import { keyOf } from './keys';
import type { CounterIdentity } from './ports';
import { HUB_BUCKETS, STORE_ALARMS_BUCKET } from './registry';

// An alarm is a matter of the day: the hub forgets it two days after its last write (registry.ts).
export { STORE_ALARMS_BUCKET };
const RETRY_MS = 2_000;

export const StoreAlarmSchema = z.object({
  orderId: OrderIdSchema,
  kind: z.enum(['cancelled', 'items']),
  changedAt: z.number(),
  counterId: CounterIdSchema,
  counterName: CounterNameSchema,
  /** Who is packing it there, when known. */
  packer: z.string().max(60).nullable(),
  acknowledgedAt: z.number().nullable(),
});
export type StoreAlarm = z.infer<typeof StoreAlarmSchema>;

export interface StoreAlarms {
  /** This counter's alarm raised or acknowledged: into the hub, now or when it is back. */
  share(alarm: StoreAlarm): void;
  /** The hub is back: this counter's alarms put again. */
  republish(): Promise<void>;
  /** Another counter's open alarm on an order, as last heard. */
  elsewhere(orderId: string): StoreAlarm | null;
  close(): void;
}

export interface StoreAlarmsOptions {
  readonly me: CounterIdentity;
  readonly now: () => number;
  readonly timers: Timers;
  readonly log: Logger;
  /** This counter's open alarms as its file holds them (put again when the hub is back, a restart or not). */
  readonly mine: () => readonly StoreAlarm[];
  /** Told of orders whose alarm at another counter was raised or acknowledged. */
  readonly onChanged: (orderIds: readonly string[]) => void;
}

export async function openStoreAlarms(nc: NatsConnection, options: StoreAlarmsOptions): Promise<StoreAlarms> {
  const kv = await openBucket(nc, HUB_BUCKETS.alarms);
  return storeAlarmsOver(kv, options);
}

export function storeAlarmsOver(kv: Bucket, options: StoreAlarmsOptions): StoreAlarms {
  const { me, now, timers } = options;
  /** Other counters' alarms by order, then by counter. */
  const heard = new Map<string, Map<string, StoreAlarm>>();
  /** This counter's, by order: the hub is given them again when it is back. */
  const own = new Map<string, StoreAlarm>();
  const unsent = new Set<string>();
  let closed = false;
  const retry = new TimerSlot(timers, now, () => void putUnsent(), { keepAlive: false });

  const onEntry = (entry: BucketEntry): void => {
    if (entry.operation !== 'PUT') return;
    let alarm: StoreAlarm;
    try {
      const r = StoreAlarmSchema.safeParse(entry.json());
      if (!r.success || entry.key !== `${r.data.counterId}.${keyOf(r.data.orderId)}`) return;
      alarm = r.data;
    } catch {
      return;
    }
    if (alarm.counterId === me.counterId) return;
    const at = heard.get(alarm.orderId) ?? new Map<string, StoreAlarm>();
    at.set(alarm.counterId, alarm);
    heard.set(alarm.orderId, at);
    options.onChanged([alarm.orderId]);
  };

  const putUnsent = async (): Promise<void> => {
    for (const orderId of [...unsent]) {
      const alarm = own.get(orderId);
      if (!alarm || closed) continue;
      try {
        await kv.put(`${me.counterId}.${keyOf(orderId)}`, JSON.stringify(alarm));
        if (own.get(orderId) === alarm) unsent.delete(orderId);
      } catch {
        if (!closed) retry.arm(RETRY_MS);
        return;
      }
    }
  };

  const watch: BucketWatch = watchBucket(kv, onEntry, timers);

  return {
    share(alarm) {
      own.set(alarm.orderId, alarm);
      unsent.add(alarm.orderId);
      void putUnsent();
    },
    async republish() {
      for (const alarm of options.mine()) if (!own.has(alarm.orderId)) own.set(alarm.orderId, alarm);
      for (const orderId of own.keys()) unsent.add(orderId);
      await putUnsent();
    },
    elsewhere(orderId) {
      for (const alarm of heard.get(orderId)?.values() ?? []) if (alarm.acknowledgedAt === null) return alarm;
      return null;
    },
    close() {
      closed = true;
      retry.clear();
      watch.stop();
    },
  };
}
