/**
 * The page's timed values (hooks/useNow.ts wakeAt, behind useTimedValue): every countdown and age
 * on screen shares one timer, set for the soonest moment one of them changes, so an idle queue's
 * page wakes when a word changes rather than every second (issue 41, the page's idle CPU).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wakeAt } from '../../src/renderer/src/hooks/useNow';

const MIN = 60_000;

describe("the page's timed values", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('wakes each value at its own moments only, with one timer for all of them', () => {
    const woke: string[] = [];
    // A countdown that changes on the minute (at 1,060,000, 1,120,000…), another 20 s later.
    const onTheMinute = (now: number) => (Math.floor(now / MIN) + 1) * MIN;
    const twentyLater = (now: number) => (Math.floor((now - 20_000) / MIN) + 1) * MIN + 20_000;
    const stops = [wakeAt(onTheMinute, () => woke.push(`a ${Date.now()}`)), wakeAt(twentyLater, () => woke.push(`b ${Date.now()}`))];
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(3 * MIN);
    expect(woke).toEqual(['a 1020000', 'b 1040000', 'a 1080000', 'b 1100000', 'a 1140000', 'b 1160000']);
    // Three minutes: six wakes, where a clock ticking every second would have woken 180 times.
    stops.forEach((stop) => stop());
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10 * MIN);
    expect(woke).toHaveLength(6);
  });

  it("a clock set back (a counter PC's time put right) holds the values still for a minute at most, not for as long as it went back", () => {
    const woke: number[] = [];
    const stop = wakeAt((now) => (Math.floor(now / MIN) + 1) * MIN, () => woke.push(Date.now()));
    vi.setSystemTime(1_000_000 - 60 * MIN);
    vi.advanceTimersByTime(2 * MIN);
    expect(woke.length).toBeGreaterThanOrEqual(1);
    expect(woke[0]).toBeLessThanOrEqual(1_000_000 - 60 * MIN + 2 * MIN);
    stop();
  });

  it('a value that never changes (nothing waiting) sets no timer; one that changes now wakes at once', () => {
    const woke: number[] = [];
    const stop = wakeAt(() => Number.POSITIVE_INFINITY, () => woke.push(Date.now()));
    expect(vi.getTimerCount()).toBe(0);
    // Its moment already past when it is first asked (the page was busy): woken at once, then not again.
    let asked = 0;
    const late = wakeAt(() => (asked++ === 0 ? 999_000 : Number.POSITIVE_INFINITY), () => woke.push(Date.now()));
    vi.advanceTimersByTime(1_000);
    expect(woke).toEqual([1_000_000]);
    stop();
    late();
    expect(vi.getTimerCount()).toBe(0);
  });
});
