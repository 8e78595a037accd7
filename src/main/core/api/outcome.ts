/**
 * The classified answer to one order update call, as decisions.md defines the classes.
 * The outbox decides what to do with an entry from this value alone.
 */
import type { Order, OrderUpdateRequest } from '../../../shared/protocol/schemas';

export type UpdateOutcome =
  /** 2xx whose body parsed as the success response. `raw` keeps unknown fields. */
  | { readonly kind: 'success'; readonly status: number; readonly order: Order; readonly raw: unknown }
  /** 2xx whose body did not parse: probably applied; do not resend, keep the body, refresh the order. */
  | { readonly kind: 'unreadable'; readonly status: number; readonly rawBody: string; readonly message: string }
  /**
   * Try again later: network error, timeout, 408/425/429/5xx. `noAnswer` is true when the request may
   * have reached the service without us seeing the answer (timeout, reset after sending).
   */
  | {
      readonly kind: 'transient';
      readonly message: string;
      readonly status?: number;
      readonly retryAfterMs?: number;
      readonly noAnswer: boolean;
      /**
       * True when the order service was not contacted because the token server answered without a
       * usable token: says nothing about whether the order service can be reached.
       */
      readonly tokenServer?: true;
      /** The order service was reached but its certificate is not trusted: not a network fault, and retrying alone cannot mend it. */
      readonly certificate?: true;
    }
  /** Credentials rejected even after a refresh and a fresh client_credentials grant. */
  | { readonly kind: 'auth'; readonly message: string; readonly status?: number }
  /** The service refused the action (NOT_FOUND or another 4xx). */
  | { readonly kind: 'permanent'; readonly status: number; readonly errorCode: string; readonly message: string };

/** What the sync engine needs from the order service client (so it can be driven in tests). */
export interface UpdateSender {
  /** Sends one update request; never throws, every failure is an outcome. */
  update(request: OrderUpdateRequest, signal?: AbortSignal): Promise<UpdateOutcome>;
  /** A light reachability check of the order service (any HTTP answer counts as reachable). */
  probe(signal?: AbortSignal): Promise<boolean>;
}

/**
 * The client's full classification of an update answer: an outcome, or `accepted` — a 2xx with an
 * empty body (the platform's 204): applied, with no order in the answer (decisions.md: the entry is
 * sent and the order refreshed with `status`).
 */
export type UpdateAnswer = UpdateOutcome | { readonly kind: 'accepted'; readonly status: number };
