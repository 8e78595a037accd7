/**
 * The queue's views beside its steps: "Late" (still to be packed, its promised PACKED time gone)
 * and "Done today" (nothing left to do, its last answer from the service today). Pure.
 */
import { dayBounds, dayOf } from '../../../../shared/days';
import type { OrderSummary } from '../../../../shared/ipc';
import { stepOf } from '../../store/orders';
import type { QueueView } from '../../store/ui';

const PACKING_STEPS = new Set(['ACCEPT', 'PACKING', 'PACKED']);

/** The start of the local day of `now`. */
function dayStart(now: number): number {
  return dayBounds(dayOf(now)).from;
}

/** Whether `view` belongs in the queue's `filter` at `now`. */
export function inView(view: OrderSummary, filter: QueueView, now: number): boolean {
  if (filter === 'ALL') return true;
  const step = stepOf(view);
  if (filter === 'LATE') return PACKING_STEPS.has(step) && view.promisedPackedAt !== null && view.promisedPackedAt < now;
  if (filter === 'DONE_TODAY') return step === 'DONE' && (view.syncedAt ?? view.addedAt) >= dayStart(now);
  return step === filter;
}
