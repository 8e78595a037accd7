/**
 * What the first screen waits for but never for good (renderer/within.ts): the terminal's language,
 * the script fonts, the queue's data behind the host's drawing.
 */
import { describe, expect, it } from 'vitest';
import { within } from '../../src/renderer/src/within';

describe('within', () => {
  it("gives the promise's value when it comes in time", async () => {
    await expect(within(Promise.resolve('hi'), 1_000, 'en')).resolves.toBe('hi');
  });

  it('gives the fallback once the time is up, without waiting for the promise', async () => {
    const started = performance.now();
    await expect(within(new Promise<string>(() => undefined), 50, 'en')).resolves.toBe('en');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('gives the fallback when the promise fails', async () => {
    await expect(within(Promise.reject(new Error('engine gone')), 1_000, 'en')).resolves.toBe('en');
  });
});
