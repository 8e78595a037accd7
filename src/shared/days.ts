/**
 * Local calendar days, for the main side and the page alike: a shift is the counter's day, in the
 * time zone the terminal runs in (a store's day ends at its own midnight, not UTC's).
 */

/** The local day (YYYY-MM-DD) of `ms`. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The local day's start and the next day's start (epoch ms); a 23- or 25-hour day where clocks change. */
export function dayBounds(day: string): { from: number; to: number } {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { from: new Date(y, m - 1, d).getTime(), to: new Date(y, m - 1, d + 1).getTime() };
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return dayOf(new Date(y, m - 1, d + n, 12).getTime());
}
