/**
 * When a token expires on this terminal's clock, and when to refresh it.
 * The terminal's clock may be wrong, so the server's `expires_at` is never compared with our clock
 * directly: it is shifted by the measured difference between our receive time and `issued_at`.
 */
import type { TokenResponse } from '../../../shared/protocol/schemas';

export interface TokenTiming {
  /** Local-clock epoch ms at which the token expires. */
  readonly expiresAt: number;
  /** How long the token is valid from the moment we received it. */
  readonly lifetimeMs: number;
  /**
   * Local clock minus the token server's clock, measured as (receive time - issued_at); includes
   * the network delay. Positive: this terminal's clock is ahead. Undefined without `issued_at`.
   */
  readonly clockSkewMs?: number;
}

/**
 * A clock further than this from the token server's is said to be wrong (the status bar, doctor):
 * more than any network delay, and enough to make a countdown to a promised time mislead.
 */
export const CLOCK_SKEW_LIMIT_MS = 2 * 60_000;

/**
 * A difference beyond this is not believed from the token alone: intake's windows and the
 * countdowns lean on it, and an `issued_at` that is garbage (0, a date in another year) would move
 * them by decades. A day holds a clock set to the wrong time zone (India's is 5 h 30 min off UTC)
 * with room to spare. A clock further off is real too (TLS still works days off): the order
 * service's `Date` then confirms it (core/time/service-clock).
 */
export const MAX_CLOCK_SKEW_MS = 24 * 60 * 60_000;

// Below this, an epoch timestamp is in seconds (1e11 ms is in 1973; 1e11 s is in the year 5138).
const SECONDS_LIMIT = 1e11;

/** Epoch milliseconds from a timestamp the server may have sent in seconds or milliseconds. */
export function toEpochMs(value: number): number {
  return Math.abs(value) < SECONDS_LIMIT ? value * 1000 : value;
}

/** Local expiry of a token received at `receivedAt` (local clock), per decisions.md. */
export function tokenExpiry(token: TokenResponse, receivedAt: number): TokenTiming {
  const byExpiresIn = receivedAt + token.expires_in * 1000;
  if (token.issued_at === undefined) return { expiresAt: byExpiresIn, lifetimeMs: byExpiresIn - receivedAt };

  const issuedAt = toEpochMs(token.issued_at);
  const clockSkewMs = receivedAt - issuedAt;
  // Not a clock difference but a broken issued_at: as if the server had not sent one.
  if (!(Math.abs(clockSkewMs) <= MAX_CLOCK_SKEW_MS)) return { expiresAt: byExpiresIn, lifetimeMs: byExpiresIn - receivedAt };
  if (token.expires_at === undefined) return { expiresAt: byExpiresIn, lifetimeMs: byExpiresIn - receivedAt, clockSkewMs };

  // The server's expiry moved onto our clock. A bound at or before receipt is nonsense (expires_at
  // not after issued_at); ignoring it avoids refreshing in a loop.
  const byExpiresAt = toEpochMs(token.expires_at) + clockSkewMs;
  const expiresAt = byExpiresAt > receivedAt ? Math.min(byExpiresIn, byExpiresAt) : byExpiresIn;
  return { expiresAt, lifetimeMs: expiresAt - receivedAt, clockSkewMs };
}

/**
 * When to refresh ahead of expiry: `marginMs` plus up to `jitterMs` early (so a fleet of terminals
 * does not refresh at the same instant), but never earlier than halfway through the lifetime, so a
 * short-lived token is not refreshed on every call.
 */
export function refreshTime(
  timing: { readonly expiresAt: number; readonly lifetimeMs: number },
  marginMs: number,
  jitterMs: number,
  random: () => number,
): number {
  const ahead = Math.min(marginMs + random() * jitterMs, timing.lifetimeMs / 2);
  return Math.round(timing.expiresAt - Math.max(0, ahead));
}
