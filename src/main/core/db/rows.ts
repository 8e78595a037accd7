/**
 * Rows as they come out of SQLite, parsed with zod: a JSON column is outside data like any other,
 * and a row that does not parse is reported, never trusted.
 */
import { z } from 'zod';
import { ActionSchema, describeZodError, FulfillmentSchema, type Action, type Order, OrderSchema } from '../../../shared/protocol';
import type { StepFacts } from '../../../shared/fulfilment';
import { builtOnce } from '../../../shared/on-first-use';
import { EntryStateSchema, ProblemSchema, type EntryState } from '../../../shared/ipc';
import { ProblemError, type Problem } from '../../../shared/result';

/** A JSON text column piped into a schema. */
export function jsonColumn<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

const Int = z.number().int();
const Flag = Int.transform((n) => n !== 0);

const ActionColumn = jsonColumn(ActionSchema);
/**
 * Parsed actions kept, by their exact stored text (the same bytes always give the same validated,
 * frozen action). Most taps share a few texts (a state's update); cuts, cancellations and invoice
 * numbers make the rest distinct, so a larger cache only fills with texts never read again: 4,096
 * held 0.7 MB after a compressed busy hour (issue 41) where the waiting taps use a few hundred.
 */
export const ACTION_CACHE_SIZE = 512;
const actions = new Map<string, Action>();

/**
 * Lets every parsed action go: in a quiet spell after a busy one (host/heap-trim.ts), when the taps
 * they served have been sent. The next read parses its few again.
 */
export function forgetParsedActions(): void {
  actions.clear();
}

/** How many parsed actions are kept now (at most ACTION_CACHE_SIZE): for Engine.held(). */
export function parsedActionsKept(): number {
  return actions.size;
}

/** Parses a stored action, remembering recent ones (every tap re-reads its order's waiting taps). */
function parseAction(text: string, ctx: z.RefinementCtx): Action {
  const hit = actions.get(text);
  if (hit) return hit;
  const parsed = ActionColumn.safeParse(text);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: `action: ${describeZodError(parsed.error)}` });
    return z.NEVER;
  }
  const action = deepFreeze(parsed.data);
  actions.set(text, action);
  if (actions.size > ACTION_CACHE_SIZE) actions.delete(actions.keys().next().value as string);
  return action;
}

const EntryRowSchema = z.object({
  id: Int,
  request_id: z.string().min(1),
  order_id: z.string().min(1),
  seq: Int,
  action: z.string().transform(parseAction),
  state: EntryStateSchema,
  created_at: Int,
  send_after: Int,
  attempts: Int,
  next_attempt_at: Int.nullable(),
  last_error: jsonColumn(ProblemSchema).nullable(),
  may_be_applied: Flag,
  no_answer_before: Flag,
  sent_at: Int.nullable(),
  awaiting_refresh: Flag,
  updated_at: Int,
  terminal_id: z.string(),
  // Absent in rows read by a SELECT of older columns (salvage of a file before schema 10).
  packer: z.string().nullable().optional(),
  units_before: Int.nullable().optional(),
  // Absent before schema 15 (salvage of an older file).
  hub_unchecked: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullable().optional(),
  hub_seen: jsonColumn(z.array(z.string())).nullable().optional(),
});

/** One outbox entry, typed. */
export interface EntryRow {
  readonly id: number;
  readonly requestId: string;
  readonly orderId: string;
  readonly seq: number;
  readonly action: Action;
  readonly state: EntryState;
  readonly createdAt: number;
  readonly sendAfter: number;
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly lastError: Problem | null;
  readonly mayBeApplied: boolean;
  readonly noAnswerBefore: boolean;
  readonly sentAt: number | null;
  readonly awaitingRefresh: boolean;
  readonly updatedAt: number;
  readonly terminalId: string;
  /** Who made the tap: the packer signed in at the counter, or null (nobody signed in, or the CLI). */
  readonly packer: string | null;
  /** A unit cut's count of its item before the cut; null for other taps. */
  readonly unitsBefore: number | null;
  /** With a store hub: 0 checked, 1 made unchecked and not yet looked at with the hub back, 2 looked at; null: no hub. */
  readonly hubUnchecked: 0 | 1 | 2 | null;
  /** With a store hub: the other counters' taps on the order heard of when this one was made; null: no hub. */
  readonly hubSeen: readonly string[] | null;
}

/**
 * The part of an outbox entry that shapes its order's projection and decides a new tap: what a tap
 * reads of its order's waiting entries (SHAPING_ENTRY_COLUMNS). A third of the columns: reading
 * and parsing whole rows was a third of a tap's own work.
 */
export type ShapingEntry = Pick<EntryRow, 'id' | 'seq' | 'state' | 'action' | 'awaitingRefresh'>;

/** The columns `parseShapingEntry` reads. */
export const SHAPING_ENTRY_COLUMNS = 'id, seq, state, action, awaiting_refresh';

const ShapingEntrySchema = EntryRowSchema.pick({ id: true, seq: true, state: true, action: true, awaiting_refresh: true });

/** Parses an outbox row read with SHAPING_ENTRY_COLUMNS; a row that does not parse is a damaged store. */
export function parseShapingEntry(raw: unknown): ShapingEntry {
  const r = parsedOrThrow(ShapingEntrySchema, raw, 'Outbox entry');
  return { id: r.id, seq: r.seq, state: r.state, action: r.action, awaitingRefresh: r.awaiting_refresh };
}

const CutRowSchema = EntryRowSchema.pick({ action: true }).extend({ units_before: Int.nonnegative() });

/** Parses a unit cut's action and its count before (outbox-table cutsForOrder); a row that does not parse is a damaged store. */
export function parseCutRow(raw: unknown): { action: Action; units_before: number } {
  return parsedOrThrow(CutRowSchema, raw, 'Outbox entry');
}

/** Parses an outbox row; a row that does not parse is a damaged store, reported loudly. */
export function parseEntryRow(raw: unknown): EntryRow {
  const r = parsedOrThrow(EntryRowSchema, raw, 'Outbox entry');
  return {
    id: r.id,
    requestId: r.request_id,
    orderId: r.order_id,
    seq: r.seq,
    action: r.action,
    state: r.state,
    createdAt: r.created_at,
    sendAfter: r.send_after,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    mayBeApplied: r.may_be_applied,
    noAnswerBefore: r.no_answer_before,
    sentAt: r.sent_at,
    awaitingRefresh: r.awaiting_refresh,
    updatedAt: r.updated_at,
    terminalId: r.terminal_id,
    packer: r.packer ?? null,
    unitsBefore: r.units_before ?? null,
    hubUnchecked: r.hub_unchecked ?? null,
    hubSeen: r.hub_seen ?? null,
  };
}

const OrderRowSchema = z.object({
  id: z.string().min(1),
  body: z.string().nullable(),
  synced_at: Int.nullable(),
  added_at: Int,
  needs_refresh: Flag,
  raw_unreadable: z.string().nullable(),
});

const OrderBodySchema = jsonColumn(OrderSchema);

/** One cached order, typed. `body` (deep-frozen) is null until the service answered, or when the stored body is unreadable. */
export interface OrderRow {
  readonly id: string;
  readonly body: Order | null;
  /** The stored body exists but does not parse: shown as needing a refresh. */
  readonly bodyUnreadable: boolean;
  readonly syncedAt: number | null;
  readonly addedAt: number;
  readonly needsRefresh: boolean;
  readonly rawUnreadable: string | null;
}

/** Parses a stored order body; null when it does not parse. */
export function parseOrderBody(text: string): Order | null {
  const b = OrderBodySchema.safeParse(text);
  return b.success ? deepFreeze(b.data) : null;
}

// The fields of a body the next-step rule reads, checked by the very schemas a whole body is: any
// body that parses whole gives the same values here (not the other way round: the rest is unchecked).
// Built on first use: only a finished-orders search reads it, never a start.
const stepFactsColumn = builtOnce(() =>
  jsonColumn(
    z.object({
      orderState: OrderSchema.shape.orderState,
      // Its other fields left out (a fulfilment's schema keeps fields it does not name).
      fulfillments: z.array(z.object(FulfillmentSchema.pick({ fulfillmentId: true, type: true, fulfillmentState: true }).shape)),
    }),
  ),
);

/**
 * What nextStep reads of a stored order body, without checking (or copying) the rest of it, which
 * is most of the cost of reading a body; null when even these fields do not parse.
 */
export function parseStepFacts(text: string): StepFacts | null {
  const b = stepFactsColumn().safeParse(text);
  return b.success ? b.data : null;
}

/** Freezes a parsed value all the way down, so a cached value can be shared and never changed by a reader. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Parses a whole orders row, body text included (salvage reads them so); an unreadable body
 * degrades to "unknown, needs refresh" rather than failing.
 */
export function parseOrderRow(raw: unknown): OrderRow {
  const r = parsedOrThrow(OrderRowSchema, raw, 'Order');
  return orderRowFrom(r, r.body === null ? null : parseOrderBody(r.body), r.body !== null);
}

/** An orders row read without its body's text: whether it has one, and which write of it is stored. */
const OrderListingSchema = OrderRowSchema.omit({ body: true }).extend({
  has_body: Flag,
  body_rev: Int.nullable(),
});

/**
 * Parses an orders row read without its body's text (`ORDERS_LISTING_COLUMNS`); `bodyFor` gives
 * the parsed body of that revision, from a cache or by reading it.
 */
export function parseOrderListing(raw: unknown, bodyFor: (id: string, rev: number) => Order | null): OrderRow {
  const r = parsedOrThrow(OrderListingSchema, raw, 'Order');
  return orderRowFrom(r, r.has_body ? bodyFor(r.id, r.body_rev ?? 0) : null, r.has_body);
}

/** The columns `parseOrderListing` reads. */
export const ORDERS_LISTING_COLUMNS = 'id, body IS NOT NULL AS has_body, body_rev, synced_at, added_at, needs_refresh, raw_unreadable';

/** `raw` parsed with `schema`; a row that does not parse is a damaged store, reported loudly with its kind (`what`) and id. */
function parsedOrThrow<T extends z.ZodType>(schema: T, raw: unknown, what: 'Order' | 'Outbox entry'): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const id = (raw as { id?: unknown } | undefined)?.id;
  throw new ProblemError({
    kind: 'permanent',
    code: 'STORE_ROW_UNREADABLE',
    message: `${what} ${String(id)} in the data file cannot be read (${describeZodError(parsed.error)}); call support`,
  });
}

function orderRowFrom(
  r: { id: string; synced_at: number | null; added_at: number; needs_refresh: boolean; raw_unreadable: string | null },
  body: Order | null,
  hasBody: boolean,
): OrderRow {
  const bodyUnreadable = hasBody && body === null;
  return {
    id: r.id,
    body,
    bodyUnreadable,
    syncedAt: r.synced_at,
    addedAt: r.added_at,
    needsRefresh: r.needs_refresh || bodyUnreadable,
    rawUnreadable: r.raw_unreadable,
  };
}

export const AUDIT_KINDS = ['tap', 'attempt', 'undo', 'retry', 'discard', 'recover'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

const AuditRowSchema = z.object({
  id: Int,
  time: Int,
  terminal: z.string(),
  kind: z.enum(AUDIT_KINDS),
  entry_id: Int.nullable(),
  order_id: z.string().nullable(),
  outcome: z.string(),
  message: z.string().nullable(),
  packer: z.string().nullable().optional(),
});

/** One audit line: every tap and every send attempt, with its outcome. */
export interface AuditRow {
  readonly id: number;
  readonly time: number;
  readonly terminal: string;
  readonly kind: AuditKind;
  readonly entryId: number | null;
  readonly orderId: string | null;
  readonly outcome: string;
  readonly message: string | null;
  /** Who made the move: the packer signed in then, or null (nobody, or no person: the sender itself). */
  readonly packer: string | null;
}

/** Parses an audit row. */
export function parseAuditRow(raw: unknown): AuditRow {
  const parsed = AuditRowSchema.safeParse(raw);
  if (!parsed.success)
    throw new ProblemError({
      kind: 'permanent',
      code: 'STORE_ROW_UNREADABLE',
      message: `An audit line in the data file cannot be read (${describeZodError(parsed.error)}); call support`,
    });
  const r = parsed.data;
  return {
    id: r.id,
    time: r.time,
    terminal: r.terminal,
    kind: r.kind,
    entryId: r.entry_id,
    orderId: r.order_id,
    outcome: r.outcome,
    message: r.message,
    packer: r.packer ?? null,
  };
}
