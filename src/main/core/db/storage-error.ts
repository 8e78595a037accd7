/** SQLite failures that mean the data file cannot be written, as a Problem of their own kind. */
import type { Problem } from '../../../shared/result';

// Codes (and extended codes' prefixes) of a file that cannot take writes: full, read-only, I/O.
const STORAGE_CODES = ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PROTOCOL'];

function codeOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** The storage problem `e` stands for, or null when it is something else (a bug, a damaged row). */
export function storageProblem(e: unknown): Problem | null {
  const code = codeOf(e);
  if (!STORAGE_CODES.some((c) => code === c || code.startsWith(`${c}_`))) return null;
  const full = code === 'SQLITE_FULL' || /ENOSPC|disk is full|database or disk is full/i.test(e instanceof Error ? e.message : '');
  return full
    ? {
        kind: 'storage',
        code: 'STORE_FULL',
        message:
          'The disk holding the data file is full: answers from the order service cannot be recorded, so sending is paused. Free disk space: nothing is lost, and a tap whose answer could not be recorded is checked or sent again with the same request id',
      }
    : {
        kind: 'storage',
        code: 'STORE_WRITE',
        message: `The data file cannot be written (${code}): sending is paused. Check the disk and its permissions, or call support`,
      };
}

// SQLite error codes that mean the bytes on disk are not a sound database.
export const DAMAGE_CODES: ReadonlySet<string> = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_INDEX']);

/** SQLite's words when `e` says the data file is damaged, or null when it says something else. */
export function damageIn(e: unknown): string | null {
  if (!DAMAGE_CODES.has(codeOf(e))) return null;
  return e instanceof Error ? e.message : String(e);
}
