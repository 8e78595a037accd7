/**
 * awaitWithin: the work's answer when it comes in time, the late value when it does not, the work's
 * error when it fails first; its timer is cleared either way, so nothing is left armed.
 */
import { describe, expect, it } from 'vitest';
import { awaitWithin, type Timers } from '../../../../src/main/core/time';

/** Timers that fire only when told, and say how many are armed. */
function heldTimers() {
  const armed = new Map<number, () => void>();
  let next = 0;
  const timers: Timers = {
    setTimeout(fn) {
      armed.set(++next, fn);
      return next;
    },
    clearTimeout(handle) {
      armed.delete(handle as number);
    },
  };
  const fireAll = (): void => {
    for (const [id, fn] of [...armed]) {
      armed.delete(id);
      fn();
    }
  };
  return { timers, armed, fireAll };
}

describe('awaitWithin', () => {
  it('gives the work\'s answer when it comes first, and leaves no timer armed', async () => {
    const t = heldTimers();
    await expect(awaitWithin(Promise.resolve('answer'), 1_000, 'late', t.timers)).resolves.toBe('answer');
    expect(t.armed.size).toBe(0);
  });

  it('gives the late value at the deadline while the work runs on', async () => {
    const t = heldTimers();
    let finish: (v: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const waiting = awaitWithin(work, 1_000, 'late' as const, t.timers);
    expect(t.armed.size).toBe(1);
    t.fireAll();
    await expect(waiting).resolves.toBe('late');
    finish('answer');
    await expect(work).resolves.toBe('answer');
  });

  it('throws the work\'s error when it fails first, and leaves no timer armed', async () => {
    const t = heldTimers();
    await expect(awaitWithin(Promise.reject(new Error('refused')), 1_000, 'late', t.timers)).rejects.toThrow('refused');
    expect(t.armed.size).toBe(0);
  });
});
