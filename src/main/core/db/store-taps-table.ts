/**
 * SQL for other counters' counted taps heard through the store hub (the shift's moments only), so
 * this counter's Shift screen shows the store's figures from its own file, hub or no hub. Rules
 * (what travels, when) live in core/hub/store-records.ts; reading them for a day in history-table.
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import type { Moment } from './history-table';

/** One tap of another counter as kept here. */
export interface StoreTap {
  readonly counterId: string;
  readonly requestId: string;
  readonly counterName: string;
  readonly orderId: string;
  readonly moment: Moment;
  readonly createdAt: number;
  readonly packer: string | null;
  /** False once it was taken back or refused there. */
  readonly counted: boolean;
}

export type StoreTapsTable = ReturnType<typeof createStoreTapsTable>;

const rowSchema = builtOnce(() => z.object({ counter_id: z.string(), request_id: z.string() }));

/** Prepared statements for other counters' taps, wrapped in typed functions. */
export function createStoreTapsTable(db: Database) {
  const s = {
    put: db.prepare(
      `INSERT INTO store_taps (counter_id, request_id, counter_name, order_id, moment, created_at, packer, counted, heard_at)
       VALUES (@counterId, @requestId, @counterName, @orderId, @moment, @createdAt, @packer, @counted, @heardAt)
       ON CONFLICT (counter_id, request_id) DO UPDATE SET counter_name = excluded.counter_name, order_id = excluded.order_id,
         moment = excluded.moment, created_at = excluded.created_at, packer = excluded.packer, counted = excluded.counted, heard_at = excluded.heard_at
       WHERE counter_name IS NOT excluded.counter_name OR counted IS NOT excluded.counted OR packer IS NOT excluded.packer
         OR moment IS NOT excluded.moment OR created_at IS NOT excluded.created_at`,
    ),
    any: db.prepare(`SELECT counter_id, request_id FROM store_taps LIMIT 1`),
    prune: db.prepare(`DELETE FROM store_taps WHERE created_at < ?`),
  };
  return {
    /** Keeps (or updates) other counters' taps; answers how many rows changed. */
    put(taps: readonly StoreTap[], heardAt: number): number {
      let changed = 0;
      for (const t of taps) changed += s.put.run({ ...t, counted: t.counted ? 1 : 0, heardAt }).changes;
      return changed;
    },
    /** Whether any other counter's tap was ever heard (the Shift screen then speaks of the store). */
    any: (): boolean => rowSchema().safeParse(s.any.get()).success,
    /** Drops taps made before `before` (the history keep period); answers how many. */
    prune: (before: number): number => s.prune.run(before).changes,
  };
}
