/** The store's orders in figures for the centre, from the queue's rows a counter holds (counts only: no id, no customer). */
import type { OrderSummary } from '../../../../shared/ipc';
import type { StoreSummaryFigures } from './counter-north';

/** Steps before the order is packed: its next step is to start or finish packing. */
const PACKING_STEPS: ReadonlySet<string> = new Set(['PACKING', 'PACKED']);

/** Counts orders waiting for Accept, being packed (accepted, not yet packed), late (past their promised packed time, not yet packed) and open cancelled alarms. */
export function storeSummary(orders: readonly Pick<OrderSummary, 'nextStep' | 'promisedPackedAt' | 'alarm'>[], now: number): StoreSummaryFigures {
  let awaitingAccept = 0;
  let beingPacked = 0;
  let late = 0;
  let cancelledAlarmsOpen = 0;
  for (const view of orders) {
    const step = view.nextStep?.key ?? null;
    if (step === 'ACCEPT') awaitingAccept += 1;
    else if (step !== null && PACKING_STEPS.has(step)) beingPacked += 1;
    const notPacked = step === 'ACCEPT' || (step !== null && PACKING_STEPS.has(step));
    if (notPacked && view.promisedPackedAt !== null && view.promisedPackedAt < now) late += 1;
    if (view.alarm?.kind === 'cancelled') cancelledAlarmsOpen += 1;
  }
  return { awaitingAccept, beingPacked, late, cancelledAlarmsOpen };
}
