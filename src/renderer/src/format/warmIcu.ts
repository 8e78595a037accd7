/**
 * Called first by main.tsx, so it runs before the rest of the app's script is evaluated. A
 * renderer process's first Intl formatter loads ICU's data: 35-130 ms on the page's one thread
 * (Chromium 156, measured), right on the path to the first rows (the words' plural rules, the
 * filters' numbers, the countdowns' clock). ICU's data is the process's, not the thread's: loaded
 * by a worker while the page's script runs, the page's own formatters then cost well under a
 * millisecond. A page without workers pays as before.
 */
export function warmIcu(): void {
  try {
    new Worker(new URL('./icuWorker.ts', import.meta.url), { type: 'module', name: 'icu-warm' });
  } catch {
    // No worker: the first formatter loads the data itself.
  }
}
