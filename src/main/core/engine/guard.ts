/**
 * How an engine call that touches the data file fails: never by throwing to the shell. A stopping
 * engine, a full disk and a damaged file are each said in words the counter understands (and the
 * CLI's exit codes follow their codes); anything else is logged for support.
 */
import { fail, ProblemError, type Result } from '../../../shared/result';
import { storageProblem } from '../db';
import type { Logger } from '../log';

export type Guard = <T>(fn: () => Result<T>) => Result<T>;

export function guarded(o: { stopped: () => boolean; damaged: (e: unknown) => boolean; log: Logger }): Guard {
  return <T>(fn: () => Result<T>): Result<T> => {
    if (o.stopped()) return fail('permanent', 'Packdesk is shutting down; try again when it is back', 'STOPPED');
    try {
      return fn();
    } catch (e) {
      if (e instanceof ProblemError) return { ok: false, problem: e.problem };
      // A full disk is said as one (the CLI's exit 6), not as a data file support must look at.
      const storage = storageProblem(e);
      if (storage) return fail('storage', storage.code === 'STORE_FULL' ? 'The disk holding the data file is full: this was not saved. Free disk space, then try again' : storage.message, storage.code);
      if (o.damaged(e))
        return fail('permanent', 'The data file is damaged: Packdesk sets it aside and starts a new one with the taps it can read', 'STORE_BROKEN');
      o.log.error('engine call failed', { error: e });
      return fail('permanent', `The data file could not be used: ${e instanceof Error ? e.message : String(e)}`, 'STORE_ERROR');
    }
  };
}
