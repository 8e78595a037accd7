/**
 * How a command-line tool over the core ends (the packdesk CLI, the chain's fleet tool): with its
 * command's exit code, and never silently before the command settles. Node ends a process whose
 * event loop has nothing left to wait on, even while a promise is pending: a command awaiting an
 * unref'd timer (intake waiting out a Retry-After did) ended mid-way, printed nothing and exited
 * 0. The loop emptying first is said, and is a failure.
 */

/** What a command that failed outside its own handling exits with (the CLIs' "refused"). */
const FAILED = 1;

/** The parts of `process` the guard uses (a test passes its own). */
export interface ExitTarget {
  on(event: 'beforeExit', listener: () => void): unknown;
  exitCode?: number | string | null | undefined;
  readonly stderr: { write(text: string): unknown };
}

/** A command-line tool: its name, and the flag that makes its output say more (if it has one). */
export interface Program {
  readonly name: string;
  readonly verboseFlag?: string;
}

/** What a command the event loop left unsettled says, in the tool's name. */
export const endedEarlySaid = (program: Program): string =>
  `${program.name}: the command stopped before it finished: it was left waiting with nothing to wake it (a fault in ${program.name}, not in the service or this computer). What it printed above is all it did; run it again, and give support its output${program.verboseFlag ? ` with ${program.verboseFlag}` : ''}\n`;

/** Runs `main` and sets the process's exit code from it; a command the event loop left unsettled exits 1, said on stderr. */
export function runToExit(program: Program, main: () => Promise<number>, target: ExitTarget = process): void {
  let settled = false;
  let said = false;
  target.on('beforeExit', () => {
    if (settled || said) return;
    said = true;
    target.exitCode = FAILED;
    target.stderr.write(endedEarlySaid(program));
  });
  main().then(
    (code) => {
      settled = true;
      target.exitCode = code;
    },
    (error: unknown) => {
      settled = true;
      target.stderr.write(`${program.name}: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
      target.exitCode = FAILED;
    },
  );
}
