/**
 * SQL for order intake's state: the cursor of the last complete window, the window being read (so a
 * stopped pass resumes at its page), the ids still to fetch, and a refusal of access.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';

/** A window of `changes` whose pages are being read. */
export interface IntakeWindow {
  readonly from: number;
  readonly to: number;
  /** The page to ask for next; null: the first page. */
  readonly nextPage: string | null;
  /** Pages read so far. */
  readonly pages: number;
}

/** Intake's stored state, typed. */
export interface IntakeState {
  /** toTimestamp of the last window whose every id was stored or kept as still to fetch; null before the first. */
  readonly cursorTo: number | null;
  readonly lastPassAt: number | null;
  /** The service refused this client a read call: its words, and the settings they were said for. */
  readonly noAccess: { readonly message: string; readonly settings: string } | null;
  /** The window being read, when a pass stopped in its middle. */
  readonly window: IntakeWindow | null;
  /** Why the last pass left its window unfinished (a page cap, a repeated nextPage). */
  readonly windowProblem: string | null;
  /** How many listed ids are not stored yet. */
  readonly stillToFetch: number;
  /** When this terminal last asked `changes` for a first page (the call the service rate-limits), and with which settings; null: never. */
  readonly changesAsked: { readonly at: number; readonly settings: string } | null;
  /** The service asked not to be called before this (Retry-After); null: no such word. */
  readonly changesNotBefore: number | null;
  /** The last answer to `changes`; null: none recorded (or unreadable). */
  readonly lastRead: LastRead | null;
}

/** The last answer to `changes` this data file knows of: a pass's result or doctor's access check. */
export interface LastRead {
  /** When it ended (this terminal's clock). */
  readonly at: number;
  readonly by: 'pass' | 'check';
  /** The service let this client read (a pass that completed or read pages, an access check that passed). */
  readonly ok: boolean;
  /** The pass report's or access check's kind. */
  readonly kind: string;
  readonly message: string | null;
  /** The settings (address, provider id) it was asked with. */
  readonly settings: string;
}

const lastReadSchema = builtOnce(() => z.object({
  at: z.number().int(),
  by: z.enum(['pass', 'check']),
  ok: z.boolean(),
  kind: z.string().max(40),
  message: z.string().max(4000).nullable(),
  settings: z.string().max(4000),
}));

/** An id `changes` listed whose body is not stored yet. */
export interface PendingId {
  readonly orderId: string;
  readonly listedAt: number;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly lastError: string | null;
}

const rowSchema = builtOnce(() => z.object({
  cursor_to: z.number().int().nullable(),
  last_pass_at: z.number().int().nullable(),
  no_access: z.string().nullable(),
  no_access_settings: z.string().nullable(),
  window_from: z.number().int().nullable(),
  window_to: z.number().int().nullable(),
  window_next_page: z.string().nullable(),
  window_pages: z.number().int(),
  window_problem: z.string().nullable(),
  still_to_fetch: z.number().int(),
  changes_asked_at: z.number().int().nullable(),
  changes_settings: z.string().nullable(),
  changes_not_before: z.number().int().nullable(),
  last_read: z.string().nullable(),
}));

/** The stored last answer, or null when there is none or it cannot be read (it only informs doctor). */
function lastReadOf(text: string | null): LastRead | null {
  if (text === null) return null;
  try {
    const parsed = lastReadSchema().safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const pendingRowSchema = builtOnce(() => z.object({
  order_id: z.string(),
  listed_at: z.number().int(),
  attempts: z.number().int(),
  next_attempt_at: z.number().int(),
  last_error: z.string().nullable(),
}));

export type IntakeTable = ReturnType<typeof createIntakeTable>;

/** Prepared statements for the intake row and the ids still to fetch. */
export function createIntakeTable(db: Database) {
  const s = {
    get: db.prepare(
      `SELECT cursor_to, last_pass_at, no_access, no_access_settings, window_from, window_to, window_next_page, window_pages, window_problem,
              changes_asked_at, changes_settings, changes_not_before, last_read, (SELECT COUNT(*) FROM intake_pending) AS still_to_fetch
       FROM intake WHERE id = 1`,
    ),
    commit: db.prepare(`UPDATE intake SET cursor_to = @to, window_from = NULL, window_to = NULL, window_next_page = NULL, window_pages = 0, window_problem = NULL WHERE id = 1`),
    completed: db.prepare(`UPDATE intake SET last_pass_at = @at WHERE id = 1`),
    noAccess: db.prepare(`UPDATE intake SET no_access = @message, no_access_settings = @settings WHERE id = 1`),
    begin: db.prepare(`UPDATE intake SET window_from = @from, window_to = @to, window_next_page = NULL, window_pages = 0 WHERE id = 1`),
    page: db.prepare(`UPDATE intake SET window_next_page = @nextPage, window_pages = window_pages + 1 WHERE id = 1`),
    drop: db.prepare(`UPDATE intake SET window_from = NULL, window_to = NULL, window_next_page = NULL, window_pages = 0 WHERE id = 1`),
    problem: db.prepare(`UPDATE intake SET window_problem = @problem WHERE id = 1`),
    asked: db.prepare(`UPDATE intake SET changes_asked_at = @at, changes_settings = @settings WHERE id = 1`),
    read: db.prepare(`UPDATE intake SET last_read = @read, changes_not_before = @notBefore WHERE id = 1`),
    // Listed again while pending: its backoff stands (a change does not make a failing answer good).
    list: db.prepare(`INSERT INTO intake_pending (order_id, listed_at) VALUES (@id, @at) ON CONFLICT (order_id) DO NOTHING`),
    stored: db.prepare(`DELETE FROM intake_pending WHERE order_id = ?`),
    failed: db.prepare(`UPDATE intake_pending SET attempts = attempts + 1, next_attempt_at = @nextAt, last_error = @error WHERE order_id = @id`),
    due: db.prepare(`SELECT order_id, listed_at, attempts, next_attempt_at, last_error FROM intake_pending WHERE next_attempt_at <= ? ORDER BY listed_at, order_id LIMIT ?`),
    all: db.prepare(`SELECT order_id, listed_at, attempts, next_attempt_at, last_error FROM intake_pending ORDER BY listed_at, order_id LIMIT ?`),
  };
  const pending = (rows: unknown[]): PendingId[] =>
    rows.map((row) => {
      const r = pendingRowSchema().parse(row);
      return { orderId: r.order_id, listedAt: r.listed_at, attempts: r.attempts, nextAttemptAt: r.next_attempt_at, lastError: r.last_error };
    });
  return {
    get(): IntakeState {
      const r = rowSchema().parse(s.get.get());
      return {
        cursorTo: r.cursor_to,
        lastPassAt: r.last_pass_at,
        noAccess: r.no_access !== null ? { message: r.no_access, settings: r.no_access_settings ?? '' } : null,
        window: r.window_from !== null && r.window_to !== null ? { from: r.window_from, to: r.window_to, nextPage: r.window_next_page, pages: r.window_pages } : null,
        windowProblem: r.window_problem,
        stillToFetch: r.still_to_fetch,
        changesAsked: r.changes_asked_at !== null ? { at: r.changes_asked_at, settings: r.changes_settings ?? '' } : null,
        changesNotBefore: r.changes_not_before,
        lastRead: lastReadOf(r.last_read),
      };
    },
    /** `changes` is asked for a first page now, with these settings. */
    changesAsked(at: number, settings: string): void {
      s.asked.run({ at, settings });
    },
    /** The last answer to `changes`, and when the service asked to be called again (null: no word). */
    readEnded(read: LastRead, notBefore: number | null): void {
      s.read.run({ read: JSON.stringify(read), notBefore });
    },
    /** Moves the cursor: every id of the window up to `to` is stored or kept as still to fetch. */
    commit(to: number): void {
      s.commit.run({ to });
    },
    /** A pass completed at `at`: its window read, and every id due asked. */
    passCompleted(at: number): void {
      s.completed.run({ at });
    },
    /** Records (or, with null, clears) a refusal of access. */
    setNoAccess(value: { message: string; settings: string } | null): void {
      s.noAccess.run({ message: value?.message ?? null, settings: value?.settings ?? null });
    },
    /** Starts reading a new window at its first page. */
    beginWindow(from: number, to: number): void {
      s.begin.run({ from, to });
    },
    /** One page read: its ids are kept as still to fetch, and the next page is where a later pass resumes. */
    savePage(orderIds: readonly string[], nextPage: string | null, at: number): void {
      for (const id of orderIds) s.list.run({ id, at });
      s.page.run({ nextPage });
    },
    /** Forgets the window being read: the next pass starts a new one at its first page. */
    dropWindow(): void {
      s.drop.run();
    },
    /** Why the window is unfinished, or null. */
    setWindowProblem(problem: string | null): void {
      s.problem.run({ problem });
    },
    /** The id's body is stored: it is no longer still to fetch. */
    fetched(orderId: string): void {
      s.stored.run(orderId);
    },
    /** A failed answer for a pending id: asked again from `nextAt`. */
    fetchFailed(orderId: string, error: string, nextAt: number): void {
      s.failed.run({ id: orderId, error, nextAt });
    },
    /** Pending ids due at `now`, the longest waiting first. */
    due(now: number, limit: number): PendingId[] {
      return pending(s.due.all(now, limit));
    },
    /** Every pending id (up to `limit`), the longest waiting first. */
    stillToFetch(limit: number): PendingId[] {
      return pending(s.all.all(limit));
    },
  };
}
