/**
 * The one IPC contract between the renderer and the main process (Electron) or the browser
 * harness (WebSocket). Each command has a zod schema for its payload and its result; each event
 * a schema for its body. The main side validates every payload; the preload and the harness
 * bridge expose exactly `createApi(transport)`'s object as `window.packdesk`.
 *
 * Secrets only ever travel renderer -> main (credentials.save); nothing secret comes back.
 */
import { z } from 'zod';
import { ActionSchema, FULFILLMENT_STATES, ORDER_STATES, OrderIdSchema, OrderSchema } from './protocol/schemas';
import { ClaimSchema, CounterIdSchema, CounterNameSchema, HubStatusSchema, SharedTapStateSchema } from './hub';
import { CHAIN_FILE_MAX_CHARS, ChainStatusSchema } from './chain';
import { idFault } from './protocol/builders';
import { LANGUAGE_CODES } from './languages';
import { DEFAULT_ORDER_ID_PATTERN } from './orderIdPattern';
import { MATCH_KINDS } from './orders/match';
import type { Problem } from './result';

// ---- Shared shapes ---------------------------------------------------------------------------

const Id = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .superRefine((value, ctx) => {
    const fault = idFault(value);
    if (fault) ctx.addIssue({ code: 'custom', message: `The id ${fault}` });
  });
/** An order id from the renderer: trimmed, then the one id rule (OrderIdSchema). */
const OrderId = z.string().trim().pipe(OrderIdSchema);
const Pin = z.string().regex(/^\d{4,8}$/, 'PIN must be 4 to 8 digits');

export const ProblemSchema = z.object({
  kind: z.enum(['transient', 'auth', 'permanent', 'invalid', 'storage']),
  message: z.string(),
  code: z.string().optional(),
  /** What the code's sentence needs filled in (order id, count, wait…), so the renderer can say it in the packer's language. */
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** A sentence by code and values: the renderer words it in the staff's language. */
export const WordsSchema = z.object({
  code: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Words = z.infer<typeof WordsSchema>;

export const ActionInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fulfilment'), fulfilmentId: Id, state: z.enum(FULFILLMENT_STATES) }),
  z.object({ kind: z.literal('units'), itemId: Id, units: z.number().int().min(0).max(100_000), reason: Id }),
  z.object({ kind: z.literal('orderState'), state: z.enum(ORDER_STATES), reason: Id.optional() }),
  z.object({ kind: z.literal('invoice'), sellerInvoiceId: Id }),
]);

export const NextStepSchema = z.object({
  key: z.enum(['ACCEPT', ...FULFILLMENT_STATES, 'COMPLETE']),
  label: z.string(),
  fulfilmentId: z.string().optional(),
});

export const EntryStateSchema = z.enum(['queued', 'sending', 'sent', 'failed', 'discarded']);
export type EntryState = z.infer<typeof EntryStateSchema>;

/** One outbox entry as the UI and the CLI show it. */
export const OutboxEntryViewSchema = z.object({
  id: z.number().int(),
  requestId: z.string(),
  orderId: z.string(),
  action: ActionSchema,
  /** Plain words: "Mark PACKED", "Cut Paracetamol to 1 unit (Item unavailable)". */
  summary: z.string(),
  state: EntryStateSchema,
  createdAt: z.number(),
  /** End of the undo window (epoch ms); not sent before. */
  sendAfter: z.number(),
  attempts: z.number().int(),
  nextAttemptAt: z.number().nullable(),
  lastError: ProblemSchema.nullable(),
  /** An earlier attempt ended without an answer and a later one was refused: it may have landed. */
  mayBeApplied: z.boolean(),
  sentAt: z.number().nullable(),
  /** Who made the tap: the packer signed in at the counter then; null: nobody was (the counter's name stands in). */
  packer: z.string().nullable(),
  /** A unit cut's count of its item before it; absent for other taps. */
  unitsBefore: z.number().int().min(0).optional(),
  /**
   * With a store hub: whether other counters could not be checked when the tap was made, and which
   * of their taps on the order this counter had heard of then (request ids). Absent: no hub.
   */
  hub: z.object({ unchecked: z.boolean(), seen: z.array(z.string()) }).optional(),
});
export type OutboxEntryView = z.infer<typeof OutboxEntryViewSchema>;

/**
 * An order this terminal had taps on, cancelled or with its items changed by someone else (the
 * marketplace, another counter): said loudly until a person acknowledges it.
 */
export const OrderAlarmSchema = z.object({
  kind: z.enum(['cancelled', 'items']),
  /** When the service changed the order (epoch ms). */
  changedAt: z.number(),
  raisedAt: z.number(),
});
export type OrderAlarm = z.infer<typeof OrderAlarmSchema>;

/** An item to put back at a counter that did not keep an order packed twice: what it scanned, cut, or (neither known) the whole line. */
export const PutBackItemSchema = z.object({
  itemId: z.string(),
  units: z.number().int().min(0),
  why: z.enum(['scanned', 'cut', 'picked']),
});
export type PutBackItem = z.infer<typeof PutBackItemSchema>;

/**
 * "Packed twice": this counter and another (or more) worked on the order while they could not see
 * each other. Shown loudly until a person settles who keeps it; then, at a counter that does not
 * keep it, what to put back until a person there says it is done. Absent otherwise.
 */
export const OrderConflictSchema = z.object({
  parties: z.array(z.object({ counterId: CounterIdSchema, counterName: CounterNameSchema, packers: z.array(z.string()), here: z.boolean() })),
  raisedAt: z.number(),
  settled: z
    .object({ keeperName: CounterNameSchema, keeperHere: z.boolean(), byCounter: CounterNameSchema, byPacker: z.string().nullable(), at: z.number() })
    .nullable(),
  /** At a counter that does not keep the order: what to put back. */
  putBack: z.array(PutBackItemSchema).optional(),
});
export type OrderConflict = z.infer<typeof OrderConflictSchema>;

/** Another counter's tap on an order, as this counter shows it. */
export const ElsewhereTapSchema = z.object({
  counterName: CounterNameSchema,
  /** The other counter's own words for it (English); `action` is worded here, in this counter's language, with the items' names. */
  summary: z.string(),
  action: ActionSchema.optional(),
  state: SharedTapStateSchema,
  queuedAt: z.number(),
});
export type ElsewhereTap = z.infer<typeof ElsewhereTapSchema>;

/** An item this terminal cut: how many units it had before its first cut, and the latest cut's reason code. */
export const ItemCutSchema = z.object({
  itemId: z.string(),
  was: z.number().int().nonnegative(),
  reason: z.string(),
});
export type ItemCut = z.infer<typeof ItemCutSchema>;

/** One order on the terminal: the service's latest answer with still-queued taps applied. */
export const OrderViewSchema = z.object({
  id: z.string(),
  /** Projected order; null until the service has answered for it once. */
  order: OrderSchema.nullable(),
  nextStep: NextStepSchema.nullable(),
  /** Taps queued or sending. */
  waiting: z.number().int(),
  /** Taps failed, holding the order. */
  failed: z.number().int(),
  mayBeApplied: z.boolean(),
  /** The last answer could not be read; the order should be refreshed. */
  needsRefresh: z.boolean(),
  promisedPackedAt: z.number().nullable(),
  /** When the service's latest answer for this order arrived. */
  syncedAt: z.number().nullable(),
  addedAt: z.number(),
  /** The service's latest answer could not be read (numbers, dates or id out of range): set aside, named in the queue and `doctor`. */
  unreadable: z.boolean().optional(),
  /** Cancelled or changed elsewhere and not yet acknowledged; absent otherwise. */
  alarm: OrderAlarmSchema.optional(),
  /** With a store hub: the counter packing this order (`here`: this one), as last heard; absent when unclaimed. */
  claim: ClaimSchema.extend({ here: z.boolean() }).optional(),
  /** With a store hub: other counters' taps on this order that their outboxes have not sent yet (already laid over `order`). */
  elsewhere: z.array(ElsewhereTapSchema).optional(),
  /** With a store hub: packed twice while the counters could not see each other, until settled and put right here. */
  conflict: OrderConflictSchema.optional(),
  /**
   * With a store hub: another counter packing this order has its alarm raised (cancelled or changed
   * by someone else) and not yet acknowledged there: every other counter shows a red line.
   */
  alarmElsewhere: z.object({ kind: z.enum(['cancelled', 'items']), changedAt: z.number(), counterName: CounterNameSchema, packer: z.string().nullable() }).optional(),

  /** Items this terminal cut ("was 3: Item unavailable"); absent when none, and on the queue's rows. */
  cuts: z.array(ItemCutSchema).optional(),
});
export type OrderView = z.infer<typeof OrderViewSchema>;

/** What the queue shows of an order's body: read off it once by the main side (`summarize`). */
export const OrderFactsSchema = z.object({
  /** The service's order state as it sent it ("Accepted"); empty when it sent none. */
  orderState: z.string(),
  /** The billing name, else the person at a fulfilment's end; null when the order names nobody. */
  customer: z.string().nullable(),
  /** Item lines and the units over all of them. */
  lines: z.number().int().min(0),
  units: z.number().int().min(0),
  /** Any item needs a prescription checked. */
  prescription: z.boolean(),
  /**
   * The furthest fulfilment step the order has reached (PACKING, PACKED, OUT_FOR_DELIVERY,
   * DELIVERED…) while it is accepted or in progress: the step a packer knows, which the order state
   * ("Accepted", "In progress") does not say. Absent before packing starts and once it is finished.
   */
  step: z.string().optional(),
});
export type OrderFacts = z.infer<typeof OrderFactsSchema>;

/**
 * One queue row: an order's view without its body, only the facts a row shows. The queue lists
 * every order on the terminal (thousands), so it carries a few hundred bytes an order rather than
 * the body's several kilobytes; a screen that needs the body (the order, a slip) reads it with
 * `orders.get`, and `orders.changed` brings whole views.
 */
export const OrderSummarySchema = OrderViewSchema.omit({ order: true }).extend({
  /** Null until the service has answered for the order once (as `order` in the view). */
  facts: OrderFactsSchema.nullable(),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;

/** Filter keys of the queue: a next step, or DONE for orders with nothing left to do. */
export const STEP_FILTER_KEYS = ['ACCEPT', ...FULFILLMENT_STATES, 'COMPLETE', 'DONE'] as const;
export type StepFilterKey = (typeof STEP_FILTER_KEYS)[number];
/** How many orders each filter holds. */
export const StepCountsSchema = z.object(
  Object.fromEntries(STEP_FILTER_KEYS.map((k) => [k, z.number().int().min(0)])) as Record<StepFilterKey, z.ZodNumber>,
);
export type StepCounts = Record<StepFilterKey, number>;

/**
 * The queue's first screenful without the rest: the ids of every order in queue order (the list's
 * length and scroll, which orders are known), the rows of the first few, and the count per step.
 * The renderer draws the first screen from it and reads `orders.list` once that is painted.
 */
export const QueueHeadSchema = z.object({
  ids: z.array(OrderSummarySchema.shape.id),
  rows: z.array(OrderSummarySchema),
  counts: StepCountsSchema,
});
export type QueueHead = z.infer<typeof QueueHeadSchema>;

/** What the order finder answers: the orders typed text found (a short list), and how each matched. */
export const OrdersFoundSchema = z.object({
  matches: z.array(z.object({ order: OrderSummarySchema, by: z.enum(MATCH_KINDS) })),
  /** More orders matched than the list holds: the packer types more. */
  more: z.boolean(),
});
export type OrdersFound = z.infer<typeof OrdersFoundSchema>;

/**
 * The Orders search's filter by where an order stands: something still to do here, nothing left to
 * do (still on the terminal), or gone from the terminal (its id and history kept, its details not).
 */
export const SEARCH_STANDINGS = ['open', 'done', 'left'] as const;
export type SearchStanding = (typeof SEARCH_STANDINGS)[number];

/** Most orders one Orders search lists: a screenful or two; more asks for more of the text or a day. */
export const SEARCH_LIMIT = 50;

/** One order the Orders search found. */
export const OrderHitSchema = z.object({
  id: z.string(),
  /** How the text found it; 'day' when no text was given and the day listed it. */
  by: z.enum([...MATCH_KINDS, 'day']),
  standing: z.enum(SEARCH_STANDINGS),
  addedAt: z.number(),
  /** Its queue row while it is on the terminal; null once it has left. */
  order: OrderSummarySchema.nullable(),
  /** When it left the terminal (epoch ms), or null while on it. */
  leftAt: z.number().nullable(),
});
export type OrderHit = z.infer<typeof OrderHitSchema>;

export const OrdersSearchedSchema = z.object({
  hits: z.array(OrderHitSchema),
  /** More orders matched than the list holds. */
  more: z.boolean(),
});
export type OrdersSearched = z.infer<typeof OrdersSearchedSchema>;

export const SyncStatusSchema = z.object({
  connectivity: z.enum(['online', 'offline', 'unknown']),
  /** Taps queued or sending. */
  waiting: z.number().int(),
  /** Taps the service refused, holding their orders. */
  failed: z.number().int(),
  /** Taps refused after a try that got no answer: they may already be applied; a person checks. */
  toCheck: z.number().int(),
  oldestWaitingAt: z.number().nullable(),
  lastSuccessAt: z.number().nullable(),
  credentials: z.enum(['ok', 'missing', 'rejected']),
  /** A waiting tap older than the backlog threshold. */
  backlogAlarm: z.boolean(),
  /**
   * This terminal's clock minus the order service's, as its two witnesses tell it (the token's
   * issued_at, the service's Date header; whole seconds), or null before either has spoken.
   * Countdowns to the service's promised times subtract it, so they hold on a computer whose
   * clock is wrong.
   */
  clockSkewMs: z.number().nullable(),
  /** The engine's one sentence on what matters most, in English (the CLI's, and the fallback). */
  message: z.string().nullable(),
  /** The same sentence by code and values, for the renderer to say in the staff's language. */
  notice: WordsSchema.nullable().optional(),
});
export type SyncStatus = z.infer<typeof SyncStatusSchema>;

/** Order intake: whether new orders are being checked, and when they last were. */
export const IntakeStatusSchema = z.object({
  /** ok: polling; retrying: the last pass stopped (backing off); offline: the service cannot be reached;
   * noAccess: the service refused a read call (until the settings change); notConfigured: no service provider id;
   * storage: the data file takes no writes (a full disk), tried again on the timer. */
  condition: z.enum(['ok', 'retrying', 'offline', 'noAccess', 'notConfigured', 'storage']),
  /** When the last complete pass finished (every changed order stored): "orders last checked". */
  lastCompleteAt: z.number().nullable(),
  /** The end of the last window read completely (service clock). */
  cursorAt: z.number().nullable(),
  lastTriedAt: z.number().nullable(),
  nextAt: z.number().nullable(),
  intervalMs: z.number().int(),
  message: z.string().nullable(),
  /** Ids `changes` listed whose bodies are not stored yet (asked again with backoff, never dropped). */
  stillToFetch: z.number().int().min(0),
});
export type IntakeStatus = z.infer<typeof IntakeStatusSchema>;

export const EnvironmentSchema = z.enum(['training', 'staging', 'production']);
export type Environment = z.infer<typeof EnvironmentSchema>;

/** The paper the terminal prints on: an 80 mm thermal roll or A4 sheets. */
export const PaperSchema = z.enum(['thermal80', 'a4']);
export type Paper = z.infer<typeof PaperSchema>;

/** What can be printed: one order's packing slip, or the pick list of several orders. */
export const PrintDocumentSchema = z.enum(['packingSlip', 'pickList', 'shiftSummary', 'joinSlip', 'badges']);
export type PrintDocument = z.infer<typeof PrintDocumentSchema>;
/** The documents printed for an order (its timeline keeps them). */
export const OrderPrintSchema = z.enum(['packingSlip', 'pickList']);
export type OrderPrint = z.infer<typeof OrderPrintSchema>;

/** A printer the operating system offers (Electron's getPrintersAsync, reduced to what we show). */
export const PrinterSchema = z.object({
  /** The system name, which printing needs ("EPSON_TM_T82"). */
  name: z.string().min(1).max(256),
  /** The name people know it by ("EPSON TM-T82"). */
  displayName: z.string().max(256),
  description: z.string().max(512),
});
export type Printer = z.infer<typeof PrinterSchema>;

/**
 * How a print request ended: `printed` (sent to the printer), `cancelled` (the packer closed the
 * print dialog), or `browser` (the browser harness: the page opens the browser's own print dialog,
 * where Save as PDF keeps a file).
 */
export const PrintOutcomeSchema = z.object({ outcome: z.enum(['printed', 'cancelled', 'browser']) });
export type PrintOutcome = z.infer<typeof PrintOutcomeSchema>;
/** True when `source` is a regular expression this JavaScript engine accepts. */
function compilesAsPattern(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

export { DEFAULT_ORDER_ID_PATTERN };

export const SettingsSchema = z.object({
  environment: EnvironmentSchema,
  authUrl: z.string(),
  baseUrl: z.string(),
  undoWindowMs: z.number().int().min(0).max(60_000),
  concurrency: z.number().int().min(1).max(16),
  kiosk: z.boolean(),
  autoLaunch: z.boolean(),
  sounds: z.boolean(),
  updateChannel: z.enum(['stable', 'beta']),
  scannerPrefix: z.string().max(8),
  /** What an order id looks like (a regular expression): a scanned code that does not match is never opened as a new order. */
  orderIdPattern: z
    .string()
    .min(1)
    .max(200)
    .refine((source) => compilesAsPattern(source), 'Order id pattern must be a valid regular expression'),
  quietHour: z.number().int().min(0).max(23).nullable(),
  paper: PaperSchema,
  /** The printer's system name; null: ask with the print dialog each time. */
  printer: z.string().trim().min(1).max(256).nullable(),
  /** Print the packing slip as soon as an order is marked PACKED on this terminal. */
  autoPrintSlip: z.boolean(),
  /** The slip shows the customer's whole phone number; otherwise only its last four digits (it rides on the bag). */
  slipWholePhone: z.boolean(),
  /** The store's service provider id (`serviceProvider.id` in orders): intake polls `changes` for it; '' = not set. */
  serviceProviderId: z.string().trim().max(128),
  /** How often intake checks for new orders; never more often than every 10 s. */
  intakeIntervalMs: z.number().int().min(1_000).max(600_000),
  /** How often a new order's alert sounds again until someone opens or accepts it. */
  alertRepeatMs: z.number().int().min(5_000).max(300_000),
  /** Loudness of the new-order alert: it can be turned down, never off during a shift. */
  alertVolume: z.number().min(0.2).max(1),
  /** The terminal's language for its staff, chosen by a manager (a packer may switch for a shift). */
  language: z.enum(LANGUAGE_CODES),
  /** After Accept, the order screen asks for each unit to be scanned before Mark packed (issue 24); off: packed by eye, as before. */
  scanToPack: z.boolean(),
  /** With a store hub: a claim ("being packed at Counter 2") lapses after this long without a tap on the order. */
  claimQuietMs: z.number().int().min(60_000).max(4 * 3_600_000),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const AppInfoSchema = z.object({
  version: z.string(),
  environment: EnvironmentSchema,
  shell: z.enum(['electron', 'web']),
  terminalId: z.string(),
  keychain: z.object({ ok: z.boolean(), message: z.string(), checking: z.boolean().optional() }),
  pinSet: z.boolean(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const UpdateStatusSchema = z.object({
  state: z.enum(['idle', 'checking', 'downloading', 'ready', 'installing', 'error', 'disabled']),
  currentVersion: z.string(),
  availableVersion: z.string().nullable(),
  message: z.string().nullable(),
  lastCheckAt: z.number().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

// ---- The shift and an order's history (issue 24) ----------------------------------------------

/** A local calendar day, YYYY-MM-DD. */
export const DaySchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'a day is YYYY-MM-DD');

/** A duration's spread: how many, the median and the 90th percentile (nearest rank), ms; null when none. */
export const DurationSpreadSchema = z.object({
  count: z.number().int().min(0),
  medianMs: z.number().min(0).nullable(),
  p90Ms: z.number().min(0).nullable(),
});
export type DurationSpread = z.infer<typeof DurationSpreadSchema>;

const Count = z.number().int().min(0);

/** One set of a shift's figures: the whole counter's, or one packer's or counter's share. */
export const ShiftFiguresSchema = z.object({
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
  toAccept: DurationSpreadSchema,
  /** From Accept to Packed. */
  toPack: DurationSpreadSchema,
});
export type ShiftFigures = z.infer<typeof ShiftFiguresSchema>;

/** A day's shift in one picture. */
export const ShiftReportSchema = z.object({
  day: DaySchema,
  /** The counter that reports (this terminal's id: its figures are kept under it; never shown, see shared/shift.ts). */
  terminal: z.string(),
  /** This counter's name in its store hub; null or absent: none (a one-counter store), said as "this counter". */
  counterName: z.string().nullable().optional(),
  from: z.number(),
  to: z.number(),
  /** Worked out from the terminal's records now, or read from the day's figures kept before pruning. */
  source: z.enum(['records', 'kept']),
  total: ShiftFiguresSchema,
  /** Who cancelled or rejected: here (a packer, a counter) or elsewhere (the marketplace, another counter). */
  cancelledBy: z.array(
    z.object({ by: z.enum(['here', 'elsewhere']), packer: z.string().nullable(), counter: z.string().nullable(), count: Count }),
  ),
  /** Orders received and packed in each hour of the day (0 to 23, local time). */
  byHour: z.array(z.object({ hour: z.number().int().min(0).max(23), received: Count, packed: Count })).length(24),
  /** Each packer's share; null: taps made without a name (the counter stands in). */
  byPacker: z.array(z.object({ packer: z.string().nullable(), figures: ShiftFiguresSchema })),
  byCounter: z.array(z.object({ counter: z.string(), figures: ShiftFiguresSchema })),
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
});
export type ShiftReport = z.infer<typeof ShiftReportSchema>;

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
export const ShiftCsvWordsSchema = z
  .object({
    columns: z.object(Object.fromEntries(SHIFT_CSV_COLUMNS.map((c) => [c, CsvHeading])) as Record<(typeof SHIFT_CSV_COLUMNS)[number], typeof CsvHeading>).strict(),
    noName: CsvHeading,
    /** This counter, when it has no name of its own from the store hub. */
    thisCounter: CsvHeading,
    dialogTitle: CsvHeading,
  })
  .strict();
export type ShiftCsvWords = z.infer<typeof ShiftCsvWordsSchema>;

/** What saving a CSV came to: saved where the manager chose, the dialog closed, or (the browser harness) the text for the page to download. */
export const CsvSavedSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('saved'), path: z.string() }),
  z.object({ outcome: z.literal('cancelled') }),
  z.object({ outcome: z.literal('download'), fileName: z.string(), text: z.string() }),
]);
export type CsvSaved = z.infer<typeof CsvSavedSchema>;

/** One moment in an order's life on this terminal. */
export const TimelineEventSchema = z.object({
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
});
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;

export const OrderTimelineSchema = z.object({
  orderId: z.string(),
  /** The order is still on the terminal with its details: its slip and pick list can be printed again. */
  reprintable: z.boolean(),
  events: z.array(TimelineEventSchema),
});
export type OrderTimeline = z.infer<typeof OrderTimelineSchema>;
// ---- Staff and scan to pack (issue 24) ------------------------------------------------------------

/** A packer's personal PIN: the manager PIN's format, never equal to it (checked by the main side). */
const PackerPin = Pin;
const PackerName = z.string().trim().min(1).max(60);

/** One packer on the staff list, as Settings -> Staff shows it (never the PIN or its hash). */
export const StaffMemberSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  /** The code printed on the packer's badge (`PDKS-` and 8 characters: src/shared/staff.ts). */
  badge: z.string(),
  hasPin: z.boolean(),
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;

/** Who is packing at this counter now, and whether the store keeps names at all. */
export const PackerStatusSchema = z.object({
  packer: z.object({ id: z.number().int().positive(), name: z.string() }).nullable(),
  /** The store keeps a staff list; false: the counter's name stands in for every tap. */
  named: z.boolean(),
});
export type PackerStatus = z.infer<typeof PackerStatusSchema>;

/** An order's scan-to-pack state: units scanned per item, and who marked it packed. */
export const PackStateSchema = z.object({
  orderId: z.string(),
  items: z.array(z.object({ itemId: z.string(), scanned: z.number().int().min(0) })),
  /** The packer of the order's PACKED tap, at this counter or (heard through the store hub) another; null when nobody was signed in, or not packed. */
  packedBy: z.string().nullable(),
  /** The order was marked packed at this counter (by `packedBy`, or by the counter when that is null). */
  packedHere: z.boolean(),
  /** With a store hub: the name of the counter where it was marked packed (this one's or another's); null: not known, or no hub. */
  packedAt: z.string().nullable().optional(),
});
export type PackState = z.infer<typeof PackStateSchema>;

/** What one scan on an order came to, and the order's counts after it. */
export const PackScanSchema = z.object({
  outcome: z.enum(['ticked', 'tooMany', 'notInOrder', 'unknown']),
  itemId: z.string().optional(),
  /** notInOrder: the product's name and the orders on the terminal that hold it (at most three). */
  product: z.object({ name: z.string().max(500).nullable(), orderIds: z.array(z.string().max(128)).min(1).max(3) }).optional(),
  state: PackStateSchema,
});
export type PackScanAnswer = z.infer<typeof PackScanSchema>;

const Empty = z.object({}).strict();
const Ok = z.object({ done: z.literal(true) });

/** A store hub's join code, as text and as a barcode (SVG) for the join slip. */
export const HubJoinSchema = z.object({ code: z.string(), barcodeSvg: z.string() });
export type HubJoin = z.infer<typeof HubJoinSchema>;

// ---- Commands --------------------------------------------------------------------------------

/**
 * An object whose every property is built by its function the first time it is read, and kept.
 * The contract's commands and events are built this way: a page's first screen reads two or three
 * of them, and building every command's zod schemas before its first answer is read held that
 * answer back by a few hundred milliseconds on a busy terminal. Each is still the one schema every
 * side validates with; only when it is built changes.
 */
function builtOnFirstUse<T extends Record<string, () => unknown>>(builders: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const built = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const key of Object.keys(builders) as (keyof T)[]) {
    Object.defineProperty(built, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = builders[key]!() as ReturnType<T[typeof key]>;
        Object.defineProperty(built, key, { value, enumerable: true, writable: false, configurable: false });
        return value;
      },
    });
  }
  return built;
}

/** Every command: name -> payload schema and result schema. */
export const COMMANDS = builtOnFirstUse({
  'app.info': () => ({ payload: Empty, result: AppInfoSchema }),
  /** Every order on the terminal as a queue row (no bodies). */
  'orders.list': () => ({ payload: Empty, result: z.array(OrderSummarySchema) }),
  'orders.get': () => ({ payload: z.object({ orderId: OrderId }).strict(), result: OrderViewSchema.nullable() }),
  /** A scanned or typed order id: opens it, or adds it to the terminal when new. */
  'orders.add': () => ({ payload: z.object({ orderId: OrderId }).strict(), result: OrderViewSchema }),
  /** Finds orders on the terminal by typed text: an id, its last digits, the customer's name or phone, the invoice number. */
  'orders.find': () => ({ payload: z.object({ text: Id }).strict(), result: OrdersFoundSchema }),
  /**
   * The Orders search: typed text (as orders.find reads it) or a day's arrivals, orders that left
   * the terminal included, filtered by where they stand and the day they arrived.
   */
  'orders.search': () => ({
    payload: z
      .object({ text: z.union([z.string().trim().length(0), Id]), standing: z.enum(SEARCH_STANDINGS).optional(), day: DaySchema.optional() })
      .strict(),
    result: OrdersSearchedSchema,
  }),
  /** Takes an order off the terminal when none of its taps reached the service (a code scanned by mistake). */
  'orders.remove': () => ({ payload: z.object({ orderId: OrderId }).strict(), result: Ok }),
  /** The queue's first `rows` rows, every id in queue order and the counts per step: the first screen before the whole list. */
  'orders.head': () => ({ payload: z.object({ rows: z.number().int().min(1).max(500) }).strict(), result: QueueHeadSchema }),
  /** A person has seen the order's alarm (cancelled or changed elsewhere): it stops sounding. */
  'orders.acknowledge': () => ({ payload: z.object({ orderId: OrderId }).strict(), result: Ok }),
  'taps.submit': () => ({
    payload: z.object({ orderId: OrderId, input: ActionInputSchema, pin: Pin.optional() }).strict(),
    result: OutboxEntryViewSchema,
  }),
  'taps.undo': () => ({ payload: z.object({ entryId: z.number().int().positive() }).strict(), result: Ok }),
  'outbox.list': () => ({ payload: Empty, result: z.array(OutboxEntryViewSchema) }),
  'outbox.retry': () => ({ payload: z.object({ entryId: z.number().int().positive() }).strict(), result: Ok }),
  'outbox.discard': () => ({ payload: z.object({ entryId: z.number().int().positive(), pin: Pin }).strict(), result: Ok }),
  'sync.status': () => ({ payload: Empty, result: SyncStatusSchema }),
  'intake.status': () => ({ payload: Empty, result: IntakeStatusSchema }),
  /** Checks for new orders now (one full pass); answers the status after it. */
  'intake.checkNow': () => ({ payload: Empty, result: IntakeStatusSchema }),
  'settings.get': () => ({ payload: Empty, result: SettingsSchema }),
  'settings.update': () => ({
    payload: z.object({ pin: Pin, patch: SettingsSchema.omit({ environment: true, authUrl: true, baseUrl: true }).partial().strict() }).strict(),
    result: SettingsSchema,
  }),
  /** Write-only: the secret goes in, only saved/rejected comes out. */
  'credentials.save': () => ({
    payload: z
      .object({
        pin: Pin,
        environment: EnvironmentSchema,
        authUrl: z.string().url().max(2048).optional(),
        baseUrl: z.string().url().max(2048).optional(),
        clientId: z.string().trim().min(1).max(512).optional(),
        // One of only spaces is as empty as none (the vaults refuse it too); not trimmed otherwise.
        clientSecret: z.string().min(1).max(4096).regex(/\S/, 'the client secret is empty').optional(),
        /** The store's service provider id, from the same e-mail as the credentials. */
        serviceProviderId: z.string().trim().min(1).max(128).optional(),
      })
      .strict(),
    result: z.object({
      result: z.enum(['saved', 'rejected']),
      /** English words (the fallback); `code` and `values` say the same for the renderer to word. */
      message: z.string(),
      code: z.string().optional(),
      values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    }),
  }),
  'pin.verify': () => ({ payload: z.object({ pin: Pin }).strict(), result: z.object({ valid: z.boolean() }) }),
  'pin.set': () => ({ payload: z.object({ currentPin: Pin.optional(), newPin: Pin }).strict(), result: Ok }),
  'updates.status': () => ({ payload: Empty, result: UpdateStatusSchema }),
  'updates.installNow': () => ({ payload: z.object({ pin: Pin }).strict(), result: Ok }),
  'support.exportBundle': () => ({ payload: z.object({ pin: Pin }).strict(), result: z.object({ path: z.string() }) }),
  'kiosk.leave': () => ({ payload: z.object({ pin: Pin }).strict(), result: Ok }),
  /** The printers the operating system offers (none in the browser harness). */
  'printers.list': () => ({ payload: Empty, result: z.array(PrinterSchema) }),
  /**
   * Prints the document the page has laid out for print, on the paper and printer of the settings.
   * `contentHeightMm` is the laid-out height, so a thermal roll is cut after the content.
   */
  'print.run': () => ({
    payload: z.object({ document: PrintDocumentSchema, contentHeightMm: z.number().positive().max(10_000) }).strict(),
    result: PrintOutcomeSchema,
  }),
  /** The store hub as this counter sees it (a one-counter store: mode 'solo'). */
  'hub.status': () => ({ payload: Empty, result: HubStatusSchema }),
  /** Takes over an order another counter is packing (a confirmed act; that counter is told). */
  'orders.takeOver': () => ({ payload: z.object({ orderId: OrderId }).strict(), result: ClaimSchema }),
  /** An order packed twice while the counters were apart: a person chose which counter keeps it. */
  'orders.settleConflict': () => ({ payload: z.object({ orderId: OrderId, keeperId: CounterIdSchema }).strict(), result: Ok }),
  /** At a counter that did not keep an order packed twice: its items are back on the shelf. */
  'orders.putBack': () => ({ payload: z.object({ orderId: OrderId }).strict(), result: Ok }),
  /** Makes this counter the store's hub (manager); answers the join code other counters need. */
  'hub.create': () => ({ payload: z.object({ pin: Pin, name: CounterNameSchema.optional() }).strict(), result: HubJoinSchema }),
  /** The join code again, to show or print on a join slip (manager, on the hub). */
  'hub.joinCode': () => ({ payload: z.object({ pin: Pin }).strict(), result: HubJoinSchema }),
  /** Joins this counter to a store hub by its join code, typed or scanned (manager). */
  'hub.join': () => ({ payload: z.object({ pin: Pin, code: z.string().trim().min(1).max(1000), name: CounterNameSchema.optional() }).strict(), result: HubStatusSchema }),
  /** Leaves the store hub (a hub stops serving); the counter works alone again (manager). */
  'hub.leave': () => ({ payload: z.object({ pin: Pin }).strict(), result: Ok }),
  /** Settings -> Chain: the store's link to the chain's centre (on a counter: as the hub PC says it). */
  'chain.status': () => ({ payload: Empty, result: ChainStatusSchema }),
  /**
   * Links the store hub to the chain's centre (manager, on the hub PC). The files arrive as text,
   * capped; each field is checked in words by the main side (chainFieldErrors), which keeps the
   * credentials and never sends them back.
   */
  'chain.link': () => ({
    payload: z
      .object({
        pin: Pin,
        link: z
          .object({
            storeId: z.string().max(200),
            url: z.string().max(400),
            credentials: z.string().max(CHAIN_FILE_MAX_CHARS).nullable(),
            ca: z.string().max(CHAIN_FILE_MAX_CHARS).nullable(),
          })
          .strict(),
      })
      .strict(),
    result: ChainStatusSchema,
  }),
  /** Unlinks the store hub from the chain: its credentials removed (manager, on the hub PC). */
  'chain.unlink': () => ({ payload: z.object({ pin: Pin }).strict(), result: ChainStatusSchema }),
  /** A day's shift in one picture, from the terminal's own records (today when no day is given). */
  'shift.report': () => ({ payload: z.object({ day: DaySchema.optional() }).strict(), result: ShiftReportSchema }),
  /**
   * One table of the day's figures as a CSV file, saved where the manager chooses (the app's save
   * dialog; in the browser harness the page downloads the text it answers).
   */
  'shift.exportCsv': () => ({ payload: z.object({ day: DaySchema, table: ShiftCsvTableSchema, words: ShiftCsvWordsSchema }).strict(), result: CsvSavedSchema }),
  /** What happened to an order on this terminal, oldest first. */
  'orders.timeline': () => ({ payload: z.object({ orderId: OrderId }).strict(), result: OrderTimelineSchema }),
  /** A slip or pick list went to the printer (or the browser's print dialog): kept for the order's timeline. */
  'prints.record': () => ({
    payload: z.object({ orderId: OrderId, document: OrderPrintSchema, outcome: z.enum(['printed', 'browser']) }).strict(),
    result: Ok,
  }),
  /** The staff list (manager PIN): names, badges, whether each has a PIN. */
  'staff.list': () => ({ payload: z.object({ pin: Pin }).strict(), result: z.array(StaffMemberSchema) }),
  /** Adds a packer (manager PIN), with a new badge and an optional personal PIN. */
  'staff.add': () => ({ payload: z.object({ pin: Pin, name: PackerName, packerPin: PackerPin.optional() }).strict(), result: StaffMemberSchema }),
  /** Renames a packer, sets or clears (null) their PIN, or gives them a new badge (manager PIN). */
  'staff.update': () => ({
    payload: z
      .object({ pin: Pin, id: z.number().int().positive(), name: PackerName.optional(), packerPin: PackerPin.nullable().optional(), newBadge: z.boolean().optional() })
      .strict(),
    result: StaffMemberSchema,
  }),
  /** Takes a packer off the list (manager PIN). */
  'staff.remove': () => ({ payload: z.object({ pin: Pin, id: z.number().int().positive() }).strict(), result: Ok }),
  /** Who is packing at this counter now. */
  'staff.current': () => ({ payload: Empty, result: PackerStatusSchema }),
  /** A packer starts work: a scanned badge or a typed personal PIN (one scan switches packers). */
  'staff.signIn': () => ({
    payload: z.union([z.object({ badge: z.string().trim().min(1).max(64) }).strict(), z.object({ packerPin: PackerPin }).strict()]),
    result: PackerStatusSchema,
  }),
  /** Nobody is packing at this counter now. */
  'staff.signOut': () => ({ payload: Empty, result: PackerStatusSchema }),
  /** An order's scan-to-pack counts and who packed it. */
  'packing.get': () => ({ payload: z.object({ orderId: OrderId }).strict(), result: PackStateSchema }),
  /** A product code scanned on an order being packed. */
  'packing.scan': () => ({ payload: z.object({ orderId: OrderId, code: z.string().trim().min(1).max(128) }).strict(), result: PackScanSchema }),
  /** "Which item is this?": the store remembers the barcode as that item's, and one unit is ticked. */
  'packing.teach': () => ({
    payload: z.object({ orderId: OrderId, code: z.string().trim().min(1).max(128), itemId: Id }).strict(),
    result: PackScanSchema,
  }),
});

export type CommandName = keyof typeof COMMANDS;
export type CommandPayload<C extends CommandName> = z.input<(typeof COMMANDS)[C]['payload']>;
export type CommandResult<C extends CommandName> = z.infer<(typeof COMMANDS)[C]['result']>;

// ---- Events ----------------------------------------------------------------------------------

export const EVENTS = builtOnFirstUse({
  /** Orders whose view changed (full views, so the renderer never recomputes). */
  'orders.changed': () => z.object({ orders: z.array(OrderViewSchema) }),
  /**
   * Every order on the terminal read again, as `orders.list` answers: the list replaces the
   * renderer's. The harness bridge raises it after its socket came back (changes may have been
   * missed while it was down); the main process has no reason to.
   */
  'orders.listed': () => z.object({ orders: z.array(OrderSummarySchema) }),
  /**
   * Orders taken off the terminal by the engine: finished (completed or cancelled) and untouched
   * for days (core/outbox/retire.ts). The queue drops them.
   */
  'orders.removed': () => z.object({ orderIds: z.array(OrderId).max(10_000) }),
  'outbox.changed': () => z.object({ entries: z.array(OutboxEntryViewSchema) }),
  'sync.status': () => SyncStatusSchema,
  'intake.status': () => IntakeStatusSchema,
  'updates.status': () => UpdateStatusSchema,
  /** The store hub's status changed (joined, away, back, counters come and go, intake moved). */
  'hub.status': () => HubStatusSchema,
  /** The packer signed in at this counter changed (or the staff list did). */
  'staff.changed': () => PackerStatusSchema,
  /**
   * Other counters' shift taps arrived from the store hub: the store-wide Shift figures changed
   * (this counter's own taps come as `outbox.changed`).
   */
  'shift.changed': () => z.object({}).strict(),
  /** A store setting (scan to pack, how long an order stays with its counter) was changed at another counter and taken here. */
  'settings.changed': () => SettingsSchema,
});

export type EventName = keyof typeof EVENTS;
export type EventBody<E extends EventName> = z.infer<(typeof EVENTS)[E]>;

// ---- Envelope and typed client -----------------------------------------------------------------

/** What crosses the wire as a command's answer. */
export type Reply<T> = { ok: true; value: T } | { ok: false; problem: Problem };

/**
 * A command's answer as it arrives at the page, from either shell (Electron IPC, the harness
 * WebSocket): the envelope only; createApi then parses the value with the command's result schema.
 */
export const ReplySchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), problem: ProblemSchema }),
]);

/** How a shell carries the contract (ipcRenderer in Electron, a WebSocket in the harness). */
export interface Transport {
  invoke(command: CommandName, payload: unknown): Promise<Reply<unknown>>;
  subscribe(event: EventName, listener: (body: unknown) => void): () => void;
}

/** The API object the renderer sees as `window.packdesk`, whatever the shell. */
export interface PackdeskApi {
  invoke<C extends CommandName>(command: C, payload: CommandPayload<C>): Promise<Reply<CommandResult<C>>>;
  on<E extends EventName>(event: E, listener: (body: EventBody<E>) => void): () => void;
}

/** A command's reply as the renderer may see it: a value that passed the command's result schema, or a problem. */
export function parseReply<C extends CommandName>(command: C, reply: Reply<unknown>): Reply<CommandResult<C>> {
  const spec = COMMANDS[command];
  if (!spec) return { ok: false, problem: { kind: 'invalid', message: `Unknown command ${String(command)}`, code: 'UNKNOWN_COMMAND' } };
  if (!reply.ok) return reply as Reply<never>;
  const parsed = spec.result.safeParse(reply.value);
  if (!parsed.success)
    return { ok: false, problem: { kind: 'permanent', message: `The terminal sent an unreadable answer to ${command}`, code: 'UNREADABLE_ANSWER', values: { command } } };
  return { ok: true, value: parsed.data } as never;
}

/** An event's body that passed the event's schema, or undefined (dropped). */
export function parseEvent<E extends EventName>(event: E, body: unknown): EventBody<E> | undefined {
  const parsed = EVENTS[event].safeParse(body);
  return parsed.success ? (parsed.data as EventBody<E>) : undefined;
}

/** Builds the renderer's API over a transport; results and events are validated on arrival too. */
export function createApi(transport: Transport): PackdeskApi {
  return {
    async invoke(command, payload) {
      if (!COMMANDS[command]) return parseReply(command, { ok: true, value: undefined });
      return parseReply(command, await transport.invoke(command, payload));
    },
    on(event, listener) {
      return transport.subscribe(event, (body) => {
        const parsed = parseEvent(event, body);
        if (parsed !== undefined) listener(parsed);
      });
    },
  };
}

/** Checks a command name from outside (IPC channel, WebSocket frame). */
export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(COMMANDS, name);
}

/** Checks an event name from outside (IPC channel, WebSocket frame). */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(EVENTS, name);
}

/** Every command name, in contract order. */
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];
/** Every event name, in contract order. */
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

// ---- Electron IPC channels -------------------------------------------------------------------
// Built only from the contract's names, so no channel outside the contract can be reached
// through the preload; src/main/ipc.ts and the preload both use these.

/** The IPC channel prefix used by the Electron shell. */
export const IPC_CHANNEL_PREFIX = 'packdesk:';

/** The ipcMain.handle channel of a command: `packdesk:orders.list`. */
export function commandChannel(command: CommandName): string {
  return `${IPC_CHANNEL_PREFIX}${command}`;
}

/**
 * The webContents.send channel of an event: `packdesk:event:sync.status`. Kept apart from the
 * command channels because some events share a name with a command (`sync.status`).
 */
export function eventChannel(event: EventName): string {
  return `${IPC_CHANNEL_PREFIX}event:${event}`;
}
