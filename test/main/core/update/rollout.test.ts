import { describe, expect, it } from 'vitest';
import { isWithinRollout, rolloutBucket, rolloutVerdict } from '../../../../src/main/core/update';

describe('rolloutBucket', () => {
  it('is stable for the same terminal id', () => {
    const id = '6f1c0b9e-2f43-4a8e-9d55-0c1f3c7d2a10';
    expect(rolloutBucket(id)).toBe(rolloutBucket(id));
    expect(rolloutBucket(id)).toBe(rolloutBucket(`${id}`.slice(0)));
  });

  it('stays in range and differs between ids', () => {
    const buckets = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const b = rolloutBucket(`terminal-${i}`);
      expect(Number.isInteger(b)).toBe(true);
      expect(b).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThan(10_000);
      buckets.add(b);
    }
    expect(buckets.size).toBeGreaterThan(190);
  });

  it('spreads ids roughly uniformly over ten deciles', () => {
    const n = 20_000;
    const deciles = new Array<number>(10).fill(0);
    for (let i = 0; i < n; i++) {
      const b = rolloutBucket(`store-${i % 97}-terminal-${i}`);
      deciles[Math.floor(b / 1000)]! += 1;
    }
    // Expected 2 000 per decile; a binomial standard deviation is about 42, so ±8 % is generous.
    for (const count of deciles) expect(Math.abs(count - n / 10)).toBeLessThan(n / 10 * 0.08);
  });

  it('admits about the staged share of a fleet', () => {
    const n = 10_000;
    let admitted = 0;
    for (let i = 0; i < n; i++) if (isWithinRollout(rolloutBucket(`t-${i}`), 25)) admitted++;
    expect(admitted / n).toBeGreaterThan(0.23);
    expect(admitted / n).toBeLessThan(0.27);
  });

  it('is monotonic: a terminal admitted at p% stays admitted at any higher percentage', () => {
    for (let i = 0; i < 500; i++) {
      const b = rolloutBucket(`m-${i}`);
      let wasIn = false;
      for (let p = 0; p <= 100; p += 5) {
        const isIn = isWithinRollout(b, p);
        if (wasIn) expect(isIn).toBe(true);
        wasIn = isIn;
      }
    }
  });
});

describe('isWithinRollout', () => {
  it('treats a missing percentage as a full rollout, and one that is not a number from 0 to 100 as stopped (fail closed)', () => {
    expect(isWithinRollout(9_999, undefined)).toBe(true);
    // Each of these installed on every terminal before (issue 38).
    for (const value of [null, 'lots', 'stop', 'O', '0%', Number.NaN, {}, [50], true]) {
      expect(isWithinRollout(0, value)).toBe(false);
      expect(rolloutVerdict(0, value)).toMatchObject({ inside: false, invalid: expect.any(String) });
    }
    expect(rolloutVerdict(0, 'stop')).toMatchObject({ invalid: '"stop"' });
    expect(rolloutVerdict(0, 150)).toEqual({ inside: true });
    expect(rolloutVerdict(0, Number.POSITIVE_INFINITY)).toEqual({ inside: true });
    expect(rolloutVerdict(0, -5)).toEqual({ inside: false, percentage: -5 });
    expect(rolloutVerdict(9_999, ' 30 ')).toEqual({ inside: false, percentage: 30 });
  });

  it('honours the bounds', () => {
    expect(isWithinRollout(0, 0)).toBe(false);
    expect(isWithinRollout(0, -5)).toBe(false);
    expect(isWithinRollout(9_999, 100)).toBe(true);
    expect(isWithinRollout(9_999, 99.99)).toBe(false);
    expect(isWithinRollout(999, 10)).toBe(true);
    expect(isWithinRollout(1_000, 10)).toBe(false);
    expect(isWithinRollout(1_000, '10.01')).toBe(true);
  });
});
