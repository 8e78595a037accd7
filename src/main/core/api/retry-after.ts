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
