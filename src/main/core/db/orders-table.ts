/** SQL for the orders cache: the latest order body from the service, and when it came. */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Order } from '../../../shared/protocol';
import { secrets } from '../log';
import { type OrderRow, parseOrderBody, parseOrderRow } from './rows';

/** Unreadable answers are kept for support, but not without bound. */
const MAX_RAW_CHARS = 64 * 1024;
/**
 * Parsed bodies kept in memory: every tap is checked against its order, and parsing is most of a
 * tap's cost; the queue lists every order. Room for a busy store's whole queue (at 512, a queue of
 * 5,000 orders parsed every body again on each list and most taps missed).
 */
const BODY_CACHE_SIZE = 10_000;

export type OrdersTable = ReturnType<typeof createOrdersTable>;

/** Prepared statements for the orders cache, wrapped in typed functions. */
export function createOrdersTable(db: Database) {
  const s = {
    // Adding an order that was removed brings it back as new.
    ensure: db.prepare(
      `INSERT INTO orders (id, added_at) VALUES (@id, @now)
       ON CONFLICT (id) DO UPDATE SET removed_at = NULL, added_at = excluded.added_at WHERE removed_at IS NOT NULL`,
    ),
    get: db.prepare(`SELECT * FROM orders WHERE id = ? AND removed_at IS NULL`),
    list: db.prepare(`SELECT * FROM orders WHERE removed_at IS NULL ORDER BY added_at, id`),
    count: db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE removed_at IS NULL`),
    remove: db.prepare(`UPDATE orders SET removed_at = ? WHERE id = ? AND removed_at IS NULL`),
    saveBody: db.prepare(
      `INSERT INTO orders (id, body, synced_at, added_at, needs_refresh, raw_unreadable)
       VALUES (@id, @body, @now, @now, 0, NULL)
       ON CONFLICT (id) DO UPDATE SET body = excluded.body, synced_at = excluded.synced_at, needs_refresh = 0, raw_unreadable = NULL`,
    ),
    markUnreadable: db.prepare(
      `INSERT INTO orders (id, added_at, needs_refresh, raw_unreadable) VALUES (@id, @now, 1, @raw)
       ON CONFLICT (id) DO UPDATE SET needs_refresh = 1, raw_unreadable = excluded.raw_unreadable`,
    ),
  };
  // One parsed body per order, valid while the stored text is the same bytes (a digest of them, so
  // the cache does not hold a second copy of every body's text).
  const bodies = new Map<string, { readonly digest: string; readonly body: Order | null }>();
  const parseBody = (id: string, text: string): Order | null => {
    const digest = createHash('sha1').update(text).digest('base64');
    const hit = bodies.get(id);
    bodies.delete(id);
    if (hit !== undefined && hit.digest === digest) {
      bodies.set(id, hit); // most recently used last
      return hit.body;
    }
    const body = parseOrderBody(text);
    bodies.set(id, { digest, body });
    if (bodies.size > BODY_CACHE_SIZE) bodies.delete(bodies.keys().next().value as string);
    return body;
  };
  const parse = (raw: unknown): OrderRow => parseOrderRow(raw, parseBody);

  return {
    /** Takes an order off the terminal (its row stays for its outbox history); true when it was there. */
    remove(id: string, now: number): boolean {
      return s.remove.run(now, id).changes === 1;
    },
    /** Adds an order the terminal has only the id of (or brings back a removed one); returns true when it was new. */
    ensure(id: string, now: number): boolean {
      return s.ensure.run({ id, now }).changes === 1;
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
    /** Stores the order from a success answer as the new truth for that order. */
    saveBody(order: Order, now: number): void {
      s.saveBody.run({ id: order.id, body: JSON.stringify(order), now });
    },
    /**
     * Stores a body fetched by intake unless the cache holds a newer one (by `updatedAt`): the
     * service's body with the newest updatedAt wins. Says what happened.
     */
    saveIfNewer(order: Order, now: number): 'new' | 'updated' | 'unchanged' {
      const current = s.get.get(order.id) as { body: string | null; needs_refresh: number } | undefined;
      const text = JSON.stringify(order);
      if (current?.body === text && current.needs_refresh === 0) return 'unchanged';
      const held = current?.body ? parseBody(order.id, current.body) : null;
      if (held && current?.needs_refresh === 0 && isOlder(order.updatedAt, held.updatedAt)) return 'unchanged';
      s.saveBody.run({ id: order.id, body: text, now });
      return current?.body ? 'updated' : 'new';
    },
    /** Flags the order for a refresh and keeps the unreadable answer (secrets masked, size bounded). */
    markUnreadable(id: string, rawBody: string, now: number): void {
      s.markUnreadable.run({ id, now, raw: secrets.redactText(rawBody).slice(0, MAX_RAW_CHARS) });
    },
  };
}

/** True when `candidate` is strictly older than `held`; unknown times never count as older. */
function isOlder(candidate: string | undefined, held: string | undefined): boolean {
  const a = candidate ? Date.parse(candidate) : Number.NaN;
  const b = held ? Date.parse(held) : Number.NaN;
  return !Number.isNaN(a) && !Number.isNaN(b) && a < b;
}
