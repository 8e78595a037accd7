/**
 * The `StatusCheck` the outbox's "check before resend" is wired to: one `status` call, reduced to
 * what that decision needs.
 */
import type { Order } from '../../../shared/protocol/schemas';
import type { StatusOutcome } from './read-outcome';

export type StatusCheckResult =
  | { readonly kind: 'order'; readonly order: Order }
  /** No answer, "try later", or credentials trouble: the entry waits like any transient failure. */
  | { readonly kind: 'unreachable' }
  /** The service answered but gave no usable order (no access, not found, unreadable, no body). */
  | { readonly kind: 'unavailable' };

export type StatusCheck = (orderId: string) => Promise<StatusCheckResult>;

/** Anything with a `status` call (the OrderServiceClient). */
export interface StatusReader {
  status(orderId: string, signal?: AbortSignal): Promise<StatusOutcome>;
}

/** Makes the outbox's StatusCheck from the API client. */
export function createStatusCheck(client: StatusReader): StatusCheck {
  return async (orderId) => {
    const outcome = await client.status(orderId);
    if (outcome.kind === 'order') return outcome.order.id === orderId ? { kind: 'order', order: outcome.order } : { kind: 'unavailable' };
    // Credentials trouble pauses the outbox anyway; nothing may be settled on it.
    if (outcome.kind === 'transient' || outcome.kind === 'auth') return { kind: 'unreachable' };
    return { kind: 'unavailable' };
  };
}
