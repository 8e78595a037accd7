/**
 * What the first screen waits for but never for good (renderer/within.ts): the terminal's language,
 * the script fonts, the queue's data behind the host's drawing.
 */
import { describe, expect, it, vi } from 'vitest';
import { within } from '../../src/renderer/src/within';

describe('within', () => {
  it("gives the promise's value when it comes in time", async () => {
    await expect(within(Promise.resolve('hi'), 1_000, 'en')).resolves.toBe('hi');
  });

  it('gives the fallback once the time is up, without waiting for the promise', async () => {
    vi.useFakeTimers();
    try {
      let given: string | undefined;
      const waiting = within(new Promise<string>(() => undefined), 50, 'en').then((v) => (given = v));
      await vi.advanceTimersByTimeAsync(49);
      expect(given).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(given).toBe('en');
      await expect(waiting).resolves.toBe('en');
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives the fallback when the promise fails', async () => {
    await expect(within(Promise.reject(new Error('engine gone')), 1_000, 'en')).resolves.toBe('en');
  });
});
