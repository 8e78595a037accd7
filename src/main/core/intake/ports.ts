/**
 * What intake needs from the rest of the engine, kept narrow so one intake can later serve several
 * counters of a store: somewhere to keep order bodies and its cursor, the read calls, and a word
 * on whether the outbox is using the network.
 */
import type { ChangesRequest } from '../../../shared/protocol/intake';
import type { Order } from '../../../shared/protocol/schemas';
import type { ChangesOutcome, StatusOutcome } from '../api/read-outcome';
import type { IntakeState, LastRead, PendingId } from '../db';

/** The order service's read calls (the OrderServiceClient implements them). */
export interface IntakeReader {
  changes(request: ChangesRequest, signal?: AbortSignal): Promise<ChangesOutcome>;
  status(orderId: string, signal?: AbortSignal): Promise<StatusOutcome>;
  /** A light reachability check (any HTTP answer counts). */
  probe(signal?: AbortSignal): Promise<boolean>;
}

/** Where intake keeps what it learns. */
export interface IntakeStore {
  /** Stores a fetched body unless a newer one is held; the id is no longer still to fetch. */
  saveIfNewer(order: Order, now: number): 'new' | 'updated' | 'unchanged';
  /** The same for several bodies in one transaction (one fsync instead of one per order). */
  saveAllIfNewer(orders: readonly Order[], now: number): ('new' | 'updated' | 'unchanged')[];
  /** Keeps an order whose body could not be believed as unreadable, with the answer for support; any body held before stays. */
  setAside(orderId: string, rawBody: string, now: number): void;
  state(): IntakeState;
  /** Starts reading a new window at its first page (a window stopped earlier is forgotten). */
  beginWindow(from: number, to: number): void;
  /**
   * One page read, in one transaction: its ids are kept as still to fetch and `nextPage` is where a
   * later pass resumes; with `nextPage` null the window is complete and the cursor moves to its end.
   */
  savePage(orderIds: readonly string[], nextPage: string | null, at: number): void;
  /** Forgets the window being read (its ids stay still to fetch), saying why, or null when all is well. */
  dropWindow(problem: string | null): void;
  /** A pass completed: its window read (the cursor moved) and every id due asked. */
  passCompleted(at: number): void;
  /** Says why the window is unfinished while keeping it (null: nothing to say). */
  setWindowProblem(problem: string | null): void;
  /** Pending ids due at `now`, the longest waiting first. */
  due(now: number, limit: number): PendingId[];
  /** A failed answer for a pending id: asked again from `nextAt`. */
  fetchFailed(orderId: string, error: string, nextAt: number): void;
  /** Every pending id (up to `limit`), the longest waiting first. */
  stillToFetch(limit: number): PendingId[];
  setNoAccess(value: { message: string; settings: string } | null): void;
  /** `changes` is asked for a window's first page (the call the service rate-limits) at `at`, with these settings. */
  changesAsked(at: number, settings: string): void;
  /** How the last pass or access check ended, and when the service asked to be called again (null: no word). */
  readEnded(read: LastRead, notBefore: number | null): void;
}
