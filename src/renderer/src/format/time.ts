/**
 * Times in words a packer reads at a glance. Pure: the caller passes `now`, so the queue's
 * countdowns and the tests agree on one clock.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** How pressing a promised time is: late, due soon (under 15 min), or fine. */
export type Urgency = 'late' | 'soon' | 'ok';

export const SOON_MS = 15 * MINUTE;

/** "1 h 05 min", "12 min", "40 s": a span without a sign, rounded the way a countdown reads. */
export function formatSpan(ms: number): string {
  const span = Math.abs(ms);
  if (span < MINUTE) return `${Math.ceil(span / SECOND)} s`;
  if (span < HOUR) return `${Math.floor(span / MINUTE)} min`;
  const hours = Math.floor(span / HOUR);
  const minutes = Math.floor((span % HOUR) / MINUTE);
  return `${hours} h ${String(minutes).padStart(2, '0')} min`;
}

/** A countdown to `deadline`: "12 min left" or "5 min late", with its urgency. */
export function countdown(deadline: number, now: number): { text: string; urgency: Urgency } {
  const left = deadline - now;
  if (left < 0) return { text: `${formatSpan(left)} late`, urgency: 'late' };
  return { text: `${formatSpan(left)} left`, urgency: left < SOON_MS ? 'soon' : 'ok' };
}

/** How long ago `at` was: "just now", "40 s ago", "3 min ago", "2 h 10 min ago". */
export function formatAge(at: number, now: number): string {
  const age = now - at;
  if (age < 5 * SECOND) return 'just now';
  return `${formatSpan(age)} ago`;
}

/** Seconds left in an undo window, never below 0: the bar shows whole seconds counting down. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / SECOND));
}

/** Wall-clock time of day, "14:05", in the terminal's own time zone. */
export function formatClock(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** Day and time, "12 Aug 14:05", for status history where orders span days. */
export function formatDayClock(at: number): string {
  const d = new Date(at);
  const month = d.toLocaleString('en-GB', { month: 'short' });
  return `${d.getDate()} ${month} ${formatClock(at)}`;
}
