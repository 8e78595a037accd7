/**
 * A day's figures as they are kept for good (daily_figures, one row a day and counter): the data
 * file gains one such row a day for as long as the terminal runs, so it is kept small. The JSON of
 * a ShiftReport was about 1.2-2.5 kB a row (its key names over 24 hours and every packer's and
 * counter's share), 0.5 MB a year; kept here as a version byte and the report's values alone, in
 * a fixed order, deflated: about 40-150 bytes (docs/decisions.md, "No larger after a second year").
 *
 * The day and the counter are the row's key and are not stored again. A report that would not
 * read back exactly as it was written (it never happens with what shiftReport makes, but a kept
 * day must show what it showed) is kept as JSON text, the form rows had before migration 14, which
 * is still read as it was.
 */
import { isDeepStrictEqual } from 'node:util';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { type DurationSpread, type ShiftFigures, type ShiftReport, ShiftReportSchema } from '../../../shared/ipc';

/** The first byte of the compact form; a later form takes the next number. */
const FORM_1 = 1;
const HOURS = 24;

const N = z.number();
const Ms = z.number().nullable();
/** ShiftFigures in the schema's order, the two spreads flattened. */
const FiguresTuple = z.tuple([N, N, N, N, N, N, N, N, Ms, Ms, N, Ms, Ms]);
type FiguresTuple = z.infer<typeof FiguresTuple>;
const Name = z.string().nullable();

/**
 * The report's values: from, the day's length, the whole day's figures, who cancelled (1: here,
 * 0: elsewhere), received and packed by hour, each packer's and each counter's share, and the
 * hub's missingSince when the report had a hub (absent otherwise).
 */
const CompactSchema = z.union([
  z.tuple([N, N, FiguresTuple, z.array(z.tuple([z.literal([0, 1]), Name, Name, N])), z.array(N), z.array(N), z.array(z.tuple([Name, FiguresTuple])), z.array(z.tuple([z.string(), FiguresTuple]))]),
  z.tuple([N, N, FiguresTuple, z.array(z.tuple([z.literal([0, 1]), Name, Name, N])), z.array(N), z.array(N), z.array(z.tuple([Name, FiguresTuple])), z.array(z.tuple([z.string(), FiguresTuple])), Ms]),
]);
type Compact = z.infer<typeof CompactSchema>;

function figuresTuple(f: ShiftFigures): FiguresTuple {
  return [f.received, f.accepted, f.rejected, f.cancelled, f.packed, f.handedOver, f.late, f.toAccept.count, f.toAccept.medianMs, f.toAccept.p90Ms, f.toPack.count, f.toPack.medianMs, f.toPack.p90Ms];
}

function figuresOf(t: FiguresTuple): ShiftFigures {
  const spread = (count: number, medianMs: number | null, p90Ms: number | null): DurationSpread => ({ count, medianMs, p90Ms });
  return { received: t[0], accepted: t[1], rejected: t[2], cancelled: t[3], packed: t[4], handedOver: t[5], late: t[6], toAccept: spread(t[7], t[8], t[9]), toPack: spread(t[10], t[11], t[12]) };
}

function compactOf(r: ShiftReport): Compact {
  const values: Compact = [
    r.from,
    r.to - r.from,
    figuresTuple(r.total),
    r.cancelledBy.map((c) => [c.by === 'here' ? 1 : 0, c.packer, c.counter, c.count]),
    r.byHour.map((h) => h.received),
    r.byHour.map((h) => h.packed),
    r.byPacker.map((p) => [p.packer, figuresTuple(p.figures)]),
    r.byCounter.map((c) => [c.counter, figuresTuple(c.figures)]),
  ];
  return r.hub === undefined ? values : [...values, r.hub.missingSince];
}

function reportOf(c: Compact, key: { readonly day: string; readonly terminal: string }): unknown {
  const [from, length, total, cancelledBy, received, packed, byPacker, byCounter] = c;
  return {
    day: key.day,
    terminal: key.terminal,
    from,
    to: from + length,
    source: 'kept',
    total: figuresOf(total),
    cancelledBy: cancelledBy.map(([here, packer, counter, count]) => ({ by: here === 1 ? 'here' : 'elsewhere', packer, counter, count })),
    byHour: received.map((n, hour) => ({ hour, received: n, packed: packed[hour] })),
    byPacker: byPacker.map(([packer, f]) => ({ packer, figures: figuresOf(f) })),
    byCounter: byCounter.map(([counter, f]) => ({ counter, figures: figuresOf(f) })),
    ...(c.length === 9 ? { hub: { missingSince: c[8] } } : {}),
  };
}

/** The kept form of `report`, the day `key.day` at counter `key.terminal` (the row's key): compact, or JSON text when that would not read back the same. */
export function keptForm(report: ShiftReport, key: { readonly day: string; readonly terminal: string }): Uint8Array | string {
  const kept = { ...report, source: 'kept' as const };
  const hoursInOrder = report.byHour.length === HOURS && report.byHour.every((h, i) => h.hour === i);
  if (report.day === key.day && report.terminal === key.terminal && hoursInOrder) {
    const form = Buffer.concat([Buffer.from([FORM_1]), deflateRawSync(JSON.stringify(compactOf(report)))]);
    if (isDeepStrictEqual(readKept(form, key), kept)) return form;
  }
  return JSON.stringify(report);
}

/** A day's kept figures read back, in either form (compact, or the JSON text of rows kept before migration 14); null when unreadable. */
export function readKept(stored: Uint8Array | string, key: { readonly day: string; readonly terminal: string }): ShiftReport | null {
  let raw: unknown;
  try {
    if (typeof stored === 'string') raw = JSON.parse(stored);
    else {
      if (stored[0] !== FORM_1) return null;
      const compact = CompactSchema.safeParse(JSON.parse(inflateRawSync(stored.subarray(1)).toString('utf8')));
      if (!compact.success) return null;
      raw = reportOf(compact.data, key);
    }
  } catch {
    return null;
  }
  const parsed = ShiftReportSchema.safeParse(raw);
  return parsed.success ? { ...parsed.data, source: 'kept' } : null;
}
