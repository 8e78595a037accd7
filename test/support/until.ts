/**
 * Waiting in tests for something the code under test does by itself (a timer, another process, a
 * socket): one helper, so every test says what it waited for when it times out.
 */

/**
 * Waits until `check` gives something other than undefined or false, and returns it. The check is
 * awaited, so an async one counts by its answer, not by its promise. Asks every `everyMs`; after
 * `timeoutMs` it throws, naming `what`.
 */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5_000, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** How long (ms) it took until `check` held (see `until`). */
export async function timeUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000, everyMs = 20): Promise<number> {
  const start = Date.now();
  await until(what, check, timeoutMs, everyMs);
  return Date.now() - start;
}
