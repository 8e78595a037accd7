import type { TimerOptions, Timers } from './timers';

/**
 * What `work` gives, or `late` once `ms` have passed without it, whichever comes first; the timer
 * is cleared either way. `work` failing first throws its error. Only the wait ends at the deadline:
 * `work` itself runs on (a late answer still lands wherever `work` puts it).
 */
export async function awaitWithin<T, L>(work: Promise<T>, ms: number, late: L, timers: Timers, options?: TimerOptions): Promise<T | L> {
  let handle: unknown = null;
  const timeUp = new Promise<L>((resolve) => {
    handle = timers.setTimeout(() => resolve(late), ms, options);
  });
  try {
    return await Promise.race([work, timeUp]);
  } finally {
    timers.clearTimeout(handle);
  }
}
