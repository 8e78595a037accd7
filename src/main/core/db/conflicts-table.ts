/**
 * SQL for orders packed twice while counters could not see each other (issue 39): the record as
 * the store hub carries it, when this counter raised it, when a person here said the items are
 * back, and whether the hub holds this counter's latest word. Rules live in core/hub/conflicts.ts
 * and engine/conflicts.ts.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import { type ConflictRecord, conflictRecordSchema } from '../../../shared/hub';
import { jsonColumn } from './rows';

/** One conflict as kept here. */
export interface ConflictRow {
  readonly record: ConflictRecord;
  readonly raisedAt: number;
  readonly putBackAt: number | null;
  /** The hub holds this record as it is here. */
  readonly shared: boolean;
}

const rowSchema = builtOnce(() => z.object({
  record: jsonColumn(conflictRecordSchema()),
  raised_at: z.number().int(),
  put_back_at: z.number().int().nullable(),
  shared: z.number().int(),
}));

function parse(raw: unknown): ConflictRow | null {
  const r = rowSchema().safeParse(raw);
  return r.success ? { record: r.data.record, raisedAt: r.data.raised_at, putBackAt: r.data.put_back_at, shared: r.data.shared !== 0 } : null;
}

export type ConflictsTable = ReturnType<typeof createConflictsTable>;

/** Prepared statements for conflicts, wrapped in typed functions. */
export function createConflictsTable(db: Database) {
  const s = {
    get: db.prepare(`SELECT * FROM order_conflicts WHERE order_id = ?`),
    put: db.prepare(
      `INSERT INTO order_conflicts (order_id, record, raised_at, shared) VALUES (@orderId, @record, @raisedAt, @shared)
       ON CONFLICT (order_id) DO UPDATE SET record = excluded.record, shared = excluded.shared`,
    ),
    putBack: db.prepare(`UPDATE order_conflicts SET put_back_at = @at WHERE order_id = @orderId AND put_back_at IS NULL`),
    shared: db.prepare(`UPDATE order_conflicts SET shared = 1 WHERE order_id = @orderId AND record = @record`),
    // A handful at most: open ones, and those whose items wait to be put back.
    open: db.prepare(`SELECT * FROM order_conflicts WHERE json_extract(record, '$.settled') IS NULL OR put_back_at IS NULL`),
    unshared: db.prepare(`SELECT * FROM order_conflicts WHERE shared = 0`),
    raisedBetween: db.prepare(`SELECT * FROM order_conflicts WHERE raised_at >= ? AND raised_at < ?`),
  };
  const rows = (raw: unknown[]): ConflictRow[] => raw.flatMap((r) => parse(r) ?? []);
  return {
    get(orderId: string): ConflictRow | null {
      const raw = s.get.get(orderId);
      return raw === undefined ? null : parse(raw);
    },
    /** Writes an order's record (keeping when it was raised here and whether its items are back). */
    put(record: ConflictRecord, raisedAt: number, shared: boolean): void {
      s.put.run({ orderId: record.orderId, record: JSON.stringify(record), raisedAt, shared: shared ? 1 : 0 });
    },
    /** A person here said the items are back; false when that was said already. */
    putBack: (orderId: string, at: number): boolean => s.putBack.run({ orderId, at }).changes === 1,
    /** The hub took this record as written (unless it changed here meanwhile). */
    markShared: (record: ConflictRecord): void => void s.shared.run({ orderId: record.orderId, record: JSON.stringify(record) }),
    /** Conflicts not settled, or settled with items still to put back here (settled ones this counter kept are filtered by the caller). */
    open: (): ConflictRow[] => rows(s.open.all()),
    /** Records the hub does not hold as they are here. */
    unshared: (): ConflictRow[] => rows(s.unshared.all()),
    /** Conflicts raised here in [from, to). */
    raisedBetween: (from: number, to: number): ConflictRow[] => rows(s.raisedBetween.all(from, to)),
  };
}
