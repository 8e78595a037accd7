/**
 * A tap's typed input into a protocol action, checked by hand: what the renderer and the engine
 * share without zod (the renderer's bundle does not build the schemas).
 */
import { fail, ok, type Result } from '../result';
import { idFault, MAX_ID_LENGTH } from './orderId';
import { CANCEL_REASONS, findReason, ITEM_UNIT_REASONS } from './reasons';
import type { Action } from './schemas';
import { FULFILLMENT_STATES, type FulfillmentState, ORDER_STATES, type OrderStateRequest } from './vocabulary';

export { idFault } from './orderId';

/** What a packer asked for, before it becomes a protocol action. */
export type ActionInput =
  | { readonly kind: 'fulfilment'; readonly fulfilmentId: string; readonly state: FulfillmentState }
  | { readonly kind: 'units'; readonly itemId: string; readonly units: number; readonly reason: string }
  | { readonly kind: 'orderState'; readonly state: OrderStateRequest; readonly reason?: string }
  | { readonly kind: 'invoice'; readonly sellerInvoiceId: string };

/** Checks an identifier typed, scanned or read from a file; returns it trimmed. */
export function checkId(what: string, raw: unknown): Result<string> {
  if (typeof raw !== 'string') return fail('invalid', `${what} is missing`, 'EMPTY_ID');
  const value = raw.trim();
  if (value.length === 0) return fail('invalid', `${what} must not be empty`, 'EMPTY_ID');
  if (value.length > MAX_ID_LENGTH)
    return fail('invalid', `${what} is too long (${value.length} characters, at most ${MAX_ID_LENGTH})`, 'ID_TOO_LONG');
  const fault = idFault(value);
  if (fault) return fail('invalid', `${what} ${fault}`, 'BAD_ID');
  return ok(value);
}

/**
 * The protocol action a tap asks for, checked by hand (ids, states, reasons) but not against the
 * action schema: `buildAction` adds that. The renderer foresees taps with this one, without zod.
 */
export function actionFor(input: ActionInput): Result<Action> {
  switch (input.kind) {
    case 'fulfilment': {
      const id = checkId('Fulfilment id', input.fulfilmentId);
      if (!id.ok) return id;
      if (!FULFILLMENT_STATES.includes(input.state))
        return fail('invalid', `Unknown fulfilment state "${String(input.state)}"`, 'UNKNOWN_STATE');
      return ok({ type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: id.value, fulfillmentState: input.state });
    }
    case 'units': {
      const id = checkId('Item id', input.itemId);
      if (!id.ok) return id;
      if (!Number.isInteger(input.units))
        return fail('invalid', 'Units must be a whole number', 'UNITS_NOT_INTEGER');
      if (input.units < 0) return fail('invalid', 'Units cannot be negative', 'NEGATIVE_UNITS');
      if (!input.reason) return fail('invalid', 'Choose a reason for changing the units', 'MISSING_REASON');
      if (!findReason(ITEM_UNIT_REASONS, input.reason))
        return fail('invalid', `"${input.reason}" is not a reason for changing units`, 'UNKNOWN_REASON');
      return ok({ type: 'ITEM_UNIT_UPDATE', itemId: id.value, itemUnits: input.units, reason: input.reason });
    }
    case 'orderState': {
      if (!ORDER_STATES.includes(input.state))
        return fail('invalid', `Unknown order state "${String(input.state)}"`, 'UNKNOWN_STATE');
      if (input.state === 'CANCELLED') {
        if (!input.reason) return fail('invalid', 'Choose a reason to cancel the order', 'MISSING_REASON');
        if (!findReason(CANCEL_REASONS, input.reason))
          return fail('invalid', `"${input.reason}" is not a cancellation reason`, 'UNKNOWN_REASON');
      }
      const reason = input.reason?.trim();
      return ok(
        reason ? { type: 'ORDER_STATE_UPDATE', orderState: input.state, reason } : { type: 'ORDER_STATE_UPDATE', orderState: input.state },
      );
    }
    case 'invoice': {
      const id = checkId('Invoice number', input.sellerInvoiceId);
      if (!id.ok) return id;
      return ok({ type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: id.value } });
    }
    default:
      return fail('invalid', 'Unknown kind of action', 'UNKNOWN_ACTION');
  }
}

