/**
 * `promise`'s value, or `fallback` once `ms` have passed or if it rejects, whichever comes first;
 * the timer is cleared either way. For what the first screen waits for but must never wait on for
 * good (the terminal's language, the script fonts, the queue's data behind the host's drawing).
 */
export async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([promise.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}
