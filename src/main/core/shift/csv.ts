/**
 * A day's shift as CSV for the manager's spreadsheet: one row for the whole counter, one per packer,
 * one per counter, then one per hour. Durations in seconds. A cell that a spreadsheet would run as a
 * formula (a name starting with = + - @) is written as text.
 */
import type { DurationSpread, ShiftFigures, ShiftReport } from '../../../shared/ipc';
import { counterShown } from '../../../shared/shift';

const HEADER = [
  'day', 'scope', 'name', 'received', 'accepted', 'rejected', 'cancelled', 'packed', 'handed_over', 'late',
  'to_accept_median_s', 'to_accept_p90_s', 'to_pack_median_s', 'to_pack_p90_s',
];

/** One CSV cell: quoted when it holds a comma, quote or line break; a formula's first character made text. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.round(ms / 1000));

function spreadCells(s: DurationSpread): (number | null)[] {
  return [seconds(s.medianMs), seconds(s.p90Ms)];
}

function figureCells(f: ShiftFigures, withReceived: boolean): (number | null)[] {
  return [withReceived ? f.received : null, f.accepted, f.rejected, f.cancelled, f.packed, f.handedOver, f.late, ...spreadCells(f.toAccept), ...spreadCells(f.toPack)];
}

/** The report as CSV text (CRLF lines, as RFC 4180 and spreadsheets expect); counters by their names, never terminal ids. */
export function shiftCsv(report: ShiftReport, words: { readonly noName: string; readonly thisCounter: string }): string {
  const rows: (string | number | null)[][] = [HEADER];
  rows.push([report.day, 'total', counterShown(report, report.terminal, words.thisCounter), ...figureCells(report.total, true)]);
  for (const p of report.byPacker) rows.push([report.day, 'packer', p.packer ?? words.noName, ...figureCells(p.figures, false)]);
  for (const c of report.byCounter) rows.push([report.day, 'counter', counterShown(report, c.counter, words.thisCounter), ...figureCells(c.figures, false)]);
  for (const h of report.byHour)
    rows.push([report.day, 'hour', `${String(h.hour).padStart(2, '0')}:00`, h.received, null, null, null, h.packed, null, null, null, null, null, null]);
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
