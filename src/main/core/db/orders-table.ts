/** SQL for the orders cache: the latest order body from the service, and when it came. */
import type { Database } from 'better-sqlite3';
import { isBehind } from '../../../shared/fulfilment';
import type { Order } from '../../../shared/protocol';
import { secrets } from '../log';
import { PENDING } from './outbox-table';
import { ORDERS_LISTING_COLUMNS, type OrderRow, parseOrderBody, parseOrderListing } from './rows';

/** Unreadable answers are kept for support, but not without bound. */
const MAX_RAW_CHARS = 64 * 1024;
/**
 * Parsed bodies kept in memory: every tap is checked against its order, and parsing (zod) is most
 * of a tap's cost. Room for the orders being worked on, not for the whole queue: a parsed body
 * takes about 7.7 kB, so 5,000 of them were 38 MB of the engine's settled heap (bench/memory.ts).
 * The queue's rows are kept apart, as rows (host/queueRows.ts), and patched from events, so the
 * whole queue is listed (every body parsed) once an engine starts, not after every change.
 */
export const BODY_CACHE_SIZE = 500;
/**
 * How far past the order service's now an `updatedAt` is still believed: room for the clock
 * difference the token measured being a little off. A body stamped later than that (9999-12-31,
 * say) would otherwise outrank every real body that follows it.
 */
export const FUTURE_STAMP_MARGIN_MS = 15 * 60_000;

export type OrdersTable = ReturnType<typeof createOrdersTable>;

/**
 * Prepared statements for the orders cache, wrapped in typed functions; `bodyCacheSize` parsed
 * bodies are kept (the most recently used).
 */
export function createOrdersTable(db: Database, bodyCacheSize = BODY_CACHE_SIZE) {
  const s = {
    // Adding an order that was removed brings it back as new.
    ensure: db.prepare(
      `INSERT INTO orders (id, added_at) VALUES (@id, @now)
       ON CONFLICT (id) DO UPDATE SET removed_at = NULL, added_at = excluded.added_at WHERE removed_at IS NOT NULL`,
    ),
    // Rows without their bodies' text: a body is read only when the one parsed before is not its revision.
    get: db.prepare(`SELECT ${ORDERS_LISTING_COLUMNS} FROM orders WHERE id = ? AND removed_at IS NULL`),
    list: db.prepare(`SELECT ${ORDERS_LISTING_COLUMNS} FROM orders WHERE removed_at IS NULL ORDER BY added_at, id`),
    body: db.prepare(`SELECT body FROM orders WHERE id = ?`).pluck(),
    current: db.prepare(`SELECT body, needs_refresh, body_rev FROM orders WHERE id = ?`),
    count: db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE removed_at IS NULL`),
    remove: db.prepare(`UPDATE orders SET removed_at = ? WHERE id = ? AND removed_at IS NULL`),
    saveBody: db.prepare(
      `INSERT INTO orders (id, body, synced_at, added_at, needs_refresh, raw_unreadable, body_rev)
       VALUES (@id, @body, @now, @now, 0, NULL, 1)
       ON CONFLICT (id) DO UPDATE SET body = excluded.body, synced_at = excluded.synced_at, needs_refresh = 0, raw_unreadable = NULL,
         body_rev = coalesce(body_rev, 0) + 1,
         -- The service has news of an order taken off the terminal (finished long ago, say): it comes back, as new.
         added_at = CASE WHEN removed_at IS NULL THEN added_at ELSE excluded.added_at END, removed_at = NULL`,
    ),
    // Orders whose body came before @before, readable and current, none of whose taps is pending,
    // awaiting a refresh or moved since @before: those that may have finished long enough ago.
    // Walked in (synced_at, id) order from a cursor, a batch at a time.
    quietSince: db.prepare(
      `SELECT ${ORDERS_LISTING_COLUMNS} FROM orders o
       WHERE removed_at IS NULL AND body IS NOT NULL AND needs_refresh = 0 AND synced_at < @before
         AND (synced_at, id) > (@afterSyncedAt, @afterId)
         AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.order_id = o.id AND (e.${PENDING} OR e.awaiting_refresh = 1 OR e.updated_at >= @before))
         -- An alarm nobody has acknowledged (cancelled elsewhere) keeps its order on screen.
         AND NOT EXISTS (SELECT 1 FROM order_alarms a WHERE a.order_id = o.id AND a.acknowledged_at IS NULL)
       ORDER BY synced_at, id LIMIT @limit`,
    ),
    // Off the terminal, its details gone: the row keeps only what its taps' history refers to.
    // Written anew (REPLACE deletes the old row, then inserts), not updated in place: SQLite merges a
    // page a delete leaves nearly empty with its neighbours, but leaves one an update shrinks as it
    // is, and a row with a body often fills a page of its own (its overflow beside): updated in
    // place, each order that left kept a 4 kB page for an 80-byte row until it was pruned.
    // Foreign keys hold: the new row has the key the old one had, checked at the statement's end.
    retire: db.prepare(
      `INSERT OR REPLACE INTO orders (id, body, synced_at, added_at, needs_refresh, raw_unreadable, removed_at, body_rev)
       SELECT id, NULL, synced_at, added_at, needs_refresh, NULL, @now, coalesce(body_rev, 0) + 1
       FROM orders WHERE id = @id AND removed_at IS NULL`,
    ),
    // Rows of orders that left the terminal before @before and that no kept tap points at, oldest
    // first, a batch at a time (the partial index orders_gone; the outbox by its (order_id, seq) index).
    // The alarms of orders whose rows dropGone may take (an alarm refers to its order's row). The
    // alarms table holds a row per order ever alarmed, a handful: walked whole, then the order by key.
    dropGoneAlarms: db.prepare(
      `DELETE FROM order_alarms WHERE order_id IN (
         SELECT a.order_id FROM order_alarms a JOIN orders o ON o.id = a.order_id
         WHERE o.removed_at IS NOT NULL AND o.removed_at < @before
           AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.order_id = o.id))`,
    ),
    dropGone: db.prepare(
      `DELETE FROM orders WHERE id IN (
         SELECT id FROM orders o
         WHERE removed_at IS NOT NULL AND removed_at < @before
           AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.order_id = o.id)
         ORDER BY removed_at LIMIT @limit)`,
    ),
    markUnreadable: db.prepare(
      `INSERT INTO orders (id, added_at, needs_refresh, raw_unreadable) VALUES (@id, @now, 1, @raw)
       ON CONFLICT (id) DO UPDATE SET needs_refresh = 1, raw_unreadable = excluded.raw_unreadable`,
    ),
  };
  // One parsed body per order, valid while the stored body is the same write of it (its revision,
  // bumped by every write from any process), so neither a list nor a tap reads the text again.
  const bodies = new Map<string, { readonly rev: number; readonly body: Order | null }>();
  const bodyFor = (id: string, rev: number): Order | null => {
    const hit = bodies.get(id);
    bodies.delete(id);
    if (hit !== undefined && hit.rev === rev) {
      bodies.set(id, hit); // most recently used last
      return hit.body;
    }
    const text = s.body.get(id) as string | null | undefined;
    const body = typeof text === 'string' ? parseOrderBody(text) : null;
    bodies.set(id, { rev, body });
    if (bodies.size > bodyCacheSize) bodies.delete(bodies.keys().next().value as string);
    return body;
  };
  const parse = (raw: unknown): OrderRow => parseOrderListing(raw, bodyFor);

  return {
    /** How many parsed bodies are kept now (at most the cache's size). */
    bodiesKept(): number {
      return bodies.size;
    },
    /** Lets every parsed body go (a quiet spell, host/heap-trim.ts); the next read parses it again. */
    forgetBodies(): void {
      bodies.clear();
    },
    /** Takes an order off the terminal (its row stays for its outbox history); true when it was there. */
    remove(id: string, now: number): boolean {
      return s.remove.run(now, id).changes === 1;
    },
    /** Adds an order the terminal has only the id of (or brings back a removed one); returns true when it was new. */
    ensure(id: string, now: number): boolean {
      return s.ensure.run({ id, now }).changes === 1;
    },
    /**
     * The body held for an order (null: none, or unreadable), through the same revision cache the
     * saves read: a caller that compares it with the body it is about to save costs no second parse.
     */
    held(id: string): Order | null {
      const current = s.current.get(id) as { body: string | null; body_rev: number | null } | undefined;
      return current?.body ? bodyFor(id, current.body_rev ?? 0) : null;
    },
    get(id: string): OrderRow | null {
      const raw = s.get.get(id);
      return raw === undefined ? null : parse(raw);
    },
    list(): OrderRow[] {
      return s.list.all().map(parse);
    },
    count(): number {
      return (s.count.get() as { n: number }).n;
    },
    /**
     * Orders nothing has happened to since `before` (no new body, no tap moved, nothing pending),
     * after the cursor (the last row of the previous batch) in (syncedAt, id) order; run it in the
     * transaction that acts on them.
     */
    quietSince(before: number, after: { syncedAt: number; id: string } | null, limit: number): OrderRow[] {
      return s.quietSince
        .all({ before, afterSyncedAt: after?.syncedAt ?? -1, afterId: after?.id ?? '', limit })
        .map(parse);
    },
    /** Takes a finished order off the terminal and drops its details (body, unreadable answer); true when it was there. */
    retire(id: string, now: number): boolean {
      bodies.delete(id);
      return s.retire.run({ id, now }).changes === 1;
    },
    /**
     * Drops the rows of up to `limit` orders that left the terminal before `before` and have no tap
     * kept in the outbox (an id and times; their details went when they left); returns how many.
     */
    dropGone(before: number, limit: number): number {
      s.dropGoneAlarms.run({ before });
      return s.dropGone.run({ before, limit }).changes;
    },
    /**
     * Stores the order from a success answer (the answer to a tap) unless the cache holds a body
     * that is surely later (`supersedes`); `serviceNow` is the order service's clock. True when stored.
     */
    saveBody(order: Order, now: number, serviceNow: number = now): boolean {
      const current = s.current.get(order.id) as { body: string | null; needs_refresh: number; body_rev: number | null } | undefined;
      const held = current?.body ? bodyFor(order.id, current.body_rev ?? 0) : null;
      if (held && current?.needs_refresh === 0 && !supersedes(order, held, serviceNow)) return false;
      s.saveBody.run({ id: order.id, body: JSON.stringify(order), now });
      return true;
    },
    /**
     * Stores a body fetched by intake unless the cache holds a later one (`supersedes`); `serviceNow`
     * is the order service's clock, against which a stamp from the future is not believed. Says what happened.
     */
    saveIfNewer(order: Order, now: number, serviceNow: number = now): 'new' | 'updated' | 'unchanged' {
      const current = s.current.get(order.id) as { body: string | null; needs_refresh: number; body_rev: number | null } | undefined;
      const text = JSON.stringify(order);
      if (current?.body === text && current.needs_refresh === 0) return 'unchanged';
      const held = current?.body ? bodyFor(order.id, current.body_rev ?? 0) : null;
      if (held && current?.needs_refresh === 0 && !supersedes(order, held, serviceNow)) return 'unchanged';
      s.saveBody.run({ id: order.id, body: text, now });
      return current?.body ? 'updated' : 'new';
    },
    /** Flags the order for a refresh and keeps the unreadable answer (secrets masked, size bounded). */
    markUnreadable(id: string, rawBody: string, now: number): void {
      s.markUnreadable.run({ id, now, raw: secrets.redactText(rawBody).slice(0, MAX_RAW_CHARS) });
    },
  };
}

/**
 * Whether `candidate` should replace `held`. Two believable, different `updatedAt`s decide: the
 * later wins. Where they cannot (equal, missing, unreadable, or past the service's now plus
 * FUTURE_STAMP_MARGIN_MS), the states decide: a body that shows the order further back is older;
 * otherwise the body read last wins.
 */
export function supersedes(candidate: Order, held: Order, serviceNow: number): boolean {
  const until = serviceNow + FUTURE_STAMP_MARGIN_MS;
  const a = believable(candidate.updatedAt, until);
  const b = believable(held.updatedAt, until);
  if (a !== null && b !== null && a !== b) return a > b;
  return !isBehind(candidate, held);
}

/** A stamp as epoch ms, or null when it is missing, unreadable or later than `until`. */
function believable(stamp: string | undefined, until: number): number | null {
  const t = stamp ? Date.parse(stamp) : Number.NaN;
  return Number.isFinite(t) && t <= until ? t : null;
}
