/**
 * Times in words a packer reads at a glance, in the staff's language. Pure: the caller passes
 * `now` (so the queue's countdowns and the tests agree on one clock), the words (`say`, i18next's
 * `t` or the like) and the Intl locale for clock times.
 */

import type { TFunction } from 'i18next';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** How pressing a promised time is: late, due soon (under 15 min), or fine. */
export type Urgency = 'late' | 'soon' | 'ok';

export const SOON_MS = 15 * MINUTE;

/** Looks up words by key with values: i18next's `t`. */
export type Say = TFunction;

/** "1 h 05 min", "12 min", "40 s": a span without a sign, rounded the way a countdown reads. */
export function formatSpan(ms: number, say: Say): string {
  const span = Math.abs(ms);
  if (span < MINUTE) return say('common:time.seconds', { count: Math.ceil(span / SECOND) });
  if (span < HOUR) return say('common:time.minutes', { count: Math.floor(span / MINUTE) });
  const hours = Math.floor(span / HOUR);
  const minutes = Math.floor((span % HOUR) / MINUTE);
  return say('common:time.hoursMinutes', { hours, minutes: String(minutes).padStart(2, '0') });
}

/** How pressing `deadline` is at `now`: late, soon (under SOON_MS left) or ok. */
export function urgencyAt(deadline: number, now: number): Urgency {
  const left = deadline - now;
  return left < 0 ? 'late' : left < SOON_MS ? 'soon' : 'ok';
}

/** A countdown to `deadline`: "12 min left" or "5 min late", with its urgency. */
export function countdown(deadline: number, now: number, say: Say): { text: string; urgency: Urgency } {
  const urgency = urgencyAt(deadline, now);
  const span = formatSpan(deadline - now, say);
  return { text: say(urgency === 'late' ? 'common:time.late' : 'common:time.left', { span }), urgency };
}

/** How long ago `at` was: "just now", "40 s ago", "3 min ago", "2 h 10 min ago". */
export function formatAge(at: number, now: number, say: Say): string {
  const age = now - at;
  if (age < 5 * SECOND) return say('common:time.justNow');
  return say('common:time.ago', { span: formatSpan(age, say) });
}

/**
 * How long ago `at` was, to the minute: "just now" for the first minute, then "3 min ago",
 * "2 h 10 min ago". For lines on screen all day (the sync bar's "Orders checked", checked every
 * 30 s): they change once a minute, not every second, and an idle screen is not drawn again for
 * a second's difference nobody acts on.
 */
export function formatAgeToTheMinute(at: number, now: number, say: Say): string {
  const age = now - at;
  if (age < MINUTE) return say('common:time.justNow');
  return say('common:time.ago', { span: formatSpan(age, say) });
}

/*
 * When each of the words above next reads differently, so that a screen left alone wakes for that
 * moment and not every second (hooks/useNow.ts useTimedValue; issue 41, the page's idle CPU). Each
 * returns an epoch ms after `now`, or Infinity. Spans shown in seconds (under a minute, and the
 * minute either side of a promise) wake every second, as every countdown did before.
 */

/** When a countdown to `deadline` (its span and its urgency) next changes. */
export function countdownChangesAt(deadline: number, now: number): number {
  const left = deadline - now;
  if (Math.abs(left) < 2 * MINUTE) return now + SECOND;
  // Left: "12 min" until a millisecond under 12 minutes; late: "5 min" until 6 minutes have passed.
  // The 15 minutes of "soon" begin on such a minute too.
  return left > 0 ? now + (left % MINUTE) + 1 : now + MINUTE - (-left % MINUTE);
}

/** When an age ("just now", "40 s ago", "3 min ago": formatAge) next reads differently. */
export function ageChangesAt(at: number, now: number): number {
  const age = now - at;
  if (age < 5 * SECOND) return at + 5 * SECOND;
  if (age < MINUTE) return now + SECOND;
  return at + (Math.floor(age / MINUTE) + 1) * MINUTE;
}

/** When an age to the minute (formatAgeToTheMinute) next reads differently. */
export function ageToTheMinuteChangesAt(at: number, now: number): number {
  return at + (Math.max(0, Math.floor((now - at) / MINUTE)) + 1) * MINUTE;
}

/** Seconds left in an undo window, never below 0: the bar shows whole seconds counting down. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / SECOND));
}

const clocks = new Map<string, Intl.DateTimeFormat>();
const dayClocks = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock time of day, "14:05", in the terminal's own time zone and the staff's locale. */
export function formatClock(at: number, locale = 'en-IN'): string {
  let f = clocks.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(locale, f);
  }
  return f.format(at);
}

/** Day and time, "12 Aug, 14:05", for status history where orders span days. */
export function formatDayClock(at: number, locale = 'en-IN'): string {
  let f = dayClocks.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    dayClocks.set(locale, f);
  }
  return f.format(at);
}
