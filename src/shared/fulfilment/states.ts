/**
 * The fulfilment state machine. States only move forward; PACKING and PACKED belong to the
 * STORE fulfilment, OUT_FOR_DELIVERY and DELIVERED to the DELIVERY fulfilment.
 */
import type { FulfillmentState, Fulfillment, Order } from '../protocol/schemas';
import type { CancelMoment } from '../protocol/reasons';
import { normalizeOrderState } from '../protocol/vocabulary';

/** Position of a fulfilment state on the one forward path; unknown or absent is 0. */
const RANK: Readonly<Record<string, number>> = {
  PACKING: 1,
  PACKED: 2,
  SEARCHING_FOR_AGENT: 2.3,
  AGENT_ASSIGNED: 2.6,
  OUT_FOR_DELIVERY: 3,
  DELIVERED: 4,
};

/** Rank of a fulfilment state string (case-insensitive). */
export function fulfilmentRank(state: string | undefined): number {
  if (!state) return 0;
  return RANK[normalizeOrderState(state)] ?? 0;
}

/** Which fulfilment type a target state applies to. */
export function fulfilmentTypeFor(state: FulfillmentState): 'STORE' | 'DELIVERY' {
  return state === 'PACKING' || state === 'PACKED' ? 'STORE' : 'DELIVERY';
}

/** The order's fulfilment of a type (STORE or DELIVERY), if it has one. */
export function fulfilmentOfType<F extends Pick<Fulfillment, 'type'>>(order: { readonly fulfillments: readonly F[] }, type: 'STORE' | 'DELIVERY'): F | undefined {
  return order.fulfillments.find((f) => f.type.toUpperCase() === type);
}

/** Normalised order states Packdesk reasons about. */
export type OrderPhase = 'NEW' | 'ACCEPTED' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED';

/** The phase of an order; any state the service invents that we do not know is treated as NEW. */
export function orderPhase(order: Pick<Order, 'orderState'>): OrderPhase {
  const s = normalizeOrderState(order.orderState);
  if (s === 'ACCEPTED' || s === 'IN_PROGRESS' || s === 'COMPLETED' || s === 'CANCELLED') return s;
  return 'NEW';
}

/** The display word the sandbox and service use for an order state. */
export const ORDER_STATE_WORD: Readonly<Record<string, string>> = {
  ACCEPTED: 'Accepted',
  IN_PROGRESS: 'In-progress',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
};

/** Kinds of next step, in the order a packer meets them. COMPLETE closes a delivered order (ORDER_STATE_UPDATE COMPLETED). */
export type StepKey = 'ACCEPT' | FulfillmentState | 'COMPLETE';

export interface NextStep {
  readonly key: StepKey;
  /** Words on the big button. */
  readonly label: string;
  /** For fulfilment steps: the fulfilment it moves. */
  readonly fulfilmentId?: string;
}

export const STEP_LABEL: Readonly<Record<StepKey, string>> = {
  ACCEPT: 'Accept order',
  PACKING: 'Start packing',
  PACKED: 'Mark packed',
  OUT_FOR_DELIVERY: 'Out for delivery',
  DELIVERED: 'Mark delivered',
  COMPLETE: 'Complete order',
};

/**
 * All of an order that nextStep reads: its state and its fulfilments' ids, kinds and states (the
 * Orders search reads just these from a stored body, without checking all of it).
 */
export type StepFacts = Pick<Order, 'orderState'> & {
  readonly fulfillments: readonly Pick<Fulfillment, 'fulfillmentId' | 'type' | 'fulfillmentState'>[];
};

/** The ONE next step for an order, or null when nothing is left to do. `undefined` = not yet known. */
export function nextStep(order: StepFacts | undefined): NextStep | null {
  if (!order) return { key: 'ACCEPT', label: STEP_LABEL.ACCEPT };
  const phase = orderPhase(order);
  if (phase === 'CANCELLED' || phase === 'COMPLETED') return null;
  if (phase === 'NEW') return { key: 'ACCEPT', label: STEP_LABEL.ACCEPT };
  const store = fulfilmentOfType(order, 'STORE');
  if (store) {
    const rank = fulfilmentRank(store.fulfillmentState);
    if (rank < 1) return step('PACKING', store);
    if (rank < 2) return step('PACKED', store);
  }
  const delivery = fulfilmentOfType(order, 'DELIVERY');
  if (delivery) {
    const rank = fulfilmentRank(delivery.fulfillmentState);
    if (rank < 3) return step('OUT_FOR_DELIVERY', delivery);
    if (rank < 4) return step('DELIVERED', delivery);
    // Delivered but the service still says Accepted: closing the order is the last step.
    return { key: 'COMPLETE', label: STEP_LABEL.COMPLETE };
  }
  return null;
}

function step(key: FulfillmentState, f: Pick<Fulfillment, 'fulfillmentId'>): NextStep {
  return { key, label: STEP_LABEL[key], fulfilmentId: f.fulfillmentId };
}

/** When the STORE fulfilment's PACKED state was promised (epoch ms), for sorting the queue. */
export function promisedPackedAt(order: Order | undefined): number | undefined {
  if (!order) return undefined;
  return fulfilmentOfType(order, 'STORE')?.fulfilmentStatusHistory?.PACKED?.promised?.endTime;
}

/** When in its life an order is being cancelled: before Accept (Reject), in the store, or once it is out for delivery. */
export function cancelMoment(order: Order): CancelMoment {
  if (orderPhase(order) === 'NEW') return 'reject';
  const delivery = fulfilmentOfType(order, 'DELIVERY');
  return fulfilmentRank(delivery?.fulfillmentState) >= RANK.OUT_FOR_DELIVERY! ? 'onTheWay' : 'inStore';
}

/** How far an order phase is along; completed and cancelled are both the end. */
const PHASE_RANK: Readonly<Record<OrderPhase, number>> = { NEW: 0, ACCEPTED: 1, IN_PROGRESS: 2, COMPLETED: 3, CANCELLED: 3 };

/**
 * True when `candidate` shows the order at an earlier point than `held`: an earlier order phase, or
 * the same phase with a fulfilment further back and none further on. States only move forward, so
 * such a body was written before the held one, whatever its timestamp says.
 */
export function isBehind(candidate: Order, held: Order): boolean {
  const c = PHASE_RANK[orderPhase(candidate)];
  const h = PHASE_RANK[orderPhase(held)];
  if (c !== h) return c < h;
  let back = false;
  for (const f of candidate.fulfillments) {
    const other = held.fulfillments.find((g) => g.fulfillmentId === f.fulfillmentId);
    if (!other) continue;
    const d = fulfilmentRank(f.fulfillmentState) - fulfilmentRank(other.fulfillmentState);
    if (d > 0) return false;
    if (d < 0) back = true;
  }
  return back;
}
