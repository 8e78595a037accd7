import { beforeAll, describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { countdown, formatAge, formatClock, formatNumber, formatPrice, formatSpan, secondsLeft } from '../../src/renderer/src/format';
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
