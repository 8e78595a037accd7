/**
 * A store's drill-down for the fleet page: its open orders as ids, next steps and claims, and
 * nothing else. The store hub's buckets hold full order bodies (customers' names, phones,
 * addresses) that the centre must never read, so the hub PC publishes this list itself, from its
 * own rows, on the store's one open-orders subject, which the hub exports to the chain's account
 * and its stream `PACKDESK_OPEN` (in the store's domain). The centre reads the newest list live
 * through the store's domain, never a copy: it is not sourced north, so a store's order ids are not
 * kept at the centre (src/fleet/drill.ts reads it). See docs/fleet.md.
 */
import { z } from 'zod';
import { claimSchema, CounterIdSchema, CounterNameSchema } from '../../../../shared/hub';
import { nextStepSchema, type OrderSummary } from '../../../../shared/ipc';
import { every, type Timers } from '../../time';
import type { NatsConnection } from '../nats/buckets';
import { OPEN_PREFIX, OPEN_STREAM } from '../registry';
import { StoreIdSchema } from './north';

/** The stream on the store hub holding the newest open-orders list (one message per store). */
export { OPEN_STREAM };
/** At most this many orders in a list (a store's open orders; a message stays far below 1 MB). */
export const OPEN_MAX = 500;
/** How often the list is sent when nothing changed, and how often it is looked at for a change. */
const OPEN_EVERY_MS = 10_000;
const CHANGE_CHECK_MS = 1_000;

/** One open order as the centre may see it: id, next step, late or not, and who is packing it. */
export const OpenOrderSchema = z
  .object({
    orderId: claimSchema().shape.orderId,
    /** The order's next step (ACCEPT, PACKING, PACKED...): its state in the store's words. */
    nextStep: nextStepSchema().shape.key,
    late: z.boolean(),
    cancelledAlarm: z.boolean(),
    /** The counter packing it, never the packer's name. */
    claim: z.object({ counterId: CounterIdSchema, counterName: CounterNameSchema, claimedAt: z.number() }).strict().nullable(),
  })
  .strict();
export type OpenOrder = z.infer<typeof OpenOrderSchema>;

export const OpenOrdersSchema = z
  .object({
    kind: z.literal('open'),
    storeId: StoreIdSchema,
    /** When the hub PC made the list (its clock). */
    at: z.number(),
    orders: z.array(OpenOrderSchema).max(OPEN_MAX),
    /** Open orders left out beyond OPEN_MAX. */
    more: z.number().int().min(0),
  })
  .strict();
export type OpenOrders = z.infer<typeof OpenOrdersSchema>;

type Row = Pick<OrderSummary, 'id' | 'nextStep' | 'promisedPackedAt' | 'alarm'>;
type ClaimOf = (orderId: string) => { readonly counterId: string; readonly counterName: string; readonly claimedAt: number } | null;

/** The open orders (something left to do) of the hub PC's rows: ids, steps and claims only. */
export function openOrdersOf(rows: readonly Row[], claimOf: ClaimOf, now: number): OpenOrder[] {
  return rows.flatMap((row) => {
    if (row.nextStep === null) return [];
    const claim = claimOf(row.id);
    const notPacked = row.nextStep.key === 'ACCEPT' || row.nextStep.key === 'PACKING' || row.nextStep.key === 'PACKED';
    return [
      {
        orderId: row.id,
        nextStep: row.nextStep.key,
        late: notPacked && row.promisedPackedAt !== null && row.promisedPackedAt < now,
        cancelledAlarm: row.alarm?.kind === 'cancelled',
        claim: claim ? { counterId: claim.counterId, counterName: claim.counterName, claimedAt: claim.claimedAt } : null,
      },
    ];
  });
}

/** The store's one open-orders subject. */
export const openSubject = (storeId: string): string => `${OPEN_PREFIX}.${storeId}`;

/** Publishes the hub PC's open orders: at once, every 10 s, and within a second of a change. Returns what stops it. */
export function startOpenOrdersSender(options: {
  readonly nc: NatsConnection;
  readonly storeId: string;
  readonly orders: () => readonly OpenOrder[];
  readonly now: () => number;
  readonly timers: Timers;
  readonly everyMs?: number;
}): () => void {
  let last = '';
  let closed = false;
  const send = (): void => {
    if (closed) return;
    const all = options.orders();
    last = JSON.stringify(all);
    const list = OpenOrdersSchema.parse({ kind: 'open', storeId: options.storeId, at: options.now(), orders: all.slice(0, OPEN_MAX), more: Math.max(0, all.length - OPEN_MAX) });
    // Not answered (no counter reaches the stream): a list the hub did not take is said again by the next (a view, not a record to keep).
    try {
      options.nc.publish(openSubject(options.storeId), JSON.stringify(list));
    } catch {
      // The connection closed: the sender is being stopped.
    }
  };
  void Promise.resolve().then(send);
  const stops = [
    every(options.timers, options.everyMs ?? OPEN_EVERY_MS, send),
    every(options.timers, CHANGE_CHECK_MS, () => {
      if (JSON.stringify(options.orders()) !== last) send();
    }),
  ];
  return () => {
    closed = true;
    for (const stop of stops) stop();
  };
}
