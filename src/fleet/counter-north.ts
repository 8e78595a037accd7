/**
 * What one counter's hub session sends north: its health every 10 s and as soon as a figure changes
 * (looked at every second), and on the hub PC the store's summary too. Only when the store is
 * configured into a chain; the figures come from the counter's own ports, never an order body.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { CounterPresence } from '../shared/hub';
import { every, type Timers } from '../main/core/time';
import type { CounterHealth, StoreSummary } from './north';
import { ensureNorthStream, type NorthBuilder, type NorthSender, startNorthSender } from './store-side';

/** How often the figures are looked at for a change. */
const CHANGE_CHECK_MS = 1_000;

export type StoreSummaryFigures = Omit<StoreSummary, 'kind' | 'storeId' | 'seq' | 'runAt' | 'at'>;

/** The session's north settings: given when the store is in a chain. */
export interface NorthOptions {
  readonly storeId: string;
  /** This counter's figures beyond its presence. */
  health(): Pick<CounterHealth, 'lastIntakeAt' | 'storageWarnings'>;
  /** On the hub PC: the store's orders in figures. */
  summary?: () => StoreSummaryFigures;
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
    void sender.changed();
  });
}

/** Starts this counter's north senders over its hub connection; returns what stops them. */
export async function startCounterNorth(
  nc: NatsConnection,
  me: NorthIdentity,
  presence: () => Omit<CounterPresence, 'counterId' | 'counterName' | 'version' | 'at'>,
  north: NorthOptions,
  clock: { readonly now: () => number; readonly timers: Timers },
): Promise<() => void> {
  await ensureNorthStream(nc);
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
    start((stamp) => ({ kind: 'counter', storeId: north.storeId, counterId: me.counterId, counterName: me.counterName, version: me.version, ...stamp, ...figures() }), figures),
  ];
  const summary = north.summary;
  if (summary) stops.push(start((stamp) => ({ kind: 'summary', storeId: north.storeId, ...stamp, ...summary() }), summary));
  return () => {
    for (const stop of stops) stop();
  };
}
