/**
 * What intake tells its callers (the CLI, doctor, the app's handlers): a pass's, a fetch's and an
 * access check's outcome in words a support person reads, and the sentences they share.
 */
import type { ChangesOutcome } from '../api/read-outcome';
import type { LastRead, PendingId } from '../db';
import type { PassCounts } from './pass';

/** The result of one pass as the CLI reports it. */
export type PassReport =
  | { readonly kind: 'completed'; readonly counts: PassCounts }
  /** Every page read and the cursor moved, but some listed ids are still to fetch (asked again with backoff). */
  | { readonly kind: 'incomplete'; readonly counts: PassCounts; readonly message: string; readonly stillToFetch: readonly PendingId[] }
  /** The window's pages did not end in this pass (a page cap, or a nextPage given before). */
  | { readonly kind: 'unfinished'; readonly counts: PassCounts; readonly reason: 'pageCap' | 'repeatedPage'; readonly message: string }
  /** The data file stopped taking writes (a full disk): nothing read since is lost; the pass runs again later. */
  | { readonly kind: 'storage'; readonly message: string }
  /** Not reached, or a 429/5xx stopped the pass; `retryAfterMs`: how long the service asked the terminal to wait. */
  | { readonly kind: 'unreachable'; readonly counts: PassCounts; readonly message: string; readonly certificate?: true; readonly retryAfterMs?: number }
  | { readonly kind: 'noAccess'; readonly call: 'changes' | 'status'; readonly message: string }
  | { readonly kind: 'notConfigured'; readonly message: string }
  /** Credentials missing or rejected (after the single-flight refresh). */
  | { readonly kind: 'auth'; readonly counts: PassCounts; readonly message: string }
  | { readonly kind: 'failed'; readonly counts: PassCounts; readonly message: string };

/** A scanned or typed id fetched at once. */
export type FetchReport =
  | { readonly kind: 'stored'; readonly result: 'new' | 'updated' | 'unchanged' }
  | { readonly kind: 'notFound'; readonly message: string }
  | { readonly kind: 'unreachable'; readonly message: string; readonly certificate?: true }
  | { readonly kind: 'storage'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string };

/** What a one-request access check found. */
export type AccessReport =
  | { readonly kind: 'ok' }
  | { readonly kind: 'noAccess' | 'unreachable' | 'notConfigured' | 'failed'; readonly message: string }
  /**
   * Not asked: `changes` was asked less than the service's minimum interval ago, or the service
   * asked for a pause that has not ended, so the call would be refused; `last` is the last answer.
   */
  | { readonly kind: 'notNow'; readonly message: string; readonly last: LastRead | null; readonly pausedUntil: number | null };

/** A one-request access check's answer, in the report's words. */
export function accessOf(outcome: ChangesOutcome): AccessReport {
  switch (outcome.kind) {
    case 'ok':
    case 'accepted':
      return { kind: 'ok' };
    case 'noAccess':
      return { kind: 'noAccess', message: outcome.message };
    case 'transient':
      return { kind: 'unreachable', message: outcome.message };
    default:
      return { kind: 'failed', message: outcome.message };
  }
}

export const STORE_FULL_SAID =
  'The disk holding the data file is full: new orders cannot be saved, so checking for them is paused. Free disk space: nothing is lost, and checking resumes by itself';

/** "3 orders still to fetch: ORD-1 (…), …" for the status, doctor and the CLI. */
export function stillToFetchSaid(count: number, pending: readonly PendingId[] = []): string {
  const named = pending
    .slice(0, 3)
    .map((p) => `${p.orderId}${p.lastError ? ` (${p.lastError})` : ''}`)
    .join('; ');
  return `${count} order${count === 1 ? '' : 's'} listed by the service could not be fetched yet and will be asked for again${named ? `: ${named}` : ''}`;
}
