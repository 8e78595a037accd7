/**
 * The bodies and statuses the order service answers with. Error answers always carry the
 * request's context and an `error` with a code and a message (spec: Error response).
 */
import type { RefusalCode } from '../src/shared/fulfilment/apply';

/** requestId and transactionId as far as they could be read from the request. */
export interface EchoContext {
  requestId?: string;
  transactionId?: string;
}

/** An answer ready to send: status, JSON body text, extra headers. */
export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  /** The error code, for the request log. */
  errorCode?: string;
  /** Send nothing: cut the connection instead (the "applied, then dropped" fault). */
  drop?: true;
}

/** Builds an error answer in the spec's error-response shape. */
export function errorAnswer(
  status: number,
  context: EchoContext,
  errorCode: string,
  message: string,
  headers?: Record<string, string>,
): Answer {
  const body = JSON.stringify({ requestContext: context, error: { errorCode, message } });
  return headers ? { status, body, headers, errorCode } : { status, body, errorCode };
}

/**
 * Status for each refusal of the shared state machine. 409 Conflict when the action clashes with
 * the order's current state (sending it later, or after another action, could succeed); 422 when
 * the action itself is wrong for this order (unknown item or fulfilment, bad reason, too many
 * units). The client treats both as permanent (decisions.md), so the split only informs people.
 */
export const REFUSAL_STATUS: Readonly<Record<RefusalCode, 409 | 422>> = {
  ORDER_CANCELLED: 409,
  ORDER_COMPLETED: 409,
  NOT_ACCEPTED: 409,
  ALREADY_IN_STATE: 409,
  BACKWARD_TRANSITION: 409,
  NOT_PACKED: 409,
  NOT_DELIVERED: 409,
  NO_CHANGE: 409,
  FULFILMENT_NOT_FOUND: 422,
  WRONG_FULFILMENT_TYPE: 422,
  ITEM_NOT_FOUND: 422,
  UNITS_OUT_OF_RANGE: 422,
  INVALID_REASON: 422,
  MISSING_REASON: 422,
};

/** Status for a refusal code; codes the table does not know are treated as a bad action (422). */
export function refusalStatus(code: string | undefined): 409 | 422 {
  return (code !== undefined && (REFUSAL_STATUS as Record<string, 409 | 422 | undefined>)[code]) || 422;
}

/** Reads requestId, transactionId and orderId from any JSON value, without trusting its shape. */
export function looseContext(json: unknown): EchoContext & { orderId?: string } {
  const out: EchoContext & { orderId?: string } = {};
  if (!json || typeof json !== 'object') return out;
  const body = json as { requestContext?: unknown; orderId?: unknown };
  const ctx = body.requestContext;
  if (ctx && typeof ctx === 'object') {
    const { requestId, transactionId } = ctx as { requestId?: unknown; transactionId?: unknown };
    if (typeof requestId === 'string') out.requestId = requestId;
    if (typeof transactionId === 'string') out.transactionId = transactionId;
  }
  if (typeof body.orderId === 'string') out.orderId = body.orderId;
  return out;
}
