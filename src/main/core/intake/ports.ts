/**
 * What intake needs from the rest of the engine, kept narrow so one intake can later serve several
 * counters of a store: somewhere to keep order bodies and its cursor, the read calls, and a word
 * on whether the outbox is using the network.
 */
import type { ChangesRequest } from '../../../shared/protocol/intake';
import type { Order } from '../../../shared/protocol/schemas';
import type { ChangesOutcome, StatusOutcome } from '../api/read-outcome';
import type { IntakeState } from '../db';

/** The order service's read calls (the OrderServiceClient implements them). */
export interface IntakeReader {
  changes(request: ChangesRequest, signal?: AbortSignal): Promise<ChangesOutcome>;
  status(orderId: string, signal?: AbortSignal): Promise<StatusOutcome>;
  /** A light reachability check (any HTTP answer counts). */
  probe(signal?: AbortSignal): Promise<boolean>;
}

/** Where intake keeps what it learns. */
export interface IntakeStore {
  /** Stores a fetched body unless a newer one is held. */
  saveIfNewer(order: Order, now: number): 'new' | 'updated' | 'unchanged';
  /** The same for several bodies in one transaction (one fsync instead of one per order). */
  saveAllIfNewer(orders: readonly Order[], now: number): ('new' | 'updated' | 'unchanged')[];
  /** Keeps an order whose body could not be believed as unreadable, with the answer for support; any body held before stays. */
  setAside(orderId: string, rawBody: string, now: number): void;
  state(): IntakeState;
  commit(to: number, at: number): void;
  setNoAccess(value: { message: string; settings: string } | null): void;
}
