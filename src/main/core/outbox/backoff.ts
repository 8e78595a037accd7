/** Retry timing: exponential backoff with full jitter, capped; a server's Retry-After wins when longer. */

export interface BackoffPolicy {
  readonly baseMs: number;
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, capMs: 60_000 };

// A Retry-After beyond this is taken as a misconfigured server, not a reason to sit for days.
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** Delay before attempt number `failures + 1`; full jitter spreads terminals that failed together. */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number, retryAfterMs?: number): number {
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
  const jittered = Math.floor(random() * exp);
  const floor = retryAfterMs === undefined ? 0 : Math.min(Math.max(0, retryAfterMs), MAX_RETRY_AFTER_MS);
  return Math.max(jittered, floor);
}
