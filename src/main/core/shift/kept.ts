/**
 * A day's figures as they are kept for good (figures_by_month, migration 14): the data file gains
 * a day's figures every day for as long as the terminal runs, so they are kept small. The JSON of
 * a ShiftReport was 1.2-2.5 kB a day in a row of its own (its key names over 24 hours and every
 * packer's and counter's share), about 0.5 MB a year. Here a day is its report's values alone, in
 * a fixed order, and a month's days are deflated together in one row a month and counter: a
 * store's days are much alike, so a day takes a few bytes to a couple of hundred, and the key
 * is stored once a month (docs/decisions.md, "No larger after a second year").
 *
 * The day and the counter are the row's key and are not stored again. A report that would not
 * read back exactly as it was written (it never happens with what shiftReport makes, but a kept
 * day must show what it showed) is kept as its JSON inside the row, as days kept before
 * migration 14 are, and read as it was. */
import { isDeepStrictEqual } from 'node:util';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import { type DurationSpread, type ShiftFigures, type ShiftReport, shiftReportSchema } from '../../../shared/ipc';
import { ProblemError } from '../../../shared/result';

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
const compactSchema = builtOnce(() => z.union([
  z.tuple([N, N, FiguresTuple, z.array(z.tuple([z.literal([0, 1]), Name, Name, N])), z.array(N), z.array(N), z.array(z.tuple([Name, FiguresTuple])), z.array(z.tuple([z.string(), FiguresTuple]))]),
  z.tuple([N, N, FiguresTuple, z.array(z.tuple([z.literal([0, 1]), Name, Name, N])), z.array(N), z.array(N), z.array(z.tuple([Name, FiguresTuple])), z.array(z.tuple([z.string(), FiguresTuple])), Ms]),
]));
type Compact = z.infer<ReturnType<typeof compactSchema>>;

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

/** A day's value in a month's row: its compact values, or (kept before migration 14, or when those would not read back the same) its report as JSON. */
type DayValue = unknown;

/** The day of the month of `day` (YYYY-MM-DD), and its month. */
export function monthOf(day: string): string {
  return day.slice(0, 7);
}

function dateOf(day: string): number {
  return Number(day.slice(8, 10));
}

const monthPairsSchema = builtOnce(() => z.array(z.tuple([z.number().int().min(1).max(31), z.unknown()])));

/**
 * A month's row read into its days (day of the month -> value); null when unreadable. BLOB: the
 * compact form; TEXT: the JSON object of days kept before migration 14 ("DD": the report).
 */
function daysOf(stored: Uint8Array | string): Map<number, DayValue> | null {
  try {
    if (typeof stored === 'string') {
      const raw: unknown = JSON.parse(stored);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
      return new Map(Object.entries(raw).map(([dd, value]) => [Number(dd), value]));
    }
    if (stored[0] !== FORM_1) return null;
    const pairs = monthPairsSchema().safeParse(JSON.parse(inflateRawSync(stored.subarray(1)).toString('utf8')));
    return pairs.success ? new Map(pairs.data) : null;
  } catch {
    return null;
  }
}

function monthForm(days: ReadonlyMap<number, DayValue>): Uint8Array {
  const pairs = [...days].sort(([a], [b]) => a - b);
  return Buffer.concat([Buffer.from([FORM_1]), deflateRawSync(JSON.stringify(pairs))]);
}

/** A day's value read back as its report; null when unreadable. */
function reportFrom(value: DayValue, key: { readonly day: string; readonly terminal: string }): ShiftReport | null {
  let raw = value;
  if (typeof raw === 'string') {
    // A day kept as text that was not JSON (migration 14 keeps it as it was).
    try {
      raw = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (Array.isArray(raw)) {
    const compact = compactSchema().safeParse(raw);
    if (!compact.success) return null;
    raw = reportOf(compact.data, key);
  }
  const parsed = shiftReportSchema().safeParse(raw);
  return parsed.success ? { ...parsed.data, source: 'kept' } : null;
}

/** `report`'s value in its month's row: its compact values, or its JSON when those would not read back as the very report (never with what shiftReport makes). */
function valueOf(report: ShiftReport, key: { readonly day: string; readonly terminal: string }): DayValue {
  const hoursInOrder = report.byHour.length === HOURS && report.byHour.every((h, i) => h.hour === i);
  if (report.day === key.day && report.terminal === key.terminal && hoursInOrder) {
    const compact = compactOf(report);
    if (isDeepStrictEqual(reportFrom(JSON.parse(JSON.stringify(compact)), key), { ...report, source: 'kept' })) return compact;
  }
  return JSON.parse(JSON.stringify(report)) as unknown;
}

/** The figures of `key.day` at counter `key.terminal` from its month's row as stored; null when the row does not hold that day or cannot be read. */
export function readKeptDay(stored: Uint8Array | string, key: { readonly day: string; readonly terminal: string }): ShiftReport | null {
  const value = daysOf(stored)?.get(dateOf(key.day));
  return value === undefined ? null : reportFrom(value, key);
}

/**
 * The month's row with `report` kept as the day `key.day` at counter `key.terminal` (the row's
 * other days as they were). Throws when the row as stored cannot be read: its other days are
 * never dropped to make room.
 */
export function withDay(stored: Uint8Array | string | null, report: ShiftReport, key: { readonly day: string; readonly terminal: string }): Uint8Array {
  const days = stored === null ? new Map<number, DayValue>() : daysOf(stored);
  if (days === null) throw new ProblemError({ kind: 'permanent', code: 'STORE_ROW_UNREADABLE', message: `The kept figures of ${monthOf(key.day)} in the data file cannot be read; call support` });
  days.set(dateOf(key.day), valueOf(report, key));
  return monthForm(days);
}

/**
 * A month's row kept before migration 14 (TEXT) in the compact form: each day that reads back
 * the same in it takes it, any other (unreadable) day is kept as it was. Null when the row is not
 * a month's days at all.
 */
export function recodeMonth(stored: string, key: { readonly month: string; readonly terminal: string }): Uint8Array | null {
  const days = daysOf(stored);
  // A key that is no day of a month (never written so) leaves the row as it was.
  if (days === null || [...days.keys()].some((date) => !Number.isInteger(date) || date < 1 || date > 31)) return null;
  for (const [date, value] of days) {
    const day = `${key.month}-${String(date).padStart(2, '0')}`;
    const report = reportFrom(value, { day, terminal: key.terminal });
    if (report !== null) days.set(date, valueOf(report, { day, terminal: key.terminal }));
  }
  return monthForm(days);
}
