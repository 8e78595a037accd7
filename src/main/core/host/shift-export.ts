/**
 * `shift.exportCsv`: one table of a day's shift as a CSV file, saved where the manager chooses.
 * The Electron shell asks with its save dialog (`SaveFilePort`, src/main/files.ts); the browser
 * harness has none, so the page is handed the file to download (its browser asks where).
 */
import type { CsvSaved, ShiftCsvTable, ShiftCsvWords, ShiftReport } from '../../../shared/ipc';
import { ok, type Result } from '../../../shared/result';
import type { Logger } from '../log';
import { shiftCsv } from '../shift';

/** A file to save: its suggested name, its text, the save dialog's title. */
export interface FileToSave {
  readonly fileName: string;
  readonly text: string;
  readonly title: string;
}

/** Saving a file where the person at the counter chooses (the Electron shell's save dialog). */
export interface SaveFilePort {
  saveAs(file: FileToSave): Promise<Result<CsvSaved>>;
}

/** `shift-2026-11-28-packers.csv`: the day and the table, letters a file name may hold anywhere. */
export function shiftCsvFileName(day: string, table: ShiftCsvTable): string {
  return `shift-${day}-${table}.csv`;
}

export async function exportShiftCsv(options: {
  readonly report: ShiftReport;
  readonly table: ShiftCsvTable;
  readonly words: ShiftCsvWords;
  readonly files: SaveFilePort | undefined;
  readonly log: Logger;
}): Promise<Result<CsvSaved>> {
  const { report, table, words, files, log } = options;
  const fileName = shiftCsvFileName(report.day, table);
  // UTF-8 with a byte order mark, so a spreadsheet reads a Hindi heading or name as Hindi.
  const text = `\uFEFF${shiftCsv(report, table, words)}`;
  if (!files) return ok({ outcome: 'download', fileName, text });
  const saved = await files.saveAs({ fileName, text, title: words.dialogTitle });
  if (saved.ok && saved.value.outcome === 'saved') log.info('shift exported', { day: report.day, table, path: saved.value.path });
  else if (!saved.ok) log.warn('the shift could not be exported', { day: report.day, table, problem: saved.problem.message });
  return saved;
}
