/** Turns rows into the views the UI and the CLI show (src/shared/ipc.ts), so no shell recomputes them. */
import { nextStep, promisedPackedAt } from '../../../shared/fulfilment';
import { addCut, cutsShownOn } from '../../../shared/orders';
import { type Order, orderIdProblem } from '../../../shared/protocol';
import type { ItemCut, OrderView, OutboxEntryView } from '../../../shared/ipc';
import type { AlarmRow, CutRow, EntryRow, OrderRow } from '../db';
import { summarize } from './summary';
import { isPending, project, type ProjectFn } from './validate';

/** One outbox entry as shown; `order` (if known) names items in the summary. */
export function entryView(entry: EntryRow, order: Order | null): OutboxEntryView {
  return {
    id: entry.id,
    requestId: entry.requestId,
    orderId: entry.orderId,
    action: entry.action,
    summary: summarize(entry.action, order),
    state: entry.state,
    createdAt: entry.createdAt,
    sendAfter: entry.sendAfter,
    attempts: entry.attempts,
    nextAttemptAt: entry.nextAttemptAt,
    lastError: entry.lastError,
    mayBeApplied: entry.mayBeApplied,
    sentAt: entry.sentAt,
    packer: entry.packer,
    ...(entry.unitsBefore !== null ? { unitsBefore: entry.unitsBefore } : {}),
    ...(entry.hubUnchecked !== null ? { hub: { unchecked: entry.hubUnchecked !== 0, seen: [...(entry.hubSeen ?? [])] } } : {}),
  };
}

/**
 * One order as shown: the projected order, its one next step, how many taps wait or failed, its open
 * alarm, and the items this terminal cut (`cuts`, read for one order's whole view, not the queue's).
 */
export function orderView(
  row: OrderRow,
  entries: readonly EntryRow[],
  now: number,
  projectWith?: ProjectFn,
  alarm?: AlarmRow | null,
  cuts: readonly CutRow[] = [],
): OrderView {
  const projected = projectWith ? projectWith(row.id, row.body, entries, now) : project(row.body, entries, now);
  const pending = entries.filter(isPending);
  const waiting = pending.filter((e) => e.state === 'queued' || e.state === 'sending').length;
  const failed = pending.filter((e) => e.state === 'failed' && !e.mayBeApplied).length;
  // With no details yet, Accept is the only step, and once it waits there is nothing more to tap.
  const step = projected ? nextStep(projected) : pending.length > 0 ? null : nextStep(undefined);
  return {
    id: row.id,
    order: projected,
    nextStep: step,
    waiting,
    failed,
    mayBeApplied: pending.some((e) => e.state === 'failed' && e.mayBeApplied),
    needsRefresh: row.needsRefresh,
    promisedPackedAt: promisedPackedAt(projected ?? undefined) ?? null,
    syncedAt: row.syncedAt,
    addedAt: row.addedAt,
    unreadable: isUnreadable(row),
    ...(alarm && alarm.acknowledgedAt === null ? { alarm: { kind: alarm.kind, changedAt: alarm.changedAt, raisedAt: alarm.raisedAt } } : {}),
    ...cutsShown(cuts, projected),
  };
}

/** Per item, the count before its first cut and its latest cut's reason (shared/orders/cuts.ts). */
function cutsShown(rows: readonly CutRow[], order: Order | null): { cuts?: ItemCut[] } {
  let cuts: ItemCut[] = [];
  for (const r of rows) cuts = addCut(cuts, { itemId: r.itemId, was: r.unitsBefore, reason: r.reason });
  const shown = cutsShownOn(order, cuts);
  return shown.length > 0 ? { cuts: shown } : {};
}

/**
 * Whether the service's latest word on an order could not be read: a body that breaks the
 * schema's ranges (stored so by an older Packdesk, or refused on arrival with the answer kept), or
 * an id that breaks the one id rule. Such an order is set aside and named, never hides the others.
 */
export function isUnreadable(row: OrderRow): boolean {
  return row.bodyUnreadable || (row.rawUnreadable ?? '') !== '' || orderIdProblem(row.id) !== null;
}
