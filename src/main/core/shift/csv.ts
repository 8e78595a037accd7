/**
 * A day's shift as CSV for the manager's spreadsheet, one table a file: the day's totals, by
 * packer, by counter, or by hour. Plain headers in the terminal's language (the words come with
 * the request: the renderer holds the languages), the day in the first column, durations in
 * seconds. Each table's rows split the day once, so a spreadsheet's sum of a column is the day's
 * figure (before, the whole day, packers, counters and hours shared one table, and a sum of
 * "accepted" counted every accept three times). A cell that a spreadsheet would run as a formula (a
 * name starting with = + - @) is written as text, and direction controls are escaped.
 */
import type { DurationSpread, ShiftCsvTable, ShiftCsvWords, ShiftFigures, ShiftReport } from '../../../shared/ipc';
import { printableText } from '../../../shared/protocol/orderId';
import { counterShown } from '../../../shared/shift';

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; a formula's first character made
 * text; a name's direction controls shown as \uXXXX (printableText), not obeyed by the spreadsheet.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = typeof value === 'string' ? printableText(value) : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.round(ms / 1000));

const spreadCells = (s: DurationSpread): (number | null)[] => [seconds(s.medianMs), seconds(s.p90Ms)];

/** The taps' figures a packer or counter has (orders are received by the counter, not by a packer). */
const shareCells = (f: ShiftFigures): (number | null)[] => [f.accepted, f.rejected, f.cancelled, f.packed, f.handedOver, f.late, ...spreadCells(f.toPack)];

/** One table of the day as CSV text (CRLF lines, as RFC 4180 and spreadsheets expect). */
export function shiftCsv(report: ShiftReport, table: ShiftCsvTable, words: ShiftCsvWords): string {
  const c = words.columns;
  const share = [c.accepted, c.rejected, c.cancelled, c.packed, c.handedOver, c.late, c.toPackMedian, c.toPackP90];
  const rows: (string | number | null)[][] = [];
  const { day } = report;
  switch (table) {
    case 'day': {
      const f = report.total;
      rows.push([c.day, c.received, ...share.slice(0, 6), c.toAcceptMedian, c.toAcceptP90, c.toPackMedian, c.toPackP90]);
      rows.push([day, f.received, f.accepted, f.rejected, f.cancelled, f.packed, f.handedOver, f.late, ...spreadCells(f.toAccept), ...spreadCells(f.toPack)]);
      break;
    }
    case 'packers':
      rows.push([c.day, c.packer, ...share]);
      for (const p of report.byPacker) rows.push([day, p.packer ?? words.noName, ...shareCells(p.figures)]);
      break;
    case 'counters':
      rows.push([c.day, c.counter, ...share]);
      // Counters by their names, never terminal ids.
      for (const k of report.byCounter) rows.push([day, counterShown(report, k.counter, words.thisCounter), ...shareCells(k.figures)]);
      break;
    case 'hours':
      rows.push([c.day, c.hour, c.received, c.packed]);
      for (const h of report.byHour) rows.push([day, `${String(h.hour).padStart(2, '0')}:00`, h.received, h.packed]);
      break;
  }
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
