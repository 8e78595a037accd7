/**
 * What the store hub reads off this counter's engine for `CounterPorts`: its taps as every counter
 * sees them (`ownTaps`), and the figures its presence carries (`presenceFigures`). The outbox stays
 * the truth; these only translate its views into the hub's shapes.
 */
import type { CounterPresence, SharedTap } from '../../../shared/hub';
import type { EntryState, OutboxEntryView } from '../../../shared/ipc';
import type { Engine } from './engine';

/** How long an ended tap (sent, discarded) stays shown on other counters: a shift's worth. */
export const ENDED_SHOWN_MS = 6 * 3_600_000;
/** Ended taps looked at, newest first: more than a busy counter ends in ENDED_SHOWN_MS. */
const RECENT_LIMIT = 5_000;
/** Waiting and failed taps looked at: a counter's whole backlog, however long it grew offline. */
const PENDING_LIMIT = 100_000;

const SHARED_STATE: Record<EntryState, SharedTap['state']> = {
  queued: 'waiting',
  sending: 'waiting',
  sent: 'sent',
  failed: 'failed',
  discarded: 'discarded',
};

/** One outbox entry as other counters see it. */
export function sharedTapOf(entry: OutboxEntryView, counter: { readonly counterId: string; readonly counterName: string }): SharedTap {
  return {
    requestId: entry.requestId,
    orderId: entry.orderId,
    counterId: counter.counterId,
    counterName: counter.counterName,
    action: entry.action,
    summary: entry.summary.slice(0, 200),
    state: SHARED_STATE[entry.state],
    queuedAt: entry.createdAt,
    sentAt: entry.sentAt,
    packer: entry.packer?.slice(0, 60) ?? null,
    unchecked: entry.hub?.unchecked ?? false,
    // A tap made before this counter joined a hub says nothing of what it had heard: never counted as made apart.
    seen: entry.hub ? entry.hub.seen.slice(0, 256) : null,
    unitsBefore: entry.unitsBefore ?? null,
  };
}

/**
 * This counter's taps the hub should show: every waiting or failed one (a failed tap holds its
 * order until a person acts), and those sent or discarded in the last ENDED_SHOWN_MS. A discarded
 * entry keeps no time of its own ending, so its queuing time stands in.
 */
export function ownTaps(engine: Engine, counter: { readonly counterId: string; readonly counterName: string }, now: number): SharedTap[] {
  const since = now - ENDED_SHOWN_MS;
  const byId = new Map<number, OutboxEntryView>();
  for (const entry of engine.listOutbox({ limit: PENDING_LIMIT })) byId.set(entry.id, entry);
  for (const entry of engine.listOutbox({ includeDone: true, limit: RECENT_LIMIT })) {
    const endedAt = entry.state === 'sent' ? (entry.sentAt ?? entry.createdAt) : entry.state === 'discarded' ? entry.createdAt : null;
    if (endedAt !== null && endedAt >= since) byId.set(entry.id, entry);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id).map((entry) => sharedTapOf(entry, counter));
}

/** The figures this counter's presence carries, from its engine's sync status. */
export function presenceFigures(engine: Engine): Omit<CounterPresence, 'counterId' | 'counterName' | 'version' | 'at'> {
  const status = engine.status();
  return {
    tapsWaiting: status.waiting,
    oldestWaitingAt: status.oldestWaitingAt,
    lastSentAt: status.lastSuccessAt,
    clockDifferenceMs: status.clockSkewMs,
    online: status.connectivity === 'online',
  };
}
