/** `shift.exportCsv`: a day's shift written as a CSV file in the data folder's exports, for the manager to take. */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShiftReport } from '../../../shared/ipc';
import { fail, ok, type Result } from '../../../shared/result';
import type { Logger } from '../log';
import { shiftCsv } from '../shift';

/** A counter's id as a file name's part: letters, digits, dot, dash and underscore only. */
function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64) || 'counter';
}

/** Writes `report` as `<dir>/shift-<day>-<counter>.csv` (whole, or not at all); answers its path. */
export function writeShiftCsv(options: { readonly dir: string; readonly report: ShiftReport; readonly log: Logger }): Result<{ path: string }> {
  const { dir, report, log } = options;
  const file = join(dir, `shift-${report.day}-${fileSafe(report.counterName ?? report.terminal)}.csv`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // UTF-8 with a byte order mark, so a spreadsheet reads a Hindi name as Hindi.
    writeFileSync(`${file}.part`, `\uFEFF${shiftCsv(report, { noName: '-', thisCounter: 'this counter' })}`, { mode: 0o600 });
    renameSync(`${file}.part`, file);
  } catch (e) {
    log.warn('the shift could not be exported', { error: e });
    return fail('storage', `The shift's CSV could not be written to ${dir}: ${e instanceof Error ? e.message : String(e)}`, 'EXPORT_FAILED', { dir });
  }
  log.info('shift exported', { day: report.day, path: file });
  return ok({ path: file });
}
