/** SQL for order alarms: an order this terminal worked on, cancelled or changed by someone else, until a person acknowledges it. */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';

export type AlarmKind = 'cancelled' | 'items';

/** One alarm as stored. */
export interface AlarmRow {
  readonly orderId: string;
  readonly kind: AlarmKind;
  /** When the service changed the order (epoch ms). */
  readonly changedAt: number;
  readonly raisedAt: number;
  readonly acknowledgedAt: number | null;
}

const rowSchema = builtOnce(() => z.object({
  order_id: z.string(),
  kind: z.enum(['cancelled', 'items']),
  changed_at: z.number().int(),
  raised_at: z.number().int(),
  acknowledged_at: z.number().int().nullable(),
}));

const parse = (raw: unknown): AlarmRow => {
  const r = rowSchema().parse(raw);
  return { orderId: r.order_id, kind: r.kind, changedAt: r.changed_at, raisedAt: r.raised_at, acknowledgedAt: r.acknowledged_at };
};

export type AlarmsTable = ReturnType<typeof createAlarmsTable>;

/** Prepared statements for the alarms, wrapped in typed functions. */
export function createAlarmsTable(db: Database) {
  const s = {
    // A newer change raises the alarm again, even when an older one was acknowledged.
    raise: db.prepare(
      `INSERT INTO order_alarms (order_id, kind, changed_at, raised_at) VALUES (@orderId, @kind, @changedAt, @now)
       ON CONFLICT (order_id) DO UPDATE SET kind = excluded.kind, changed_at = excluded.changed_at,
         raised_at = excluded.raised_at, acknowledged_at = NULL`,
    ),
    get: db.prepare(`SELECT * FROM order_alarms WHERE order_id = ?`),
    open: db.prepare(`SELECT * FROM order_alarms WHERE acknowledged_at IS NULL`),
    acknowledge: db.prepare(`UPDATE order_alarms SET acknowledged_at = @now WHERE order_id = @orderId AND acknowledged_at IS NULL`),
  };
  return {
    /** Raises (or raises again) the alarm of an order. */
    raise(orderId: string, kind: AlarmKind, changedAt: number, now: number): void {
      s.raise.run({ orderId, kind, changedAt, now });
    },
    /** The order's alarm, acknowledged or not, or null. */
    get(orderId: string): AlarmRow | null {
      const raw = s.get.get(orderId);
      return raw === undefined ? null : parse(raw);
    },
    /** Alarms nobody has acknowledged yet, by order id (a handful at most: from the partial index). */
    open(): Map<string, AlarmRow> {
      return new Map(s.open.all().map((raw) => {
        const row = parse(raw);
        return [row.orderId, row] as const;
      }));
    },
    /** A person has seen it; true when there was an open alarm. */
    acknowledge(orderId: string, now: number): boolean {
      return s.acknowledge.run({ orderId, now }).changes === 1;
    },
  };
}
