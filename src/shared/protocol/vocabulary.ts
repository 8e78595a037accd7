/**
 * The specification's closed sets of words (states, action types) and how order states compare,
 * without zod: the renderer's bundle uses them (foreseeing a tap) and must not build the schemas.
 */

export const FULFILLMENT_STATES = ['PACKING', 'PACKED', 'OUT_FOR_DELIVERY', 'DELIVERED'] as const;
export type FulfillmentState = (typeof FULFILLMENT_STATES)[number];

export const ORDER_STATES = ['ACCEPTED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;
export type OrderStateRequest = (typeof ORDER_STATES)[number];

export const ACTION_TYPES = [
  'ORDER_FULFILMENT_STATE_UPDATE',
  'ITEM_UNIT_UPDATE',
  'ORDER_STATE_UPDATE',
  'CLIENT_ORDER_INFO_UPDATE',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Upper-cases an order state so `Accepted` and `ACCEPTED` compare equal. */
export function normalizeOrderState(state: string): string {
  return state.trim().toUpperCase().replace(/[\s-]+/g, '_');
}

/** True when two order states name the same state, whatever their case. */
export function sameOrderState(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return normalizeOrderState(a) === normalizeOrderState(b);
}
