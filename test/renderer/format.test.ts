import { describe, expect, it } from 'vitest';
import { countdown, formatAge, formatSpan, secondsLeft } from '../../src/renderer/src/format/time';
import { formatPrice } from '../../src/renderer/src/format/money';

const MIN = 60_000;

describe('time formatting', () => {
  it('reads spans the way a countdown does', () => {
    expect(formatSpan(40_000)).toBe('40 s');
    expect(formatSpan(400)).toBe('1 s');
    expect(formatSpan(12 * MIN + 59_000)).toBe('12 min');
    expect(formatSpan(65 * MIN)).toBe('1 h 05 min');
    expect(formatSpan(-5 * MIN)).toBe('5 min');
  });

  it('says late when the promise has passed, soon under 15 minutes', () => {
    expect(countdown(1_000_000 - 5 * MIN, 1_000_000)).toEqual({ text: '5 min late', urgency: 'late' });
    expect(countdown(1_000_000 + 10 * MIN, 1_000_000)).toEqual({ text: '10 min left', urgency: 'soon' });
    expect(countdown(1_000_000 + 90 * MIN, 1_000_000)).toEqual({ text: '1 h 30 min left', urgency: 'ok' });
  });

  it('ages: just now, then seconds, minutes', () => {
    expect(formatAge(1000, 3000)).toBe('just now');
    expect(formatAge(0, 40_000)).toBe('40 s ago');
    expect(formatAge(0, 3 * MIN)).toBe('3 min ago');
  });

  it('undo countdown shows whole seconds and stops at 0', () => {
    expect(secondsLeft(5000, 0)).toBe(5);
    expect(secondsLeft(5000, 100)).toBe(5);
    expect(secondsLeft(5000, 4001)).toBe(1);
    expect(secondsLeft(5000, 6000)).toBe(0);
  });
});

describe('price formatting', () => {
  it('shows two decimals and a dash for no price', () => {
    expect(formatPrice(30.24)).toBe('30.24');
    expect(formatPrice(1234.5)).toBe('1,234.50');
    expect(formatPrice(undefined)).toBe('—');
  });
});
