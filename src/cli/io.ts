/** What a command writes to and reads from: its output, its errors, its environment; and the one way a command says the data file cannot be used. */
import { ProblemError } from '../shared/result';
import type { Env } from './config';
import { EXIT } from './usage';

export interface CliIo {
  readonly env: Env;
  write(text: string): void;
  writeError(text: string): void;
}

/** The data file could not be opened: a full disk is exit 6 in its own words, anything else exit 5. */
export function cannotOpen(e: unknown, io: CliIo): number {
  if (e instanceof ProblemError && e.problem.code === 'STORE_FULL') {
    io.writeError(`packdesk: ${e.problem.message}\n`);
    return EXIT.STORAGE;
  }
  io.writeError(`packdesk: the data file cannot be used: ${e instanceof ProblemError ? e.problem.message : e instanceof Error ? e.message : String(e)}\n`);
  return EXIT.DATA_FILE;
}
