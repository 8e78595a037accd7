import { beforeAll, describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ageChangesAt, ageToTheMinuteChangesAt, countdown, countdownChangesAt, formatAge, formatAgeToTheMinute, formatClock, formatNumber, formatPrice, formatSpan, secondsLeft } from '../../src/renderer/src/format';
import { ensureWords, i18next, startI18n } from '../../src/renderer/src/i18n';

const MIN = 60_000;
let en: TFunction;
let hi: TFunction;

beforeAll(async () => {
  await startI18n('en');
  // Hindi's words are loaded apart from the first script (see i18n/index.ts).
  await ensureWords('hi');
  en = i18next.getFixedT('en');
  hi = i18next.getFixedT('hi');
});

describe('time formatting', () => {
  it('reads spans the way a countdown does', () => {
    expect(formatSpan(40_000, en)).toBe('40 s');
    expect(formatSpan(400, en)).toBe('1 s');
    expect(formatSpan(12 * MIN + 59_000, en)).toBe('12 min');
    expect(formatSpan(65 * MIN, en)).toBe('1 h 05 min');
    expect(formatSpan(-5 * MIN, en)).toBe('5 min');
    expect(formatSpan(65 * MIN, hi)).toBe('1 घंटे 05 मिनट');
  });

  it('says late when the promise has passed, soon under 15 minutes', () => {
    expect(countdown(1_000_000 - 5 * MIN, 1_000_000, en)).toEqual({ text: '5 min late', urgency: 'late' });
    expect(countdown(1_000_000 + 10 * MIN, 1_000_000, en)).toEqual({ text: '10 min left', urgency: 'soon' });
    expect(countdown(1_000_000 + 90 * MIN, 1_000_000, en)).toEqual({ text: '1 h 30 min left', urgency: 'ok' });
    expect(countdown(1_000_000 + 10 * MIN, 1_000_000, hi)).toEqual({ text: '10 मिनट बाकी', urgency: 'soon' });
  });

  it('ages: just now, then seconds, minutes', () => {
    expect(formatAge(1000, 3000, en)).toBe('just now');
    expect(formatAge(0, 40_000, en)).toBe('40 s ago');
    expect(formatAge(0, 3 * MIN, en)).toBe('3 min ago');
    expect(formatAge(0, 3 * MIN, hi)).toBe('3 मिनट पहले');
  });

  it('undo countdown shows whole seconds and stops at 0', () => {
    expect(secondsLeft(5000, 0)).toBe(5);
    expect(secondsLeft(5000, 100)).toBe(5);
    expect(secondsLeft(5000, 4001)).toBe(1);
    expect(secondsLeft(5000, 6000)).toBe(0);
  });

  it('clock times in 24 hours in either locale', () => {
    const at = new Date(2024, 7, 12, 14, 5).getTime();
    expect(formatClock(at, 'en-IN')).toBe('14:05');
    expect(formatClock(at, 'hi-IN')).toBe('14:05');
  });
});

describe('numbers and prices', () => {
  it('shows two decimals, lakh grouping and a dash for no price', () => {
    expect(formatPrice(30.24)).toBe('30.24');
    expect(formatPrice(1234.5)).toBe('1,234.50');
    expect(formatPrice(1234567.5, 'en-IN')).toBe('12,34,567.50');
    expect(formatPrice(1234567.5, 'hi-IN')).toBe('12,34,567.50');
    expect(formatPrice(undefined)).toBe('—');
    expect(formatNumber(1234567, 'hi-IN')).toBe('12,34,567');
  });

  it('counts inside sentences use the language plural and lakh grouping', () => {
    expect(en('common:sync.waiting', { count: 1 })).toBe('1 tap waiting to send');
    expect(en('common:sync.waiting', { count: 2 })).toBe('2 taps waiting to send');
    expect(en('common:sync.waiting', { count: 1234567 })).toBe('12,34,567 taps waiting to send');
    expect(hi('common:sync.waiting', { count: 1 })).toBe('1 टैप भेजना बाकी');
    expect(hi('common:sync.waiting', { count: 2 })).toBe('2 टैप भेजने बाकी');
    expect(hi('outbox:tries', { count: 2 })).toBe('2 कोशिशें');
  });
});

describe('when the words next change (the page wakes then, not every second)', () => {
  const SEC = 1_000;
  /** The moments in [from, to) at which `read` reads differently from the moment before, a millisecond apart. */
  const changes = (read: (now: number) => string, from: number, to: number, step = 1): number[] => {
    const out: number[] = [];
    let last = read(from);
    for (let now = from + step; now < to; now += step) {
      const v = read(now);
      if (v !== last) out.push(now);
      last = v;
    }
    return out;
  };
  /** Every moment the schedule names from `from` on, before `to`. */
  const planned = (next: (now: number) => number, from: number, to: number): number[] => {
    const out: number[] = [];
    for (let at = next(from); at < to; at = next(at)) out.push(at);
    return out;
  };

  it('a countdown: every minute it changes at is named, and no second between', () => {
    const deadline = 10_000_000;
    const read = (now: number) => JSON.stringify(countdown(deadline, now, en));
    const from = deadline - 20 * MIN - 17_345;
    const to = deadline + 9 * MIN;
    const named = planned((now) => countdownChangesAt(deadline, now), from, to);
    // Each change is named at the millisecond it happens (or, in the two minutes around the
    // promise where seconds show, within the second it happens).
    for (const at of changes(read, from, to, 250)) expect(named.some((n) => n >= at - 250 && n <= at + 1_000), `change at ${at - deadline} ms`).toBe(true);
    // Far from the promise it wakes once a minute: 18 minutes before it, 7 after it, seconds between.
    expect(named.filter((n) => Math.abs(n - deadline) >= 2 * MIN).length).toBeLessThanOrEqual(18 + 7 + 2);
    expect(named.length).toBeLessThan(18 + 7 + 2 + 4 * 60 + 2);
    // Exactly: "12 min" becomes "11 min" a millisecond after 12 minutes are left.
    expect(countdownChangesAt(deadline, deadline - 12 * MIN - 30 * SEC)).toBe(deadline - 12 * MIN + 1);
    expect(countdown(deadline, deadline - 12 * MIN, en).text).toBe('12 min left');
    expect(countdown(deadline, deadline - 12 * MIN + 1, en).text).toBe('11 min left');
    // Late: "5 min late" becomes "6 min late" when six minutes have passed.
    expect(countdownChangesAt(deadline, deadline + 5 * MIN + 10 * SEC)).toBe(deadline + 6 * MIN);
  });

  it('ages: "just now" for 5 s, then each second of the first minute, then once a minute', () => {
    const at = 5_000_000;
    expect(ageChangesAt(at, at + 1_000)).toBe(at + 5_000);
    expect(ageChangesAt(at, at + 20_000)).toBe(at + 21_000);
    expect(ageChangesAt(at, at + 3 * MIN + 5_000)).toBe(at + 4 * MIN);
    const read = (now: number) => formatAge(at, now, en);
    const named = planned((now) => ageChangesAt(at, now), at, at + 10 * MIN);
    for (const change of changes(read, at, at + 10 * MIN, 100)) expect(named.some((n) => n >= change - 100 && n <= change + 1_000), `change at ${change - at} ms`).toBe(true);
  });

  it('ages to the minute: once a minute, from the first', () => {
    const at = 5_000_000;
    expect(ageToTheMinuteChangesAt(at, at + 10_000)).toBe(at + MIN);
    expect(ageToTheMinuteChangesAt(at, at + MIN)).toBe(at + 2 * MIN);
    const read = (now: number) => formatAgeToTheMinute(at, now, en);
    expect(planned((now) => ageToTheMinuteChangesAt(at, now), at, at + 10 * MIN)).toEqual(changes(read, at, at + 10 * MIN, 1_000));
  });
});
