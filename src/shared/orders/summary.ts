/**
 * An order's queue row: its view without the body, and the few facts a row shows read off the
 * body once. The main side answers `orders.list` with these; the renderer makes the same row from
 * each whole view an event brings, so both agree by construction.
 */
import type { OrderFacts, OrderSummary, OrderView } from '../ipc';
import type { Order } from '../protocol/schemas';
import { fulfilmentRank, orderPhase } from '../fulfilment/states';

/** Whether any item needs a prescription checked. */
export function hasPrescriptionItem(order: Order): boolean {
  return order.items.some((i) => i.prescriptionRequired === true);
}

/** Who the order is for, how many lines and units, its state, and whether a prescription is involved. */
export function factsOf(order: Order): OrderFacts {
  // An order body the host keeps parsed is the same object until it is written again, and the
  // queue lists every order on each start: its facts are read off it once.
  const known = factsOfBody.get(order);
  if (known) return known;
  const customer = order.billing?.name ?? order.fulfillments.find((f) => f.end?.person?.name)?.end?.person?.name ?? null;
  const facts: OrderFacts = {
    orderState: order.orderState.trim(),
    customer: customer?.trim() ? customer : null,
    lines: order.items.length,
    units: order.items.reduce((sum, i) => sum + i.quantity.count, 0),
    prescription: hasPrescriptionItem(order),
  };
  const step = stepReached(order);
  if (step) facts.step = step;
  factsOfBody.set(order, facts);
  return facts;
}
const factsOfBody = new WeakMap<Order, OrderFacts>();

/** The steps a packer taps; the rider's states in between (finding one, assigned) read as Packed. */
const PACKER_STEPS = ['PACKING', 'PACKED', 'OUT_FOR_DELIVERY', 'DELIVERED'] as const;

/** The furthest of the packer's steps any fulfilment reached, while the order is accepted or in progress; null otherwise. */
function stepReached(order: Order): string | null {
  const phase = orderPhase(order);
  if (phase !== 'ACCEPTED' && phase !== 'IN_PROGRESS') return null;
  const rank = Math.max(0, ...order.fulfillments.map((f) => fulfilmentRank(f.fulfillmentState)));
  const reached = PACKER_STEPS.filter((step) => fulfilmentRank(step) <= rank);
  return reached[reached.length - 1] ?? null;
}

/**
 * The queue row of a view: every field but the body, spelled out (a rest-spread copy of 5,000 views
 * was most of the summaries' cost); a new view field that is required fails to compile here.
 */
export function summarize(view: OrderView): OrderSummary {
  const row: OrderSummary = {
    id: view.id,
    nextStep: view.nextStep,
    waiting: view.waiting,
    failed: view.failed,
    mayBeApplied: view.mayBeApplied,
    needsRefresh: view.needsRefresh,
    promisedPackedAt: view.promisedPackedAt,
    syncedAt: view.syncedAt,
    addedAt: view.addedAt,
    facts: view.order ? factsOf(view.order) : null,
    ...(view.unreadable ? { unreadable: true } : {}),
  };
  // Optional, so set only when there is one: a row shows the alarm of an order changed elsewhere.
  if (view.alarm) row.alarm = view.alarm;
  // With a store hub: the row says who packs it and what waits to be sent from another counter.
  if (view.claim) row.claim = view.claim;
  if (view.elsewhere) row.elsewhere = view.elsewhere;
  // Packed twice while the counters were apart: the row and the dock say so, the alarm sounds.
  if (view.conflict) row.conflict = view.conflict;
  if (view.alarmElsewhere) row.alarmElsewhere = view.alarmElsewhere;
  return row;
}
