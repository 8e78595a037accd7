/**
 * An order's timeline from the terminal's own records: when it arrived, each tap (what, who, at
 * which counter, when the service confirmed it), what happened to the taps after (attempts, undo,
 * retry, discard), its alarm, its prints, and when it left the terminal. Oldest first.
 */
import type { OrderTimeline, TimelineEvent } from '../../../shared/ipc';
import type { Store } from '../db';

// Audit kinds that are about a tap after it was queued; 'tap' lines are refusals, said by their own tap.
const AUDIT_EVENT = { attempt: 'attempt', undo: 'undo', retry: 'retry', discard: 'discard', recover: 'recover', tap: null } as const;

/** The timeline of `orderId`; null when this terminal never had the order. */
export function orderTimeline(store: Store, orderId: string): OrderTimeline | null {
  const records = store.history.order(orderId);
  if (records === null) return null;
  const { facts, taps, audit, alarm, prints } = records;
  const events: TimelineEvent[] = [{ at: facts.addedAt, kind: 'arrived', counter: null, packer: null }];
  const byEntry = new Map(taps.map((t) => [t.id, t]));
  for (const tap of taps) {
    events.push({ at: tap.createdAt, kind: 'tap', action: tap.action, entryId: tap.id, counter: tap.terminal, packer: tap.packer, state: tap.state, ...(tap.problemCode ? { outcome: tap.problemCode } : {}) });
    if (tap.sentAt !== null && tap.state === 'sent') events.push({ at: tap.sentAt, kind: 'confirmed', action: tap.action, entryId: tap.id, counter: tap.terminal, packer: tap.packer });
  }
  for (const line of audit) {
    const kind = AUDIT_EVENT[line.kind];
    // Successful attempts are the "confirmed" moments already; the others say why a tap waited.
    if (kind === null || (kind === 'attempt' && line.outcome === 'sent')) continue;
    const tap = line.entryId === null ? undefined : byEntry.get(line.entryId);
    events.push({
      at: line.time,
      kind,
      ...(tap ? { action: tap.action, entryId: tap.id } : {}),
      counter: line.terminal,
      packer: line.packer,
      outcome: line.outcome,
    });
  }
  if (alarm) events.push({ at: alarm.raisedAt, kind: 'alarm', counter: null, packer: null, outcome: alarm.kind });
  for (const p of prints) events.push({ at: p.time, kind: 'print', counter: p.terminal, packer: null, document: p.document, outcome: p.outcome });
  events.push(...conflictEvents(store, orderId));
  if (facts.removedAt !== null) events.push({ at: facts.removedAt, kind: 'left', counter: null, packer: null });
  // Stable: equal times keep the order they were gathered in (a tap before its own confirmation).
  events.sort((a, b) => a.at - b.at);
  return { orderId, reprintable: facts.removedAt === null && facts.orderState !== null, events };
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
