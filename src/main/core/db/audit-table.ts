/**
 * SQL for the audit log: what happens to taps after they are queued (attempts, undo, retry,
 * discard, recovery) and taps refused, with time, terminal and outcome. A queued tap's own record
 * is its outbox row (created_at, terminal_id, action).
 */
import type { Database } from 'better-sqlite3';
import { secrets } from '../log';
import { type AuditKind, type AuditRow, parseAuditRow } from './rows';

/** One audit line to write. */
export interface AuditLine {
  readonly time: number;
  readonly terminal: string;
  readonly kind: AuditKind;
  readonly entryId?: number | null;
  readonly orderId?: string | null;
  readonly outcome: string;
  readonly message?: string | null;
  /** The packer signed in when a person made this move; null or absent: nobody, or the sender itself. */
  readonly packer?: string | null;
}

export type AuditTable = ReturnType<typeof createAuditTable>;

/** Prepared statements for the audit log, wrapped in typed functions. */
export function createAuditTable(db: Database) {
  const s = {
    add: db.prepare(
      `INSERT INTO audit (time, terminal, kind, entry_id, order_id, outcome, message, packer)
       VALUES (@time, @terminal, @kind, @entryId, @orderId, @outcome, @message, @packer)`,
    ),
    recent: db.prepare(`SELECT * FROM (SELECT * FROM audit ORDER BY id DESC LIMIT ?) ORDER BY id`),
    lastOutcome: db.prepare(`SELECT * FROM audit WHERE kind = ? AND outcome = ? ORDER BY id DESC LIMIT 1`),
    forEntry: db.prepare(`SELECT * FROM audit WHERE entry_id = ? ORDER BY id`),
    // Two subqueries: SQLite reads MIN or MAX off the end of the table only when it is the query's
    // one aggregate; both in one SELECT walked every line (44 ms at 600,000 lines, on every start).
    bounds: db.prepare(`SELECT (SELECT MIN(id) FROM audit) AS lo, (SELECT MAX(id) FROM audit) AS hi`),
    timeAtOrAfter: db.prepare(`SELECT id, time FROM audit WHERE id >= ? ORDER BY id LIMIT 1`),
    pruneUpTo: db.prepare(`DELETE FROM audit WHERE id <= ?`),
  };
  return {
    /** Appends a line; messages are outside text, so known secrets are masked first. */
    add(line: AuditLine): void {
      s.add.run({
        time: line.time,
        terminal: line.terminal,
        kind: line.kind,
        entryId: line.entryId ?? null,
        orderId: line.orderId ?? null,
        outcome: line.outcome,
        message: line.message == null ? null : secrets.redactText(line.message),
        packer: line.packer ?? null,
      });
    },
    recent(limit: number): AuditRow[] {
      return s.recent.all(limit).map(parseAuditRow);
    },
    forEntry(entryId: number): AuditRow[] {
      return s.forEntry.all(entryId).map(parseAuditRow);
    },
    /** The latest line of a kind with an outcome, or null (a scan: for health checks, not the tap path). */
    lastOutcome(kind: AuditKind, outcome: string): AuditRow | null {
      const row = s.lastOutcome.get(kind, outcome);
      return row === undefined ? null : parseAuditRow(row);
    },
    /**
     * Drops lines older than `before` (epoch ms); returns how many. Lines are appended in time order,
     * so the cut is found by bisecting ids (a clock set back now and then only moves it a little).
     */
    prune(before: number): number {
      const b = s.bounds.get() as { lo: number | null; hi: number | null };
      if (b.lo === null || b.hi === null) return 0;
      let lo = b.lo;
      let hi = b.hi + 1; // first id whose line is not older than `before`
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        const row = s.timeAtOrAfter.get(mid) as { id: number; time: number } | undefined;
        if (!row) hi = mid;
        else if (row.time < before) lo = row.id + 1;
        else hi = mid;
      }
      return lo > b.lo ? s.pruneUpTo.run(lo - 1).changes : 0;
    },
  };
}
