/**
 * An order's timeline from the terminal's own records: when it arrived, each tap (what, who, at
 * which counter, when the service confirmed it), what happened to the taps after (attempts, undo,
 * retry, discard), its alarm, its prints, and when it left the terminal. Oldest first. With a store
 * hub, every other counter's taps heard through it too (hub_taps), so the order reads the same on
 * every counter; counters are named by their names, never by terminal ids (this counter's own rows
 * carry its terminal id: said as its hub name, or not at all without one).
 */
import type { OrderTimeline, TimelineEvent } from '../../../shared/ipc';
import type { Store } from '../db';

// Audit kinds that are about a tap after it was queued; 'tap' lines are refusals, said by their own tap.
const AUDIT_EVENT = { attempt: 'attempt', undo: 'undo', retry: 'retry', discard: 'discard', recover: 'recover', tap: null } as const;

/** Who this counter is: its terminal id (as its rows carry it) and its name in its store hub (null: none). */
export interface TimelineCounter {
  readonly terminal: string;
  readonly counterName: string | null;
}

/** The timeline of `orderId`; null when this terminal never had the order. */
export function orderTimeline(store: Store, orderId: string, me: TimelineCounter): OrderTimeline | null {
  const records = store.history.order(orderId);
  if (records === null) return null;
  const { facts, taps, audit, alarm, prints } = records;
  // A terminal id is never shown: this counter's is said by its hub name; another's (a salvaged file's) by none.
  const name = (terminal: string | null): string | null => (terminal === me.terminal ? me.counterName : null);
  const events: TimelineEvent[] = [{ at: facts.addedAt, kind: 'arrived', counter: null, packer: null }];
  const byEntry = new Map(taps.map((t) => [t.id, t]));
  for (const tap of taps) {
    const counter = name(tap.terminal);
    events.push({ at: tap.createdAt, kind: 'tap', action: tap.action, entryId: tap.id, counter, packer: tap.packer, state: tap.state, ...(tap.problemCode ? { outcome: tap.problemCode } : {}) });
    if (tap.sentAt !== null && tap.state === 'sent') events.push({ at: tap.sentAt, kind: 'confirmed', action: tap.action, entryId: tap.id, counter, packer: tap.packer });
  }
  events.push(...otherCountersTaps(store, orderId));
  for (const line of audit) {
    const kind = AUDIT_EVENT[line.kind];
    // Successful attempts are the "confirmed" moments already; the others say why a tap waited.
    if (kind === null || (kind === 'attempt' && line.outcome === 'sent')) continue;
    const tap = line.entryId === null ? undefined : byEntry.get(line.entryId);
    events.push({
      at: line.time,
      kind,
      ...(tap ? { action: tap.action, entryId: tap.id } : {}),
      counter: name(line.terminal),
      packer: line.packer,
      outcome: line.outcome,
    });
  }
  if (alarm) events.push({ at: alarm.raisedAt, kind: 'alarm', counter: null, packer: null, outcome: alarm.kind });
  for (const p of prints) events.push({ at: p.time, kind: 'print', counter: name(p.terminal), packer: null, document: p.document, outcome: p.outcome });
  events.push(...conflictEvents(store, orderId));
  if (facts.removedAt !== null) events.push({ at: facts.removedAt, kind: 'left', counter: null, packer: null });
  // Stable: equal times keep the order they were gathered in (a tap before its own confirmation).
  events.sort((a, b) => a.at - b.at);
  return { orderId, reprintable: facts.removedAt === null && facts.orderState !== null, events };
}

/** The state of another counter's tap, in the outbox's words. */
const STATE_OF = { waiting: 'queued', sent: 'sent', failed: 'failed', discarded: 'discarded' } as const;

/** Other counters' taps on the order, as heard through the store hub: each tap, and its confirmation when sent. */
function otherCountersTaps(store: Store, orderId: string): TimelineEvent[] {
  return store.hubTaps.forOrder(orderId).flatMap((t): TimelineEvent[] => {
    const tap: TimelineEvent = { at: t.queuedAt, kind: 'tap', action: t.action, counter: t.counterName, packer: t.packer, state: STATE_OF[t.state] };
    return t.state === 'sent' && t.sentAt !== null ? [tap, { at: t.sentAt, kind: 'confirmed', action: t.action, counter: t.counterName, packer: t.packer }] : [tap];
  });
}

/** Packed twice while the counters were apart (issue 39): found (on the finder's clock, alike on every counter), settled, and the items put back here. */
function conflictEvents(store: Store, orderId: string): TimelineEvent[] {
  const row = store.conflicts.get(orderId);
  if (!row) return [];
  const { record } = row;
  const parties = record.parties.map((p) => ({ counterName: p.counterName, packers: [...p.packers] }));
  const events: TimelineEvent[] = [{ at: record.raisedAt, kind: 'conflict', counter: null, packer: null, parties }];
  if (record.settled) events.push({ at: record.settled.at, kind: 'settled', counter: record.settled.byCounter, packer: record.settled.byPacker, keeper: record.settled.keeperName });
  if (row.putBackAt !== null) events.push({ at: row.putBackAt, kind: 'putBack', counter: null, packer: null });
  return events;
}
