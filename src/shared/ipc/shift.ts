/** The shift's figures, its CSV and an order's timeline; and their commands. */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { ActionSchema } from '../protocol/schemas';
import { CounterNameSchema } from '../hub';
import { EntryStateSchema } from './outbox';
import { orderIdInputSchema } from './shapes';

/** A local calendar day, YYYY-MM-DD. */
export const DaySchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'a day is YYYY-MM-DD');


/** A duration's spread: how many, the median and the 90th percentile (nearest rank), ms; null when none. */
export const durationSpreadSchema = builtOnce(() => z.object({
  count: z.number().int().min(0),
  medianMs: z.number().min(0).nullable(),
  p90Ms: z.number().min(0).nullable(),
}));

export type DurationSpread = z.infer<ReturnType<typeof durationSpreadSchema>>;


const Count = z.number().int().min(0);


/** One set of a shift's figures: the whole counter's, or one packer's or counter's share. */
export const shiftFiguresSchema = builtOnce(() => z.object({
  /** Orders that arrived on the terminal (a whole day's only: an arrival is nobody's tap). */
  received: Count,
  accepted: Count,
  /** Cancelled before anyone accepted them. */
  rejected: Count,
  /** Cancelled after Accept, here or elsewhere (the marketplace, another counter). */
  cancelled: Count,
  packed: Count,
  /** Given to the rider (OUT_FOR_DELIVERY). */
  handedOver: Count,
  /** Packed after the promised PACKED time. */
  late: Count,
  /** From arrival on the terminal to Accept. */
  toAccept: durationSpreadSchema(),
  /** From Accept to Packed. */
  toPack: durationSpreadSchema(),
}));

export type ShiftFigures = z.infer<ReturnType<typeof shiftFiguresSchema>>;


/** A day's shift in one picture. */
export const shiftReportSchema = builtOnce(() => z.object({
  day: DaySchema,
  /** The counter that reports (this terminal's id: its figures are kept under it; never shown, see shared/shift.ts). */
  terminal: z.string(),
  /** This counter's name in its store hub; null or absent: none (a one-counter store), said as "this counter". */
  counterName: z.string().nullable().optional(),
  from: z.number(),
  to: z.number(),
  /** Worked out from the terminal's records now, or read from the day's figures kept before pruning. */
  source: z.enum(['records', 'kept']),
  total: shiftFiguresSchema(),
  /** Who cancelled or rejected: here (a packer, a counter) or elsewhere (the marketplace, another counter). */
  cancelledBy: z.array(
    z.object({ by: z.enum(['here', 'elsewhere']), packer: z.string().nullable(), counter: z.string().nullable(), count: Count }),
  ),
  /** Orders received and packed in each hour of the day (0 to 23, local time). */
  byHour: z.array(z.object({ hour: z.number().int().min(0).max(23), received: Count, packed: Count })).length(24),
  /** Each packer's share; null: taps made without a name (the counter stands in). */
  byPacker: z.array(z.object({ packer: z.string().nullable(), figures: shiftFiguresSchema() })),
  byCounter: z.array(z.object({ counter: z.string(), figures: shiftFiguresSchema() })),
  /**
   * With a store hub the figures are the store's (every counter's taps this counter holds).
   * `missingSince`: the hub has not answered since then, so other counters' taps made since may be
   * missing here; null while it answers.
   */
  hub: z
    .object({
      missingSince: z.number().nullable(),
      /** Orders packed twice while the counters could not see each other, found this day (issue 39). */
      packedTwice: Count.optional(),
    })
    .optional(),
}));

export type ShiftReport = z.infer<ReturnType<typeof shiftReportSchema>>;


/** The shift's CSV tables, one a file: the day's totals, by packer, by counter, by hour. */
export const SHIFT_CSV_TABLES = ['day', 'packers', 'counters', 'hours'] as const;

export const ShiftCsvTableSchema = z.enum(SHIFT_CSV_TABLES);

export type ShiftCsvTable = z.infer<typeof ShiftCsvTableSchema>;


/** A column's heading in the terminal's language: plain words, one line. */
const CsvHeading = z.string().trim().min(1).max(80).regex(/^[^\r\n]*$/);

export const SHIFT_CSV_COLUMNS = [
  'day', 'packer', 'counter', 'hour', 'received', 'accepted', 'rejected', 'cancelled', 'packed', 'handedOver', 'late',
  'toAcceptMedian', 'toAcceptP90', 'toPackMedian', 'toPackP90',
] as const;

/** The CSV's words, from the renderer (which holds the languages): each column's heading, the name of a tap without a packer, this counter's when it has none, the save dialog's title. */
export const shiftCsvWordsSchema = builtOnce(() => z
  .object({
    columns: z.object(Object.fromEntries(SHIFT_CSV_COLUMNS.map((c) => [c, CsvHeading])) as Record<(typeof SHIFT_CSV_COLUMNS)[number], typeof CsvHeading>).strict(),
    noName: CsvHeading,
    /** This counter, when it has no name of its own from the store hub. */
    thisCounter: CsvHeading,
    dialogTitle: CsvHeading,
  })
  .strict());

export type ShiftCsvWords = z.infer<ReturnType<typeof shiftCsvWordsSchema>>;


/** What saving a CSV came to: saved where the manager chose, the dialog closed, or (the browser harness) the text for the page to download. */
export const csvSavedSchema = builtOnce(() => z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('saved'), path: z.string() }),
  z.object({ outcome: z.literal('cancelled') }),
  z.object({ outcome: z.literal('download'), fileName: z.string(), text: z.string() }),
]));

export type CsvSaved = z.infer<ReturnType<typeof csvSavedSchema>>;


/** One moment in an order's life on this terminal. */
export const timelineEventSchema = builtOnce(() => z.object({
  at: z.number(),
  kind: z.enum(['arrived', 'tap', 'confirmed', 'attempt', 'undo', 'retry', 'discard', 'recover', 'alarm', 'print', 'left', 'conflict', 'settled', 'putBack']),
  /** The tap's action (tap, confirmed, undo, retry, discard). */
  action: ActionSchema.optional(),
  entryId: z.number().int().optional(),
  /** Which counter (terminal id) and who; null when unknown. */
  counter: z.string().nullable(),
  packer: z.string().nullable(),
  /** The audit's outcome code, the print's outcome, or the alarm's kind. */
  outcome: z.string().optional(),
  /** The tap's state now (tap). */
  state: EntryStateSchema.optional(),
  document: z.enum(['packingSlip', 'pickList']).optional(),
  /** Packed twice (conflict): every counter and packer involved. */
  parties: z.array(z.object({ counterName: CounterNameSchema, packers: z.array(z.string()) })).optional(),
  /** Packed twice, settled: the counter that keeps the order. */
  keeper: CounterNameSchema.optional(),
}));

export type TimelineEvent = z.infer<ReturnType<typeof timelineEventSchema>>;


export const orderTimelineSchema = builtOnce(() => z.object({
  orderId: z.string(),
  /** The order is still on the terminal with its details: its slip and pick list can be printed again. */
  reprintable: z.boolean(),
  events: z.array(timelineEventSchema()),
}));

export type OrderTimeline = z.infer<ReturnType<typeof orderTimelineSchema>>;

/** The shift commands: name -> payload schema and result schema (built on first use by the contract). */
export const shiftCommands = {
  /** A day's shift in one picture, from the terminal's own records (today when no day is given). */
  'shift.report': () => ({ payload: z.object({ day: DaySchema.optional() }).strict(), result: shiftReportSchema() }),
  /**
   * One table of the day's figures as a CSV file, saved where the manager chooses (the app's save
   * dialog; in the browser harness the page downloads the text it answers).
   */
  'shift.exportCsv': () => ({ payload: z.object({ day: DaySchema, table: ShiftCsvTableSchema, words: shiftCsvWordsSchema() }).strict(), result: csvSavedSchema() }),
  /** What happened to an order on this terminal, oldest first. */
  'orders.timeline': () => ({ payload: z.object({ orderId: orderIdInputSchema() }).strict(), result: orderTimelineSchema() }),
};
