/**
 * The public shape of the sandbox order service. Other parts of Packdesk (training mode, the
 * engine's tests, benchmarks) code against these types, so they change only additively.
 */
import type { Logger } from '../src/main/core/log';
import type { Action, Order } from '../src/shared/protocol/schemas';

export interface SandboxOptions {
  /** Service port (token server and order service); default 0 = any free port. Always binds 127.0.0.1. */
  port?: number;
  /** Admin API port; default 0. It stays reachable while the service port is down ('refuse' outage). */
  adminPort?: number;
  /** Seed for the orders and the error-rate draws; default 1. */
  seed?: number;
  /** Number of seeded orders; default 40. */
  orderCount?: number;
  /** Accepted client id; default 'training'. */
  clientId?: string;
  /** Accepted client secret; default 'training-secret'. */
  clientSecret?: string;
  /** Access token lifetime in seconds; default 3600. */
  tokenTtlSeconds?: number;
  /** Status for an expired token, default 401; also settable at run time via faults. */
  expiredStatus?: 401 | 412;
  /** A new order arrives every this many ms (training mode); 0 = none. Default 180000 (3 minutes). */
  arrivalEveryMs?: number;
  /** Largest `changes` page; a request for more gets this many. Default 100. */
  changesMaxPageSize?: number;
  /**
   * A first `changes` page (no nextPage) sooner than this after the previous one is answered 429
   * with Retry-After. Default 5000; 0 = no limit.
   */
  changesMinIntervalMs?: number;
  /** Injected clock (epoch ms); default Date.now. */
  now?: () => number;
  /** Where the sandbox says what it does; never receives a secret or a token. */
  log?: Logger;
}

export interface Faults {
  /** Added before answering any token or update request (admin requests are never delayed). */
  latencyMs: number;
  /** Share (0..1) of update requests answered 503 with an error body; drawn from the seeded PRNG. */
  errorRate: number;
  /**
   * What the service port does. refuse: stops listening (connection refused) and listens again on
   * the SAME port when set back to 'none'; hang: accepts and never answers; reset: destroys the
   * socket when a request arrives. The admin port is never affected.
   */
  outage: 'none' | 'refuse' | 'hang' | 'reset';
  /** The next `count` update requests get 429 with `Retry-After: retryAfterSeconds`. */
  rateLimit: { count: number; retryAfterSeconds: number };
  /** The next N update requests that succeed are applied but answered 200 with an unreadable body. */
  malformedBodies: number;
  /** refresh_token grants are refused (the client must fall back to client_credentials). */
  refuseRefresh: boolean;
  /** client_credentials grants are refused. */
  rejectCredentials: boolean;
  /** Status for an expired token: 401 or 412 (the spec allows both). */
  expiredStatus: 401 | 412;
  /** requestId de-duplication (replaying the first answer); off: every repeat is applied again. */
  dedupe: boolean;
  /** The next N successful updates are applied, then the connection is dropped without an answer. */
  dropAfterApply: number;
  /** The next N successful updates are answered 204 with no body (the platform's ACCEPTED). */
  emptyUpdateAnswers: number;
  /** The next `count` `changes`/`status` requests (only those of `call`, when given) get 429 with `Retry-After: retryAfterSeconds`. */
  readsRateLimit: { count: number; retryAfterSeconds: number; call?: 'changes' | 'status' };
  /** Answer `changes` / `status` with 403 (this client has no access to the call). */
  forbidReads: { changes: boolean; status: boolean };
  /**
   * How far the token server's clock is from the order service's (ms): the `issued_at` and
   * `expires_at` it sends are shifted by this, while the service's `Date` headers are not.
   */
  tokenClockOffsetMs: number;
  /** A `changes` request (any page) sooner than this many ms after the previous one gets 429 with Retry-After; 0 = off. */
  changesEveryMs: number;
  /** `changes` pages: normal; `repeat`: every later page gives the same nextPage again; `endless`: a nextPage on every page. */
  changesNextPage: 'normal' | 'repeat' | 'endless';
  /**
   * The next `count` `status` answers (for `orderIds` only, when any are named) are bad: `cut` (half a
   * body), `otherView` (type OTHER_VIEW, empty response), `empty` (204, no body), `notFound` (404
   * ORDER_NOT_FOUND for an order that exists), `refused` (400 INVALID_REQUEST).
   */
  badStatus: { answer: BadStatusAnswer; count: number; orderIds: string[] };
}

/** How a `status` answer is spoiled (Faults.badStatus). */
export type BadStatusAnswer = 'none' | 'cut' | 'otherView' | 'empty' | 'notFound' | 'refused';

/** One read request (`changes` or `status`) as the service saw it. */
export interface ReadLogEntry {
  call: 'changes' | 'status';
  status: number;
  /** `changes`: the page asked for: 0 for the first (no nextPage), else where the nextPage starts (offset in the window's ids). */
  offset?: number;
  /** `status`: the order asked for. */
  orderId?: string;
  /** Which injected fault shaped the answer, if any. */
  fault?: 'rate-limit' | 'changes-every' | 'forbidden' | BadStatusAnswer;
  /** Epoch ms (injected clock). */
  at: number;
}

export interface AppliedEntry {
  requestId: string;
  orderId: string;
  /** Position of the action in its request's `actions`. */
  actionIndex: number;
  action: Action;
  /** Epoch ms (injected clock). */
  appliedAt: number;
}

export interface RequestLogEntry {
  /** '' when the body carried no readable requestId. */
  requestId: string;
  /** '' when the body carried no readable orderId. */
  orderId: string;
  status: number;
  /** True when the answer was a replay of the first answer to this requestId. */
  duplicate: boolean;
  errorCode?: string;
  /** Which injected fault shaped the answer, if any. */
  fault?: 'rate-limit' | 'error-rate' | 'malformed' | 'dropped' | 'empty';
  /** Epoch ms (injected clock). */
  at: number;
}

export interface SandboxStats {
  /** Token requests received per grant type (granted or refused), and how many were refused. */
  tokenRequests: { client_credentials: number; refresh_token: number; refused: number };
  /** Update requests received, including refusals, faults and duplicates. */
  updateRequests: number;
  /** `changes` requests received (every page), refusals included. */
  changesRequests: number;
  /** `status` requests received, refusals included. */
  statusRequests: number;
  /** Reachability probes (GET on the update path). */
  probeRequests: number;
  /**
   * Update requests (POST) counted as they arrive, before the latency fault holds them: a request
   * cut off by a killed client during that latency is here and not in `updateRequests`.
   */
  updateArrivals: number;
}

export interface FaultControl {
  /** The faults in force (a copy). */
  get(): Faults;
  /** Changes some faults; throws a TypeError on values outside their range (a programming error). */
  set(patch: Partial<Faults>): void;
  /** Back to no faults (expiredStatus back to the option's value). */
  reset(): void;
}

export interface Sandbox {
  /** 'http://127.0.0.1:PORT': token server AND order service. */
  readonly url: string;
  /** 'http://127.0.0.1:ADMINPORT'. */
  readonly adminUrl: string;
  readonly port: number;
  /** The one store whose orders it serves (its orders' serviceProvider.id; `changes` asks for it). */
  readonly serviceProviderId: string;
  readonly faults: FaultControl;
  /** Current orders (deep copies). */
  orders(): Order[];
  /** One order (a deep copy), or undefined. */
  order(id: string): Order | undefined;
  /** Every action applied, in the order applied. */
  appliedLog(): AppliedEntry[];
  /** Every update request received, incl. duplicates and refusals. */
  requestLog(): RequestLogEntry[];
  /** Every `changes` and `status` request received, refusals included. */
  readLog(): ReadLogEntry[];
  /** Counters of token and update requests. */
  stats(): SandboxStats;
  /** Places a new order now (state Created); returns it. */
  placeOrder(): Order;
  /** Changes an order "from elsewhere" (the marketplace or another terminal); returns it, or undefined. */
  changeOrder(id: string, change: OrderChange): Order | undefined;
  /** Serves a body as given, however wrong (only its id is checked), changed now; returns it. */
  serveOrder(body: { readonly id: string; readonly [key: string]: unknown }): Order;
  /** Expires every access token issued so far (refresh tokens stay usable). */
  expireTokensNow(): void;
  /** Closes both listeners and destroys open sockets (incl. hung ones). */
  close(): Promise<void>;
}

/** A change made to an order outside this terminal. */
export type OrderChange = 'accept' | 'cancel' | 'touch';
