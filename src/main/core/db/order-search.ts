/**
 * Finding orders by what a packer types: an order id whole, its last digits, the customer's name
 * (any word's start) or phone (its last digits, or whole), or the invoice number (any part). Read
 * from the order_search FTS5 trigram index (migration 6, kept by triggers), one indexed query per
 * kind of match in the order a packer means them, so an exact id always comes first and a 50,000
 * order file answers in milliseconds.
 */
import type { Database } from 'better-sqlite3';
import type { StepFacts } from '../../../shared/fulfilment';
import type { MatchKind } from '../../../shared/orders/match';
import { SHAPES } from './outbox-table';
import { parseStepFacts } from './rows';

/** Fewest digits taken as the end of an id or a phone: fewer match most of the queue. */
const MIN_END_DIGITS = 3;
/** Fewest characters looked for in names and invoice numbers (the index's trigrams need three). */
const MIN_PART_CHARS = 3;
const PHONE_LIKE = /^[\d\s+\-().]+$/;

/** One indexed query: the FTS5 expression and the kind of match it finds. */
export interface SearchStep {
  readonly by: MatchKind;
  readonly match: string;
}

/** An FTS5 phrase in one column, its quotes doubled. */
function phrase(column: string, text: string): string {
  return `{${column}}: "${text.replaceAll('"', '""')}"`;
}

/**
 * The queries a typed text asks for, most certain first; none when it is too short to mean
 * anything (one or two characters that are not a whole id).
 */
export function searchPlan(raw: string): SearchStep[] {
  const text = raw.trim().replace(/\s+/g, ' ');
  if (!text) return [];
  const steps: SearchStep[] = [{ by: 'id', match: phrase('ids', `^${text}$`) }];
  if (/^\d+$/.test(text) && text.length >= MIN_END_DIGITS) steps.push({ by: 'idEnd', match: phrase('ids', `${text}$`) });
  if (text.length >= MIN_PART_CHARS) steps.push({ by: 'invoice', match: phrase('invoice', text) });
  const digits = text.replace(/\D/g, '');
  if (PHONE_LIKE.test(text) && digits.length >= MIN_END_DIGITS) steps.push({ by: 'phone', match: phrase('phone', `${digits}$`) });
  // A word's start: the index holds each name after a space.
  if (/\p{L}/u.test(text) && text.length >= MIN_PART_CHARS - 1) steps.push({ by: 'customer', match: phrase('customer', ` ${text}`) });
  return steps;
}

/** One order found, and how. */
export interface Found {
  readonly id: string;
  readonly by: MatchKind;
}

/** One order the Orders search found: how, when it arrived, and when it left the terminal (null while on it). */
export interface Searched extends Found {
  readonly addedAt: number;
  readonly removedAt: number | null;
}

/**
 * What an order on the terminal shows as its standing rests on, read without building its view:
 * whether a tap shapes its projection, whether it has a body, and that body's step facts (null
 * when they do not parse, or it has none).
 */
export interface StandingFacts {
  readonly shaped: boolean;
  readonly hasBody: boolean;
  readonly step: StepFacts | null;
}

export type OrderSearch = ReturnType<typeof createOrderSearch>;

/** The order finder over an open database (migration 6 applied). */
export function createOrderSearch(db: Database) {
  // Orders taken off the terminal stay in the table (their taps' history), not among the found.
  const step = db
    .prepare(
      `SELECT o.id FROM order_search s JOIN orders o ON o.id = substr(s.ids, 2, length(s.ids) - 2)
       WHERE order_search MATCH ? AND o.removed_at IS NULL LIMIT ?`,
    )
    .pluck();
  // The Orders search finds orders that left the terminal too (their rows are kept 180 days with
  // their ids, not their details: retire.ts), so an id or its last digits still finds them.
  const searchStep = db.prepare(
    `SELECT o.id, o.added_at AS addedAt, o.removed_at AS removedAt FROM order_search s
     JOIN orders o ON o.id = substr(s.ids, 2, length(s.ids) - 2) WHERE order_search MATCH ? LIMIT ?`,
  );
  // A day's orders, newest first, on the orders_added index (migration 11).
  const ofDay = db.prepare(
    `SELECT id, added_at AS addedAt, removed_at AS removedAt FROM orders
     WHERE added_at >= ? AND added_at < ? ORDER BY added_at DESC, id LIMIT ?`,
  );
  // On the (order_id, seq) index, as outbox-table reads the taps that shape an order's projection.
  const standing = db.prepare(
    `SELECT body, EXISTS (SELECT 1 FROM outbox WHERE order_id = o.id AND ${SHAPES}) AS shaped
     FROM orders o WHERE id = ? AND removed_at IS NULL`,
  );
  // FTS5's 'merge' with a negative count: segments merged as by 'optimize', about that many pages
  // of writing a call. Whether it did anything shows in the connection's count of changes: the
  // command's own row counts one, each page it writes more.
  const merge = db.prepare(`INSERT INTO order_search (order_search, rank) VALUES ('merge', ?)`);
  const changes = db.prepare('SELECT total_changes()').pluck();
  return {
    /**
     * One step of merging the finder's segments into one (about `pages` pages written); true when
     * there was something to merge, so call again. Each day's new orders add small segments and an
     * order that leaves takes its words out of old ones (secure-delete) without freeing their
     * pages: merged after each pruning run, the index's size follows what it holds, not how many
     * orders were ever indexed (docs/decisions.md, "No larger after a second year").
     */
    mergeStep(pages: number): boolean {
      const before = changes.get();
      merge.run(-pages);
      return (changes.get() as number) - (before as number) > 1;
    },
    /**
     * Up to `limit` orders, on the terminal or gone from it, that `text` matches, each once under
     * its most certain kind of match; `more` says whether there were others.
     */
    search(text: string, limit: number): { found: Searched[]; more: boolean } {
      const found = new Map<string, Searched>();
      for (const { by, match } of searchPlan(text)) {
        for (const row of searchStep.all(match, limit + 1) as Omit<Searched, 'by'>[]) if (!found.has(row.id)) found.set(row.id, { ...row, by });
        if (found.size > limit) break;
      }
      const all = [...found.values()];
      return { found: all.slice(0, limit), more: all.length > limit };
    },
    /** The step facts of an order on the terminal, and whether a tap shapes it; null when it is not on the terminal. */
    standingFacts(id: string): StandingFacts | null {
      const row = standing.get(id) as { body: string | null; shaped: number } | undefined;
      if (!row) return null;
      return { shaped: row.shaped !== 0, hasBody: row.body !== null, step: row.body === null ? null : parseStepFacts(row.body) };
    },
    /** Up to `limit` orders that arrived in [from, to), newest first; `more` when there were others. */
    ofDay(from: number, to: number, limit: number): { found: Omit<Searched, 'by'>[]; more: boolean } {
      const rows = ofDay.all(from, to, limit + 1) as Omit<Searched, 'by'>[];
      return { found: rows.slice(0, limit), more: rows.length > limit };
    },
    /**
     * Up to `limit` orders on the terminal that `text` matches, each once under its most certain
     * kind of match; `more` says whether there were others.
     */
    find(text: string, limit: number): { found: Found[]; more: boolean } {
      const found = new Map<string, MatchKind>();
      for (const { by, match } of searchPlan(text)) {
        for (const id of step.all(match, limit + 1) as string[]) if (!found.has(id)) found.set(id, by);
        if (found.size > limit) break;
      }
      const all = [...found].map(([id, by]) => ({ id, by }));
      return { found: all.slice(0, limit), more: all.length > limit };
    },
  };
}
