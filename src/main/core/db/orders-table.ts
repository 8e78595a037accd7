/** SQL for the orders cache: the latest order body from the service, and when it came. */
import type { Database } from 'better-sqlite3';
import type { Order } from '../../../shared/protocol';
import { secrets } from '../log';
import { type OrderRow, parseOrderBody, parseOrderRow } from './rows';

/** Unreadable answers are kept for support, but not without bound. */
const MAX_RAW_CHARS = 64 * 1024;
/** Parsed bodies kept in memory: every tap is checked against its order, and parsing is most of a tap's cost. */
const BODY_CACHE_SIZE = 512;

export type OrdersTable = ReturnType<typeof createOrdersTable>;

/** Prepared statements for the orders cache, wrapped in typed functions. */
export function createOrdersTable(db: Database) {
  const s = {
    ensure: db.prepare(`INSERT INTO orders (id, added_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`),
    get: db.prepare(`SELECT * FROM orders WHERE id = ?`),
    list: db.prepare(`SELECT * FROM orders ORDER BY added_at, id`),
    count: db.prepare(`SELECT COUNT(*) AS n FROM orders`),
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
  // Keyed by the exact stored text: the same bytes always give the same (validated, frozen) order.
  const bodies = new Map<string, Order | null>();
  const parseBody = (text: string): Order | null => {
    const hit = bodies.get(text);
    if (hit !== undefined) {
      bodies.delete(text);
      bodies.set(text, hit); // most recently used last
      return hit;
    }
    const body = parseOrderBody(text);
    bodies.set(text, body);
    if (bodies.size > BODY_CACHE_SIZE) bodies.delete(bodies.keys().next().value as string);
    return body;
  };
  const parse = (raw: unknown): OrderRow => parseOrderRow(raw, parseBody);

  return {
    /** Adds an order the terminal has only the id of; returns true when it was new. */
    ensure(id: string, now: number): boolean {
      return s.ensure.run(id, now).changes === 1;
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
    /** Flags the order for a refresh and keeps the unreadable answer (secrets masked, size bounded). */
    markUnreadable(id: string, rawBody: string, now: number): void {
      s.markUnreadable.run({ id, now, raw: secrets.redactText(rawBody).slice(0, MAX_RAW_CHARS) });
    },
  };
}
