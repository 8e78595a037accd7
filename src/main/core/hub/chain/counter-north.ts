/**
 * What one counter's hub session sends north: its health every 10 s and as soon as a figure changes
 * (looked at every second), and on the hub PC the store's summary too. Only when the store is in a
 * chain, which every counter learns from the hub itself: a hub in a chain runs JetStream in the
 * store's domain (its store id), one without has none. The figures come from the counter's own
 * ports, never an order body.
 */
import type { CounterPresence } from '../../../../shared/hub';
import { every, type Timers } from '../../time';
import type { NatsConnection } from '../nats/buckets';
import { jetStreamDomain } from '../nats/messages';
import { type CounterHealth, type StoreSummary, StoreIdSchema } from './north';
import { type OpenOrder, startOpenOrdersSender } from './open-orders';
import { type NorthBuilder, type NorthSender, startNorthSender } from './north-sender';

/** How often the figures are looked at for a change. */
const CHANGE_CHECK_MS = 1_000;

export type StoreSummaryFigures = Omit<StoreSummary, 'kind' | 'storeId' | 'seq' | 'runAt' | 'at'>;

/** The session's north settings: what this counter adds to its presence figures. */
export interface NorthOptions {
  /** This counter's figures beyond its presence. */
  health(): Pick<CounterHealth, 'lastIntakeAt' | 'storageWarnings'>;
  /** On the hub PC: the store's orders in figures. */
  summary?: () => StoreSummaryFigures;
  /** On the hub PC: the store's open orders (ids, steps, claims) for the fleet page's drill-down, read live by the centre. */
  openOrders?: () => readonly OpenOrder[];
  readonly everyMs?: number;
}

export interface NorthIdentity {
  readonly counterId: string;
  readonly counterName: string;
  readonly version: string;
}

/** Sends on a change of what `figures` returns (times of sending aside), besides the sender's own period. */
function onChange(timers: Timers, sender: NorthSender, figures: () => unknown): () => void {
  let last = JSON.stringify(figures());
  return every(timers, CHANGE_CHECK_MS, () => {
    const now = JSON.stringify(figures());
    if (now === last) return;
    last = now;
    sender.changed();
  });
}

/** The store id when this hub is in a chain (its JetStream domain), else null. */
export async function storeIdOfHub(nc: NatsConnection): Promise<string | null> {
  const parsed = StoreIdSchema.safeParse(await jetStreamDomain(nc, 2_000));
  return parsed.success ? parsed.data : null;
}

/** Starts this counter's north senders over its hub connection when the hub is in a chain; returns what stops them. */
export async function startCounterNorth(
  nc: NatsConnection,
  me: NorthIdentity,
  presence: () => Omit<CounterPresence, 'counterId' | 'counterName' | 'version' | 'at'>,
  north: NorthOptions,
  clock: { readonly now: () => number; readonly timers: Timers },
): Promise<() => void> {
  const storeId = await storeIdOfHub(nc);
  if (storeId === null) return () => undefined;
  const figures = (): Omit<CounterHealth, 'kind' | 'storeId' | 'counterId' | 'counterName' | 'version' | 'seq' | 'runAt' | 'at'> => {
    const p = presence();
    return {
      tapsWaiting: p.tapsWaiting,
      oldestWaitingAt: p.oldestWaitingAt,
      lastSentAt: p.lastSentAt,
      online: p.online,
      clockDifferenceMs: p.clockDifferenceMs,
      ...north.health(),
    };
  };
  const start = (build: NorthBuilder, watched: () => unknown): (() => void) => {
    const sender = startNorthSender({ nc, build, ...clock, ...(north.everyMs ? { everyMs: north.everyMs } : {}) });
    const stopWatch = onChange(clock.timers, sender, watched);
    return () => {
      stopWatch();
      sender.close();
    };
  };
  const stops = [
    start((stamp) => ({ kind: 'counter', storeId: storeId, counterId: me.counterId, counterName: me.counterName, version: me.version, ...stamp, ...figures() }), figures),
  ];
  const summary = north.summary;
  if (summary) stops.push(start((stamp) => ({ kind: 'summary', storeId: storeId, ...stamp, ...summary() }), summary));
  const openOrders = north.openOrders;
  if (openOrders) {
    stops.push(startOpenOrdersSender({ nc, storeId, orders: openOrders, ...clock, ...(north.everyMs ? { everyMs: north.everyMs } : {}) }));
  }
  return () => {
    for (const stop of stops) stop();
  };
}
