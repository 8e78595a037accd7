/** Async work that must not overlap (a PIN check, starting or switching an engine, binding a store hub). */

/** A queue that runs each task after the one before it has settled; a failed task never blocks the next. */
export function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let chain: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const next = chain.then(task, task);
    chain = next.catch(() => undefined);
    return next;
  };
}
