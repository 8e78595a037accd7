/** What the queue may ask the service about an order before resending (decisions.md, "Check before resend"). */
import type { Order } from '../../../shared/protocol';

/** The service's answer to "what does this order look like now?". */
export type StatusCheckResult =
  /** The order as the service shows it. */
  | { readonly kind: 'order'; readonly order: Order }
  /** The service could not be reached: the entry waits like any transient failure. */
  | { readonly kind: 'unreachable' }
  /** No access to the call, or not configured: resend as if there were no check. */
  | { readonly kind: 'unavailable' };

/** Fetches one order's current state (the order service's `status` call in production). */
export type StatusCheck = (orderId: string, signal?: AbortSignal) => Promise<StatusCheckResult>;
