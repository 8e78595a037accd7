/**
 * How the packdesk CLI ends: with its command's exit code, and never silently before the command
 * settles. Node ends a process whose event loop has nothing left to wait on, even while a promise
 * is pending: a command awaiting an unref'd timer (intake waiting out a Retry-After did) ended
 * mid-way, printed nothing and exited 0. The loop emptying first is said, and is a failure.
 */
import { EXIT } from './usage';

/** The parts of `process` the guard uses (a test passes its own). */
export interface ExitTarget {
  on(event: 'beforeExit', listener: () => void): unknown;
  exitCode?: number | string | null | undefined;
  readonly stderr: { write(text: string): unknown };
}

export const ENDED_EARLY_SAID =
  'packdesk: the command stopped before it finished: it was left waiting with nothing to wake it (a fault in packdesk, not in the service or this computer). What it printed above is all it did; run it again, and give support its output with --verbose\n';

/** Runs `main` and sets the process's exit code from it; a command the event loop left unsettled exits 1, said on stderr. */
export function runToExit(main: () => Promise<number>, target: ExitTarget = process): void {
  let settled = false;
  let said = false;
  target.on('beforeExit', () => {
    if (settled || said) return;
    said = true;
    target.exitCode = EXIT.REFUSED;
    target.stderr.write(ENDED_EARLY_SAID);
  });
  main().then(
    (code) => {
      settled = true;
      target.exitCode = code;
    },
    (error: unknown) => {
      settled = true;
      target.stderr.write(`packdesk: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
      target.exitCode = EXIT.REFUSED;
    },
  );
}
