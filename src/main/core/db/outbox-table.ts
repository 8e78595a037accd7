/** SQL for the outbox table. Business rules live in core/outbox; this file only reads and writes rows. */
import type { Database } from 'better-sqlite3';
import type { Action } from '../../../shared/protocol';
import type { Problem } from '../../../shared/result';
import { secrets } from '../log';
import { type EntryRow, parseEntryRow } from './rows';

/** What enqueue writes for a new entry. */
export interface NewEntry {
  readonly requestId: string;
  readonly orderId: string;
  readonly action: Action;
  readonly createdAt: number;
  readonly sendAfter: number;
  readonly terminalId: string;
}

/** Counts for the sync status. */
export interface OutboxCounts {
  /** queued + sending */
  readonly waiting: number;
  readonly sending: number;
  /** failed, plain or "may already be applied" */
  readonly failed: number;
  readonly mayBeApplied: number;
  /** created_at of the oldest queued or sending entry */
  readonly oldestWaitingAt: number | null;
}

const PENDING = `state IN ('queued', 'sending', 'failed')`;
// An entry is the head of its order when no earlier entry of the order is still pending (walks the
// order's earlier entries on the (order_id, seq) index: a handful per order).
const IS_HEAD = `NOT EXISTS (SELECT 1 FROM outbox p WHERE p.order_id = o.order_id AND p.seq < o.seq AND p.${PENDING})`;

/** Problems are stored as JSON with any known secret masked (service messages are outside text). */
function problemJson(problem: Problem): string {
  return JSON.stringify({ ...problem, message: secrets.redactText(problem.message) });
}

export type OutboxTable = ReturnType<typeof createOutboxTable>;

/** Prepared statements for the outbox, wrapped in typed functions. */
export function createOutboxTable(db: Database) {
  const s = {
    insert: db.prepare(
      `INSERT INTO outbox (request_id, order_id, seq, action, state, created_at, send_after, attempts, updated_at, terminal_id)
       VALUES (@requestId, @orderId, (SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox WHERE order_id = @orderId),
               @action, 'queued', @createdAt, @sendAfter, 0, @createdAt, @terminalId)
       RETURNING id, seq`,
    ),
    get: db.prepare(`SELECT * FROM outbox WHERE id = ?`),
    forOrder: db.prepare(`SELECT * FROM outbox WHERE order_id = ? ORDER BY seq`),
    byRequestId: db.prepare(`SELECT * FROM outbox WHERE request_id = ?`),
    projectedForOrder: db.prepare(
      `SELECT * FROM outbox WHERE order_id = ? AND (${PENDING} OR awaiting_refresh = 1) ORDER BY seq`,
    ),
    // Two indexed halves instead of one OR, which would read the whole history; they never overlap.
    pendingByOrder: db.prepare(`SELECT * FROM outbox WHERE ${PENDING} ORDER BY order_id, seq`),
    awaitingByOrder: db.prepare(`SELECT * FROM outbox WHERE awaiting_refresh = 1 ORDER BY order_id, seq`),
    pending: db.prepare(`SELECT * FROM outbox WHERE ${PENDING} ORDER BY id LIMIT ?`),
    recent: db.prepare(`SELECT * FROM (SELECT * FROM outbox ORDER BY id DESC LIMIT ?) ORDER BY id`),
    dueHeads: db.prepare(
      `SELECT * FROM outbox o
       WHERE o.state = 'queued' AND o.send_after <= @now AND COALESCE(o.next_attempt_at, 0) <= @now AND ${IS_HEAD}
       ORDER BY o.created_at, o.id LIMIT @limit`,
    ),
    nextWakeAt: db.prepare(
      `SELECT MIN(MAX(o.send_after, COALESCE(o.next_attempt_at, 0))) AS t FROM outbox o WHERE o.state = 'queued' AND ${IS_HEAD}`,
    ),
    queuedHeldBehindFailure: db.prepare(
      `SELECT COUNT(*) AS n FROM outbox o
       WHERE o.state = 'queued'
         AND EXISTS (SELECT 1 FROM outbox f WHERE f.order_id = o.order_id AND f.seq < o.seq AND f.state = 'failed')`,
    ),
    counts: db.prepare(
      `SELECT
         COALESCE(SUM(state IN ('queued', 'sending')), 0) AS waiting,
         COALESCE(SUM(state = 'sending'), 0) AS sending,
         COALESCE(SUM(state = 'failed'), 0) AS failed,
         COALESCE(SUM(state = 'failed' AND may_be_applied = 1), 0) AS mayBeApplied,
         MIN(CASE WHEN state IN ('queued', 'sending') THEN created_at END) AS oldestWaitingAt
       FROM outbox WHERE ${PENDING}`,
    ),
    markSending: db.prepare(`UPDATE outbox SET state = 'sending', updated_at = @now WHERE id = @id AND state = 'queued'`),
    unclaim: db.prepare(`UPDATE outbox SET state = 'queued', updated_at = @now WHERE id = @id AND state = 'sending'`),
    markSent: db.prepare(
      `UPDATE outbox SET state = 'sent', attempts = attempts + 1, sent_at = @now, next_attempt_at = NULL,
         awaiting_refresh = @awaitingRefresh, last_error = @lastError, updated_at = @now
       WHERE id = @id RETURNING *`,
    ),
    clearAwaitingRefresh: db.prepare(`UPDATE outbox SET awaiting_refresh = 0 WHERE order_id = ? AND awaiting_refresh = 1`),
    requeueAfterAttempt: db.prepare(
      `UPDATE outbox SET state = 'queued', attempts = attempts + 1, next_attempt_at = @nextAttemptAt, last_error = @lastError,
         no_answer_before = MAX(no_answer_before, @noAnswer), updated_at = @now
       WHERE id = @id RETURNING *`,
    ),
    markFailed: db.prepare(
      `UPDATE outbox SET state = 'failed', attempts = attempts + 1, next_attempt_at = NULL, last_error = @lastError,
         may_be_applied = @mayBeApplied, updated_at = @now
       WHERE id = @id RETURNING *`,
    ),
    setState: db.prepare(
      `UPDATE outbox SET state = @to, next_attempt_at = @nextAttemptAt, updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    setStateWithError: db.prepare(
      `UPDATE outbox SET state = @to, next_attempt_at = NULL, last_error = @lastError, updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    retryFailed: db.prepare(
      `UPDATE outbox SET state = 'queued', next_attempt_at = NULL, may_be_applied = 0, updated_at = @now
       WHERE id = @id AND state = 'failed' RETURNING *`,
    ),
    sendNow: db.prepare(
      `UPDATE outbox SET next_attempt_at = NULL, send_after = MIN(send_after, @now), updated_at = @now
       WHERE id = @id AND state = 'queued' RETURNING *`,
    ),
    recoverSending: db.prepare(
      `UPDATE outbox SET state = 'queued', no_answer_before = 1, updated_at = ? WHERE state = 'sending' RETURNING *`,
    ),
    clearNetworkBackoff: db.prepare(
      `UPDATE outbox SET next_attempt_at = NULL, updated_at = @now
       WHERE state = 'queued' AND next_attempt_at > @now AND json_extract(last_error, '$.code') = 'NETWORK'
       RETURNING *`,
    ),
  };

  const rows = (raw: unknown[]): EntryRow[] => raw.map(parseEntryRow);
  const one = (raw: unknown): EntryRow | null => (raw === undefined ? null : parseEntryRow(raw));

  return {
    /** Inserts a new queued entry with the next per-order sequence number. */
    insert(entry: NewEntry): EntryRow {
      const r = s.insert.get({ ...entry, action: JSON.stringify(entry.action) }) as { id: unknown; seq: unknown };
      if (typeof r.id !== 'number' || typeof r.seq !== 'number') throw new Error('the new outbox row has no id');
      // Everything else is what was just written; no need to read it back.
      return {
        id: r.id,
        requestId: entry.requestId,
        orderId: entry.orderId,
        seq: r.seq,
        action: entry.action,
        state: 'queued',
        createdAt: entry.createdAt,
        sendAfter: entry.sendAfter,
        attempts: 0,
        nextAttemptAt: null,
        lastError: null,
        mayBeApplied: false,
        noAnswerBefore: false,
        sentAt: null,
        awaitingRefresh: false,
        updatedAt: entry.createdAt,
        terminalId: entry.terminalId,
      };
    },
    get(id: number): EntryRow | null {
      return one(s.get.get(id));
    },
    /** Every entry of an order, in any state, by seq. */
    forOrder(orderId: string): EntryRow[] {
      return rows(s.forOrder.all(orderId));
    },
    byRequestId(requestId: string): EntryRow | null {
      return one(s.byRequestId.get(requestId));
    },
    /** Entries that shape the projected order (pending, or sent with an unreadable answer), by seq. */
    projectedForOrder(orderId: string): EntryRow[] {
      return rows(s.projectedForOrder.all(orderId));
    },
    /** The same for every order, grouped by order then seq. */
    projectedAll(): EntryRow[] {
      const awaiting = rows(s.awaitingByOrder.all());
      const pending = rows(s.pendingByOrder.all());
      if (awaiting.length === 0) return pending;
      return [...pending, ...awaiting].sort((a, b) => (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : a.seq - b.seq));
    },
    /** Queued, sending and failed entries, oldest first. */
    pending(limit: number): EntryRow[] {
      return rows(s.pending.all(limit));
    },
    /** The latest `limit` entries of any state, oldest first. */
    recent(limit: number): EntryRow[] {
      return rows(s.recent.all(limit));
    },
    /** Queued entries that head their order and are due at `now`, oldest tap first. */
    dueHeads(now: number, limit: number): EntryRow[] {
      return rows(s.dueHeads.all({ now, limit }));
    },
    /** When the earliest queued head becomes due, or null when no order has a queued head. */
    nextWakeAt(): number | null {
      const r = s.nextWakeAt.get() as { t: number | null } | undefined;
      return typeof r?.t === 'number' ? r.t : null;
    },
    /** Queued entries held behind a failed entry of their order. */
    queuedHeldBehindFailure(): number {
      const r = s.queuedHeldBehindFailure.get() as { n: number };
      return r.n;
    },
    counts(): OutboxCounts {
      const r = s.counts.get() as OutboxCounts;
      return {
        waiting: r.waiting,
        sending: r.sending,
        failed: r.failed,
        mayBeApplied: r.mayBeApplied,
        oldestWaitingAt: typeof r.oldestWaitingAt === 'number' ? r.oldestWaitingAt : null,
      };
    },
    /** Moves queued entries to sending; returns those that moved. */
    markSending(ids: readonly number[], now: number): number[] {
      return ids.filter((id) => s.markSending.run({ id, now }).changes === 1);
    },
    /** Puts claimed entries that were never sent back to queued (no "no answer" mark: nothing went out). */
    unclaim(ids: readonly number[], now: number): void {
      for (const id of ids) s.unclaim.run({ id, now });
    },
    /** Records a delivered entry (`awaitingRefresh` when the answer was unreadable). */
    markSent(id: number, now: number, awaitingRefresh: boolean, lastError: Problem | null): EntryRow {
      return parseEntryRow(
        s.markSent.get({ id, now, awaitingRefresh: awaitingRefresh ? 1 : 0, lastError: lastError ? problemJson(lastError) : null }),
      );
    },
    /** A readable answer arrived for the order: unreadable-answer entries no longer shape its projection. */
    clearAwaitingRefresh(orderId: string): void {
      s.clearAwaitingRefresh.run(orderId);
    },
    /** Back to queued after an attempt that did not settle the entry. */
    requeueAfterAttempt(id: number, now: number, nextAttemptAt: number | null, lastError: Problem, noAnswer: boolean): EntryRow {
      return parseEntryRow(
        s.requeueAfterAttempt.get({ id, now, nextAttemptAt, lastError: problemJson(lastError), noAnswer: noAnswer ? 1 : 0 }),
      );
    },
    /** The service refused the entry. */
    markFailed(id: number, now: number, lastError: Problem, mayBeApplied: boolean): EntryRow {
      return parseEntryRow(s.markFailed.get({ id, now, lastError: problemJson(lastError), mayBeApplied: mayBeApplied ? 1 : 0 }));
    },
    /** Moves an entry between states if it is still in `from`; null when it was not. */
    transition(
      id: number,
      from: EntryRow['state'],
      to: EntryRow['state'],
      now: number,
      options: { nextAttemptAt?: number | null; lastError?: Problem } = {},
    ): EntryRow | null {
      if (options.lastError)
        return one(s.setStateWithError.get({ id, from, to, now, lastError: problemJson(options.lastError) }));
      return one(s.setState.get({ id, from, to, now, nextAttemptAt: options.nextAttemptAt ?? null }));
    },
    /** A person asked to try a failed entry again: queued, due now, no longer "may be applied" until refused again. */
    retryFailed(id: number, now: number): EntryRow | null {
      return one(s.retryFailed.get({ id, now }));
    },
    /** Drops the backoff (and what is left of the undo window) of a queued entry so it goes at the next chance. */
    sendNow(id: number, now: number): EntryRow | null {
      return one(s.sendNow.get({ id, now }));
    },
    /** Entries a crash left in `sending` go back to queued, flagged "no answer seen". */
    recoverSending(now: number): EntryRow[] {
      return rows(s.recoverSending.all(now));
    },
    /** Connectivity came back: entries that backed off because of a network error are due again. */
    clearNetworkBackoff(now: number): EntryRow[] {
      return rows(s.clearNetworkBackoff.all({ now }));
    },
  };
}
