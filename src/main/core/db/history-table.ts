/**
 * SQL for what happened on this terminal, read back: a day's taps and orders for the shift's
 * figures, an order's timeline (its taps, audit lines, alarm and prints), prints recorded, and the
 * daily figures kept once the rows behind them are pruned. Rules live in core/shift.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import { type Action, ActionSchema, describeZodError } from '../../../shared/protocol';
import { EntryStateSchema, type EntryState } from '../../../shared/ipc';
import { ProblemError } from '../../../shared/result';
import { type AuditRow, jsonColumn, parseAuditRow } from './rows';

/** Who made a tap or an audit line: the packer's name once rows carry one (issue 24 part 1), else null (the counter stands in). */
export function packerOf(row: { readonly packer?: unknown }): string | null {
  return typeof row.packer === 'string' && row.packer.trim() !== '' ? row.packer : null;
}

/** One tap as history reads it. */
export interface HistoryTap {
  readonly id: number;
  readonly orderId: string;
  readonly action: Action;
  readonly state: EntryState;
  readonly createdAt: number;
  /** When the service confirmed it (a readable or unreadable 2xx), or null. */
  readonly sentAt: number | null;
  readonly terminal: string;
  readonly packer: string | null;
  /** The code of its last refusal or problem, when it has one (DONE_ELSEWHERE, a service code). */
  readonly problemCode: string | null;
}

/** The moments of an order a shift's figures count. */
export type Moment = 'accept' | 'cancel' | 'packed' | 'handedOver';

/** A tap as a day's figures read it: one of the moments they count, made here and not taken back. */
export interface DayTap {
  readonly id: number;
  readonly orderId: string;
  readonly moment: Moment;
  readonly createdAt: number;
  readonly terminal: string;
  readonly packer: string | null;
}

/** What a day's figures need of an order: when it arrived, its state, its promised PACKED time. */
export interface HistoryOrder {
  readonly id: string;
  readonly addedAt: number;
  /** The order's state in the service's latest answer, or null (no body: not answered yet, or retired). */
  readonly orderState: string | null;
  /** The service's updatedAt of that answer (epoch ms), or null. */
  readonly updatedAt: number | null;
  /** When the STORE fulfilment's PACKED state was promised (epoch ms), or null. */
  readonly promisedPackedAt: number | null;
  /** Taken off the terminal (finished, or removed by a packer). */
  readonly removedAt: number | null;
}

/** One print recorded. */
export interface PrintRow {
  readonly orderId: string;
  readonly document: 'packingSlip' | 'pickList';
  readonly time: number;
  readonly terminal: string;
  readonly outcome: string;
}

const Int = z.number().int();

const tapRowSchema = builtOnce(() => z.looseObject({
  id: Int,
  order_id: z.string().min(1),
  action: z.string(),
  state: EntryStateSchema,
  created_at: Int,
  sent_at: Int.nullable(),
  terminal_id: z.string(),
  last_error: z.string().nullable(),
}));

const actionTextSchema = builtOnce(() => jsonColumn(ActionSchema));

const dayTapRowSchema = builtOnce(() => z.object({
  id: Int,
  order_id: z.string().min(1),
  moment: z.enum(['accept', 'cancel', 'packed', 'handedOver']),
  created_at: Int,
  terminal_id: z.string(),
  packer: z.string().nullable(),
}));

const momentRowSchema = builtOnce(() => z.object({
  request_id: z.string(),
  order_id: z.string().min(1),
  created_at: Int,
  packer: z.string().nullable(),
  state: EntryStateSchema,
  moment: z.enum(['accept', 'cancel', 'packed', 'handedOver']),
}));
/** The states in which a tap counts in the figures: made here and not taken back. */
export const COUNTED: ReadonlySet<EntryState> = new Set<EntryState>(['queued', 'sending', 'sent']);

function parseDayTap(raw: unknown): DayTap {
  const r = dayTapRowSchema().safeParse(raw);
  if (!r.success) throw unreadable('A tap', r.error);
  return { id: r.data.id, orderId: r.data.order_id, moment: r.data.moment, createdAt: r.data.created_at, terminal: r.data.terminal_id, packer: packerOf(r.data) };
}

// Which moment a tap's action is, worked out by SQLite from the action's JSON (12,000 actions
// parsed in JS were most of a busy day's report).
const MOMENT = `CASE json_extract(action, '$.type')
  WHEN 'ORDER_STATE_UPDATE' THEN CASE upper(json_extract(action, '$.orderState')) WHEN 'ACCEPTED' THEN 'accept' WHEN 'CANCELLED' THEN 'cancel' END
  WHEN 'ORDER_FULFILMENT_STATE_UPDATE' THEN CASE upper(json_extract(action, '$.fulfillmentState')) WHEN 'PACKED' THEN 'packed' WHEN 'OUT_FOR_DELIVERY' THEN 'handedOver' END
END`;

const problemCodeSchema = builtOnce(() => z.looseObject({ code: z.string().optional() }));

const orderFactsRowSchema = builtOnce(() => z.object({
  id: z.string().min(1),
  added_at: Int,
  order_state: z.string().nullable(),
  updated_at: z.union([z.string(), z.number()]).nullable(),
  promised: z.number().nullable(),
  removed_at: Int.nullable(),
}));

const printRowSchema = builtOnce(() => z.object({
  order_id: z.string(),
  document: z.enum(['packingSlip', 'pickList']),
  time: Int,
  terminal: z.string(),
  outcome: z.string(),
}));

function unreadable(what: string, error: z.ZodError): ProblemError {
  return new ProblemError({
    kind: 'permanent',
    code: 'STORE_ROW_UNREADABLE',
    message: `${what} in the data file cannot be read (${describeZodError(error)}); call support`,
  });
}

function parseTap(raw: unknown): HistoryTap {
  const r = tapRowSchema().safeParse(raw);
  if (!r.success) throw unreadable('A tap', r.error);
  const action = actionTextSchema().safeParse(r.data.action);
  if (!action.success) throw unreadable(`Tap ${r.data.id}`, action.error);
  let problemCode: string | null = null;
  if (r.data.last_error !== null) {
    try {
      problemCode = problemCodeSchema().parse(JSON.parse(r.data.last_error)).code ?? null;
    } catch {
      problemCode = null;
    }
  }
  return {
    id: r.data.id,
    orderId: r.data.order_id,
    action: action.data,
    state: r.data.state,
    createdAt: r.data.created_at,
    sentAt: r.data.sent_at,
    terminal: r.data.terminal_id,
    packer: packerOf(raw as { packer?: unknown }),
    problemCode,
  };
}

/** An ISO text or epoch ms as epoch ms; null when unreadable. */
function epochOf(value: string | number | null): number | null {
  if (value === null) return null;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

function parseOrderFacts(raw: unknown): HistoryOrder {
  const r = orderFactsRowSchema().safeParse(raw);
  if (!r.success) throw unreadable('An order', r.error);
  return {
    id: r.data.id,
    addedAt: r.data.added_at,
    orderState: r.data.order_state,
    updatedAt: epochOf(r.data.updated_at),
    promisedPackedAt: r.data.promised,
    removedAt: r.data.removed_at,
  };
}

// The few facts of a body the figures need, read by SQLite (no 4 kB body crosses into JS).
const BODY = `CASE WHEN json_valid(o.body) THEN o.body END`;
const ORDER_FACTS = `o.id, o.added_at, o.removed_at,
  json_extract(${BODY}, '$.orderState') AS order_state,
  json_extract(${BODY}, '$.updatedAt') AS updated_at,
  (SELECT json_extract(f.value, '$.fulfilmentStatusHistory.PACKED.promised.endTime') FROM json_each(${BODY}, '$.fulfillments') f
     WHERE upper(json_extract(f.value, '$.type')) = 'STORE' LIMIT 1) AS promised`;

/**
 * The first id in [lo, hiExclusive) whose row's time is at or after `time`, in a table whose ids
 * grow with time (a clock set back now and then only moves the answer a little); `rowAt` reads the
 * first row at or after an id.
 */
function firstAtOrAfter(time: number, lo: number, hiExclusive: number, rowAt: (id: number) => { id: number; time: number } | undefined): number {
  let a = lo;
  let b = hiExclusive;
  while (a < b) {
    const mid = Math.floor((a + b) / 2);
    const row = rowAt(mid);
    if (!row) b = mid;
    else if (row.time < time) a = row.id + 1;
    else b = mid;
  }
  return a;
}

export type HistoryTable = ReturnType<typeof createHistoryTable>;

/** Prepared statements for reading history back, wrapped in typed functions. */
export function createHistoryTable(db: Database) {
  // Who made a tap, once outbox rows carry a packer's name (a later migration); NULL until then.
  const hasPacker = db.prepare(`SELECT 1 FROM pragma_table_info('outbox') WHERE name = 'packer'`).get() !== undefined;
  const packerColumn = hasPacker ? 'packer' : 'NULL';
  const s = {
    bounds: db.prepare(`SELECT (SELECT MIN(id) FROM outbox) AS lo, (SELECT MAX(id) FROM outbox) AS hi`),
    createdAtOrAfter: db.prepare(`SELECT id, created_at FROM outbox WHERE id >= ? ORDER BY id LIMIT 1`),
    // The counted taps (made here, not taken back) of the orders tapped in the id range, all of
    // them: an order packed today may have been accepted yesterday. On the (order_id, seq) index.
    tapsOfTouched: db.prepare(
      `SELECT * FROM (
         SELECT id, order_id, created_at, terminal_id, ${packerColumn} AS packer, ${MOMENT} AS moment FROM outbox
         WHERE order_id IN (SELECT order_id FROM outbox WHERE id >= @lo AND id < @hi) AND state IN ('queued', 'sending', 'sent'))
       WHERE moment IS NOT NULL ORDER BY created_at, id`,
    ),
    // The ids first, then each order's facts once: a UNION of the facts read every body of the day
    // twice (an order that arrived today is tapped today too), and reading bodies is most of the cost.
    ordersOfDay: db.prepare(
      `SELECT ${ORDER_FACTS} FROM orders o WHERE o.id IN (
         SELECT id FROM orders WHERE added_at >= @from AND added_at < @to
         UNION
         SELECT order_id FROM outbox WHERE id >= @lo AND id < @hi)`,
    ),
    // Other counters' counted taps (store hub) of the orders any counter tapped in [from, to), all of them.
    storeTapsOfTouched: db.prepare(
      `SELECT 0 AS id, order_id, created_at, counter_name AS terminal_id, packer, moment FROM store_taps
       WHERE counted = 1 AND order_id IN (
         SELECT order_id FROM store_taps WHERE created_at >= @from AND created_at < @to
         UNION SELECT order_id FROM outbox WHERE id >= @lo AND id < @hi)
       ORDER BY created_at`,
    ),
    // This counter's taps of the shift's moments since an id, whatever became of them (the store hub's record of them).
    momentsSince: db.prepare(
      `SELECT * FROM (SELECT request_id, order_id, created_at, ${packerColumn} AS packer, state, ${MOMENT} AS moment FROM outbox WHERE id >= ?)
       WHERE moment IS NOT NULL ORDER BY created_at`,
    ),
    ordersOfStoreTaps: db.prepare(
      `SELECT ${ORDER_FACTS} FROM orders o WHERE o.id IN (SELECT order_id FROM store_taps WHERE created_at >= @from AND created_at < @to)`,
    ),
    oldestTapAt: db.prepare(`SELECT created_at FROM outbox WHERE id = (SELECT MIN(id) FROM outbox)`).pluck(),
    oldestOrderAt: db.prepare(`SELECT MIN(added_at) FROM orders`).pluck(),
    orderFacts: db.prepare(`SELECT ${ORDER_FACTS} FROM orders o WHERE o.id = ?`),
    tapsOfOrder: db.prepare(`SELECT * FROM outbox WHERE order_id = ? ORDER BY seq`),
    // The audit has no index by order (one more page per line written): its lines are walked from
    // the first one at or after the order's first moment, as ids grow with time.
    auditBounds: db.prepare(`SELECT (SELECT MIN(id) FROM audit) AS lo, (SELECT MAX(id) FROM audit) AS hi`),
    auditTimeAtOrAfter: db.prepare(`SELECT id, time FROM audit WHERE id >= ? ORDER BY id LIMIT 1`),
    auditOfOrder: db.prepare(`SELECT * FROM audit WHERE id >= ? AND order_id = ? ORDER BY id`),
    alarmOfOrder: db.prepare(`SELECT kind, changed_at, raised_at, acknowledged_at FROM order_alarms WHERE order_id = ?`),
    addPrint: db.prepare(
      `INSERT INTO prints (order_id, document, time, terminal, outcome) VALUES (@orderId, @document, @time, @terminal, @outcome)`,
    ),
    printsOfOrder: db.prepare(`SELECT order_id, document, time, terminal, outcome FROM prints WHERE order_id = ? ORDER BY id`),
    prunePrints: db.prepare(`DELETE FROM prints WHERE time < ?`),
    // A month's kept days (core/shift/kept.ts), a row a month and counter; last_day only grows.
    putMonth: db.prepare(
      `INSERT INTO figures_by_month (month, terminal, figures, last_day, written_at) VALUES (@month, @terminal, @figures, @lastDay, @writtenAt)
       ON CONFLICT (month, terminal) DO UPDATE SET figures = excluded.figures, last_day = max(last_day, excluded.last_day), written_at = excluded.written_at`,
    ),
    getMonth: db.prepare(`SELECT figures FROM figures_by_month WHERE month = ? AND terminal = ?`).pluck(),
    lastDay: db.prepare(`SELECT MAX(last_day) FROM figures_by_month WHERE terminal = ?`).pluck(),
    // Months kept as JSON text before migration 14: the table is a row a month, read whole.
    textMonths: db.prepare(`SELECT month, figures FROM figures_by_month WHERE terminal = ? AND typeof(figures) = 'text' ORDER BY month LIMIT ?`),
    recodeMonth: db.prepare(`UPDATE figures_by_month SET figures = @figures WHERE month = @month AND terminal = @terminal`),
  };

  /** The first outbox id whose tap was made at or after `time` (ids grow with time: bisected, no index on time). */
  const firstIdAtOrAfter = (time: number, lo: number, hiExclusive: number): number =>
    firstAtOrAfter(time, lo, hiExclusive, (id) => {
      const row = s.createdAtOrAfter.get(id) as { id: number; created_at: number } | undefined;
      return row && { id: row.id, time: row.created_at };
    });

  /** The first audit id whose line was written at or after `time`. */
  const firstAuditAtOrAfter = (time: number): number => {
    const b = s.auditBounds.get() as { lo: number | null; hi: number | null };
    if (b.lo === null || b.hi === null) return 0;
    return firstAtOrAfter(time, b.lo, b.hi + 1, (id) => s.auditTimeAtOrAfter.get(id) as { id: number; time: number } | undefined);
  };

  return {
    /** The counted taps of every order tapped in [from, to), with each such order's other counted taps, and the orders that arrived or were tapped then. */
    day(from: number, to: number): { taps: DayTap[]; orders: HistoryOrder[] } {
      const b = s.bounds.get() as { lo: number | null; hi: number | null };
      let lo = 0;
      let hi = 0;
      if (b.lo !== null && b.hi !== null) {
        lo = firstIdAtOrAfter(from, b.lo, b.hi + 1);
        hi = firstIdAtOrAfter(to, lo, b.hi + 1);
      }
      const own = lo < hi ? s.tapsOfTouched.all({ lo, hi }).map(parseDayTap) : [];
      const orders = s.ordersOfDay.all({ from, to, lo, hi }).map(parseOrderFacts);
      // With a store hub, the other counters' taps too: the figures are the store's.
      const others = s.storeTapsOfTouched.all({ from, to, lo, hi }).map(parseDayTap);
      if (others.length === 0) return { taps: own, orders };
      const known = new Set(orders.map((o) => o.id));
      for (const raw of s.ordersOfStoreTaps.all({ from, to })) {
        const o = parseOrderFacts(raw);
        if (!known.has(o.id)) orders.push(o);
      }
      const taps = [...own, ...others].sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
      return { taps, orders };
    },
    /** This counter's taps of the shift's moments made at or after `since`, and whether each still counts (queued, being sent or sent). */
    momentsSince(since: number): { requestId: string; orderId: string; createdAt: number; packer: string | null; moment: Moment; counted: boolean }[] {
      const b = s.bounds.get() as { lo: number | null; hi: number | null };
      if (b.lo === null || b.hi === null) return [];
      const lo = firstIdAtOrAfter(since, b.lo, b.hi + 1);
      return s.momentsSince.all(lo).map((raw) => {
        const r = momentRowSchema().parse(raw);
        return { requestId: r.request_id, orderId: r.order_id, createdAt: r.created_at, packer: packerOf(r), moment: r.moment, counted: COUNTED.has(r.state) };
      });
    },
    /** When the oldest record still kept was made (a tap or an order's arrival), or null on an empty file. */
    oldestAt(): number | null {
      const tap = s.oldestTapAt.get() as number | undefined;
      const order = s.oldestOrderAt.get() as number | null | undefined;
      const all = [tap, order].filter((t): t is number => typeof t === 'number');
      return all.length ? Math.min(...all) : null;
    },
    /** An order's own records for its timeline; null when the terminal never had it. */
    order(orderId: string): {
      facts: HistoryOrder;
      taps: HistoryTap[];
      audit: (AuditRow & { packer: string | null })[];
      alarm: { kind: string; changedAt: number; raisedAt: number; acknowledgedAt: number | null } | null;
      prints: PrintRow[];
    } | null {
      const facts = s.orderFacts.get(orderId);
      if (facts === undefined) return null;
      const alarm = s.alarmOfOrder.get(orderId) as
        | { kind: string; changed_at: number; raised_at: number; acknowledged_at: number | null }
        | undefined;
      const parsed = parseOrderFacts(facts);
      const taps = s.tapsOfOrder.all(orderId).map(parseTap);
      // A clock set back a little moves a line's time before its neighbours': a minute's margin.
      const since = Math.min(parsed.addedAt, ...taps.map((t) => t.createdAt)) - 60_000;
      return {
        facts: parsed,
        taps,
        audit: s.auditOfOrder.all(firstAuditAtOrAfter(since), orderId).map((raw) => ({ ...parseAuditRow(raw), packer: packerOf(raw as { packer?: unknown }) })),
        alarm: alarm ? { kind: alarm.kind, changedAt: alarm.changed_at, raisedAt: alarm.raised_at, acknowledgedAt: alarm.acknowledged_at } : null,
        prints: s.printsOfOrder.all(orderId).map((raw) => {
          const r = printRowSchema().safeParse(raw);
          if (!r.success) throw unreadable('A print record', r.error);
          return { orderId: r.data.order_id, document: r.data.document, time: r.data.time, terminal: r.data.terminal, outcome: r.data.outcome };
        }),
      };
    },
    addPrint(print: PrintRow): void {
      s.addPrint.run(print);
    },
    /** Drops print records older than `before`; returns how many. */
    prunePrints(before: number): number {
      return s.prunePrints.run(before).changes;
    },
    /** Keeps a month's days' figures (core/shift's kept form), `lastDay` the latest day written in it. */
    putMonth(month: string, terminal: string, figures: Uint8Array, lastDay: string, writtenAt: number): void {
      s.putMonth.run({ month, terminal, figures, lastDay, writtenAt });
    },
    /** A month's kept days as stored (compact bytes, or the JSON text of days kept before migration 14), or null. */
    getMonth(month: string, terminal: string): Uint8Array | string | null {
      return (s.getMonth.get(month, terminal) as Uint8Array | string | undefined) ?? null;
    },
    /** Up to `limit` of `terminal`'s months still kept as JSON text (the form before migration 14), oldest first. */
    textMonths(terminal: string, limit: number): { month: string; figures: string }[] {
      return (s.textMonths.all(terminal, limit) as { month: string; figures: string }[]).map((r) => ({ month: r.month, figures: r.figures }));
    },
    /** Rewrites a month's kept days in another form (the same figures; when they were kept stays as it was). */
    recodeMonth(month: string, terminal: string, figures: Uint8Array): void {
      s.recodeMonth.run({ month, terminal, figures });
    },
    /** The latest day whose figures are kept for `terminal`, or null. */
    lastDay(terminal: string): string | null {
      return (s.lastDay.get(terminal) as string | null | undefined) ?? null;
    },
  };
}
