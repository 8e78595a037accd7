/**
 * Whether an order, as the service shows it, already carries an action's effect: the question
 * "check before resend" asks (decisions.md) before an entry whose earlier attempt got no answer
 * is sent again, and after a refusal that may only mean "already done".
 */
import type { Action, Order } from '../protocol/schemas';
import { fulfilmentRank, orderPhase, type OrderPhase } from './states';

// The forward path of an order; CANCELLED is off it and only shows itself.
const PHASE_RANK: Readonly<Record<OrderPhase, number>> = { NEW: 0, ACCEPTED: 1, IN_PROGRESS: 2, COMPLETED: 3, CANCELLED: -1 };

/**
 * True when `order` shows `action` applied: the fulfilment state reached or passed, the order state
 * reached (or passed, on the forward path), the item's units equal to the requested count. An
 * invoice cannot be seen in the order body: always false, so it is resent.
 */
export function showsEffect(order: Order, action: Action): boolean {
  switch (action.type) {
    case 'ORDER_FULFILMENT_STATE_UPDATE': {
      const f = order.fulfillments.find((x) => x.fulfillmentId === action.fulfilmentId);
      return f !== undefined && fulfilmentRank(f.fulfillmentState) >= fulfilmentRank(action.fulfillmentState);
    }
    case 'ORDER_STATE_UPDATE': {
      const phase = orderPhase(order);
      const target = action.orderState as OrderPhase;
      if (target === 'CANCELLED' || phase === 'CANCELLED') return phase === target;
      const want = PHASE_RANK[target];
      return want !== undefined && want > 0 && PHASE_RANK[phase] >= want;
    }
    case 'ITEM_UNIT_UPDATE': {
      const item = order.items.find((i) => i.itemId === action.itemId);
      return item !== undefined && item.quantity.count === action.itemUnits;
    }
    case 'CLIENT_ORDER_INFO_UPDATE':
      return false;
  }
}

/** An order's `updatedAt` as epoch ms, or null when it has none readable. */
export function changedAtOf(order: Order): number | null {
  const at = order.updatedAt ? Date.parse(order.updatedAt) : Number.NaN;
  return Number.isNaN(at) ? null : at;
}

/**
 * Where `order` stands on the step `action` asks for, and since when: what a packer is told when
 * someone else already made that step ("Already packing elsewhere (11:42)"). `state` is the
 * fulfilment state or order state the order shows, or UNITS for a unit change.
 */
export function stepReached(order: Order, action: Action): { state: string; at: number | null } {
  switch (action.type) {
    case 'ORDER_FULFILMENT_STATE_UPDATE': {
      const f = order.fulfillments.find((x) => x.fulfillmentId === action.fulfilmentId);
      const state = (f?.fulfillmentState ?? action.fulfillmentState).toUpperCase();
      const at = f?.fulfilmentStatusHistory?.[state]?.actual?.endTime ?? f?.fulfilmentStatusHistory?.[action.fulfillmentState]?.actual?.endTime;
      return { state, at: at ?? changedAtOf(order) };
    }
    case 'ORDER_STATE_UPDATE':
      return { state: orderPhase(order), at: changedAtOf(order) };
    case 'ITEM_UNIT_UPDATE':
    case 'CLIENT_ORDER_INFO_UPDATE':
      return { state: 'UNITS', at: changedAtOf(order) };
  }
}
