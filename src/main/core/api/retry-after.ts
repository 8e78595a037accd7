/**
 * The longest wait a server can ask for; beyond it the server is taken as misconfigured (the same
 * hour the outbox's backoff allows), so a terminal never sits for days or says "99999999999 s".
 */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** A Retry-After (ms) cut to MAX_RETRY_AFTER_MS; undefined stays undefined. */
export function capRetryAfter(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/** A wait in words: "7 s", "12 min", "1 h". */
export function describeWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 3600) return `${Math.ceil(s / 60)} min`;
  return `${Math.round((s / 3600) * 10) / 10} h`;
}

/** Reads an HTTP `Retry-After` header (delay in seconds or an HTTP date) as milliseconds from now. */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date must name a weekday or month; Date.parse alone accepts too much (e.g. "12").
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  // A date in the past means "now"; the service's clock may differ from ours.
  return Math.max(0, at - now);
}
