/**
 * SQL for other counters' taps heard through the store hub (all of them, not only the shift's
 * moments): an order's timeline, a reprinted slip's "packed by" and cuts, and finding taps made
 * while counters could not see each other read them from here, hub or no hub. Rules live in
 * core/hub (shared-taps.ts, conflicts.ts); the engine keeps what the hub says (engine/hub-taps.ts).
 */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import { type Action, ActionSchema } from '../../../shared/protocol';
import type { CutRow } from './outbox-table';
import { jsonColumn } from './rows';

/** Another counter's tap as kept here. */
export interface HubTapRow {
  readonly counterId: string;
  readonly requestId: string;
  readonly orderId: string;
  readonly counterName: string;
  readonly packer: string | null;
  readonly action: Action;
  readonly summary: string;
  readonly state: 'waiting' | 'sent' | 'failed' | 'discarded';
  readonly queuedAt: number;
  readonly sentAt: number | null;
  /** Made while that counter could not check the others. */
  readonly unchecked: boolean;
  /** The taps of other counters it had heard of then; null: not known. */
  readonly seen: readonly string[] | null;
  readonly unitsBefore: number | null;
}

const rowSchema = builtOnce(() => z.object({
  counter_id: z.string(),
  request_id: z.string(),
  order_id: z.string(),
  counter_name: z.string(),
  packer: z.string().nullable(),
  action: jsonColumn(ActionSchema),
  summary: z.string(),
  state: z.enum(['waiting', 'sent', 'failed', 'discarded']),
  queued_at: z.number().int(),
  sent_at: z.number().int().nullable(),
  unchecked: z.number().int(),
  seen: jsonColumn(z.array(z.string())).nullable(),
  units_before: z.number().int().nullable(),
}));

const cutSchema = builtOnce(() => z.object({ action: jsonColumn(ActionSchema), units_before: z.number().int().nonnegative() }));
const packedSchema = builtOnce(() => z.object({ counter_name: z.string(), packer: z.string().nullable() }));

/** A row as read; one that does not parse is left out (it came from another counter: outside data). */
function parse(raw: unknown): HubTapRow | null {
  const r = rowSchema().safeParse(raw);
  if (!r.success) return null;
  const d = r.data;
  return {
    counterId: d.counter_id,
    requestId: d.request_id,
    orderId: d.order_id,
    counterName: d.counter_name,
    packer: d.packer,
    action: d.action,
    summary: d.summary,
    state: d.state,
    queuedAt: d.queued_at,
    sentAt: d.sent_at,
    unchecked: d.unchecked !== 0,
    seen: d.seen,
    unitsBefore: d.units_before,
  };
}

export type HubTapsTable = ReturnType<typeof createHubTapsTable>;

/** Prepared statements for other counters' taps, wrapped in typed functions. */
export function createHubTapsTable(db: Database) {
  const s = {
    put: db.prepare(
      `INSERT INTO hub_taps (counter_id, request_id, order_id, counter_name, packer, action, summary, state, queued_at, sent_at, unchecked, seen, units_before, heard_at)
       VALUES (@counterId, @requestId, @orderId, @counterName, @packer, @action, @summary, @state, @queuedAt, @sentAt, @unchecked, @seen, @unitsBefore, @heardAt)
       ON CONFLICT (counter_id, request_id) DO UPDATE SET counter_name = excluded.counter_name, packer = excluded.packer,
         summary = excluded.summary, state = excluded.state, sent_at = excluded.sent_at, unchecked = excluded.unchecked,
         seen = excluded.seen, units_before = excluded.units_before, heard_at = excluded.heard_at
       WHERE counter_name IS NOT excluded.counter_name OR packer IS NOT excluded.packer OR state IS NOT excluded.state
         OR sent_at IS NOT excluded.sent_at OR unchecked IS NOT excluded.unchecked OR seen IS NOT excluded.seen
         OR units_before IS NOT excluded.units_before`,
    ),
    forOrder: db.prepare(`SELECT * FROM hub_taps WHERE order_id = ? ORDER BY queued_at, request_id`),
    ids: db.prepare(`SELECT request_id FROM hub_taps WHERE order_id = ?`).pluck(),
    prune: db.prepare(`DELETE FROM hub_taps WHERE queued_at < ?`),
    cuts: db.prepare(`SELECT action, units_before FROM hub_taps WHERE order_id = ? AND units_before IS NOT NULL AND state <> 'discarded' ORDER BY queued_at`),
    packed: db.prepare(
      `SELECT counter_name, packer FROM hub_taps WHERE order_id = ? AND state <> 'discarded'
         AND json_extract(action, '$.type') = 'ORDER_FULFILMENT_STATE_UPDATE' AND json_extract(action, '$.fulfillmentState') = 'PACKED'
       ORDER BY queued_at DESC LIMIT 1`,
    ),
  };
  return {
    /** Keeps (or updates) other counters' taps; answers the order ids whose taps changed. */
    put(taps: readonly HubTapRow[], heardAt: number): Set<string> {
      const changed = new Set<string>();
      for (const t of taps) {
        const r = s.put.run({
          counterId: t.counterId,
          requestId: t.requestId,
          orderId: t.orderId,
          counterName: t.counterName,
          packer: t.packer,
          action: JSON.stringify(t.action),
          summary: t.summary,
          state: t.state,
          queuedAt: t.queuedAt,
          sentAt: t.sentAt,
          unchecked: t.unchecked ? 1 : 0,
          seen: t.seen === null ? null : JSON.stringify(t.seen),
          unitsBefore: t.unitsBefore,
          heardAt,
        });
        if (r.changes > 0) changed.add(t.orderId);
      }
      return changed;
    },
    /** Every other counter's tap on an order this counter heard of, oldest first. */
    forOrder: (orderId: string): HubTapRow[] => s.forOrder.all(orderId).flatMap((raw) => parse(raw) ?? []),
    /** The request ids of those taps: what a tap made here now has heard of. */
    requestIdsOf: (orderId: string): string[] => s.ids.all(orderId).filter((id): id is string => typeof id === 'string'),
    /** The unit cuts other counters made on an order (not set aside), oldest first: "was 3" on this counter's screens and slips too. */
    cutsForOrder(orderId: string): CutRow[] {
      return s.cuts.all(orderId).flatMap((raw) => {
        const r = cutSchema().safeParse(raw);
        return r.success && r.data.action.type === 'ITEM_UNIT_UPDATE' ? [{ itemId: r.data.action.itemId, unitsBefore: r.data.units_before, reason: r.data.action.reason }] : [];
      });
    },
    /** Where, and by whom, another counter last marked the order packed (not set aside); null when none did. */
    packedBy(orderId: string): { counterName: string; packer: string | null } | null {
      const r = packedSchema().safeParse(s.packed.get(orderId));
      return r.success ? { counterName: r.data.counter_name, packer: r.data.packer } : null;
    },
    /** Drops taps made before `before` (the history keep period); answers how many. */
    prune: (before: number): number => s.prune.run(before).changes,
  };
}
