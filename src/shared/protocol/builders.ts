/**
 * Builders: typed input from a tap (or the CLI) into a valid action and request.
 * Invalid input is refused with a message a packer understands; nothing half-built escapes.
 */
import { fail, ok, type Result } from '../result';
import { actionFor, type ActionInput, checkId } from './actions';
import { type Action, ActionSchema, describeZodError, type OrderUpdateRequest, orderUpdateRequestSchema } from './schemas';

export { actionFor, type ActionInput, checkId, idFault } from './actions';

/** Builds one protocol action from typed input, or says why it cannot: checked by hand, then against the action schema. */
export function buildAction(input: ActionInput): Result<Action> {
  const action = actionFor(input);
  if (!action.ok) return action;
  const parsed = ActionSchema.safeParse(action.value);
  return parsed.success ? ok(parsed.data) : fail('invalid', describeZodError(parsed.error), 'INVALID_ACTION');
}

/** Builds the update request for one order; the order id doubles as transactionId (spec sample). */
export function buildUpdateRequest(orderId: string, requestId: string, actions: readonly Action[]): Result<OrderUpdateRequest> {
  const id = checkId('Order id', orderId);
  if (!id.ok) return id;
  const parsed = orderUpdateRequestSchema().safeParse({
    requestContext: { requestId, transactionId: id.value, actionType: 'UPDATE' },
    orderId: id.value,
    actions,
  });
  return parsed.success ? ok(parsed.data) : fail('invalid', describeZodError(parsed.error), 'INVALID_REQUEST');
}
