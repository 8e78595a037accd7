/**
 * A store's drill-down for the fleet page: its open orders as ids, next steps and claims, and
 * nothing else. The store hub's buckets hold full order bodies (customers' names, phones,
 * addresses) that the centre must never read, so the hub PC publishes this list itself, from its
 * own rows, into a stream of its own (`PACKDESK_OPEN`, in the store's domain). The centre reads
 * the newest list live through the store's domain, never a copy: it is not sourced north, so a
 * store's order ids are not kept at the centre. The leaf link's deny lists (chain.ts) keep the
 * centre from everything else. See docs/fleet.md.
 */
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { createInbox, nanos, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { ClaimSchema, CounterIdSchema, CounterNameSchema } from '../shared/hub';
import { NextStepSchema, type OrderSummary } from '../shared/ipc';
import { every, type Timers } from '../main/core/time';
import { safeJson } from './central';
import { StoreIdSchema } from './north';

/** The stream on the store hub holding the newest open-orders list (one message per store). */
export const OPEN_STREAM = 'PACKDESK_OPEN';
const OPEN_PREFIX = 'packdesk.open';
/** At most this many orders in a list (a store's open orders; a message stays far below 1 MB). */
export const OPEN_MAX = 500;
/** How often the list is sent when nothing changed, and how often it is looked at for a change. */
const OPEN_EVERY_MS = 10_000;
const CHANGE_CHECK_MS = 1_000;
const API_TIMEOUT_MS = 3_000;
/** How long the centre waits for a store's answer (over a WAN link, through its hub). */
const DRILL_TIMEOUT_MS = 5_000;

/** One open order as the centre may see it: id, next step, late or not, and who is packing it. */
export const OpenOrderSchema = z
  .object({
    orderId: ClaimSchema.shape.orderId,
    /** The order's next step (ACCEPT, PACKING, PACKED...): its state in the store's words. */
    nextStep: NextStepSchema.shape.key,
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

const openSubject = (storeId: string): string => `${OPEN_PREFIX}.${storeId}`;

/** Makes (or keeps) the open-orders stream on the store hub: only this store's newest list is kept. */
export async function ensureOpenStream(nc: NatsConnection, storeId: string): Promise<void> {
  const jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
  const config = {
    name: OPEN_STREAM,
    // This store's subject only: another store's list must never land here (chain.ts denies it at the link too).
    subjects: [openSubject(StoreIdSchema.parse(storeId))],
    storage: StorageType.File,
    max_msgs_per_subject: 1,
    // A list nobody renewed for a day means nothing.
    max_age: nanos(24 * 3_600_000),
  };
  try {
    await jsm.streams.info(OPEN_STREAM);
    await jsm.streams.update(OPEN_STREAM, config);
  } catch {
    await jsm.streams.add(config);
  }
}

/** Publishes the hub PC's open orders: at once, every 10 s, and within a second of a change. Returns what stops it. */
export function startOpenOrdersSender(options: {
  readonly nc: NatsConnection;
  readonly storeId: string;
  readonly orders: () => readonly OpenOrder[];
  readonly now: () => number;
  readonly timers: Timers;
  readonly everyMs?: number;
}): () => void {
  const js = jetstream(options.nc, { timeout: API_TIMEOUT_MS });
  let last = '';
  let closed = false;
  const send = async (): Promise<void> => {
    if (closed) return;
    const all = options.orders();
    last = JSON.stringify(all);
    const list = OpenOrdersSchema.parse({ kind: 'open', storeId: options.storeId, at: options.now(), orders: all.slice(0, OPEN_MAX), more: Math.max(0, all.length - OPEN_MAX) });
    // The hub away: the next send says it again (the list is a view, not a record to keep).
    await js.publish(openSubject(options.storeId), JSON.stringify(list)).catch(() => undefined);
  };
  void Promise.resolve().then(send);
  const stops = [
    every(options.timers, options.everyMs ?? OPEN_EVERY_MS, () => void send()),
    every(options.timers, CHANGE_CHECK_MS, () => {
      if (JSON.stringify(options.orders()) !== last) void send();
    }),
  ];
  return () => {
    closed = true;
    for (const stop of stops) stop();
  };
}

/** What the centre learned of a store's open orders, in words when it could not read them. */
export type DrillReading =
  | { readonly state: 'ok'; readonly list: OpenOrders }
  | { readonly state: 'cut-off' | 'not-published' | 'unreadable'; readonly words: string };

/**
 * Reads a store's newest open-orders list live through its domain, as the centre: an ephemeral
 * push consumer on the store's PACKDESK_OPEN (the consumer API is what the leaf link lets through),
 * delivering the last message to an inbox here, then deleted.
 */
export async function readOpenOrders(nc: NatsConnection, storeId: string, timeoutMs = DRILL_TIMEOUT_MS): Promise<DrillReading> {
  const id = StoreIdSchema.parse(storeId);
  const api = `$JS.${id}.API`;
  const inbox = createInbox();
  const sub = nc.subscribe(inbox, { max: 1 });
  const first = (async () => {
    for await (const m of sub) return m.data;
    return null;
  })();
  const config = { deliver_subject: inbox, deliver_policy: 'last', ack_policy: 'none', inactive_threshold: nanos(10_000), mem_storage: true, num_replicas: 1 };
  let name: string | null = null;
  try {
    let reply;
    try {
      reply = await nc.request(`${api}.CONSUMER.CREATE.${OPEN_STREAM}`, JSON.stringify({ stream_name: OPEN_STREAM, config }), { timeout: timeoutMs });
    } catch (error) {
      // No responders: nobody at the centre hears the store's domain (the link is down). A timeout: it did not answer in time.
      const noOne = error instanceof Error && /no responders|503/i.test(`${error.message} ${String((error as { code?: unknown }).code ?? '')} ${String(error.cause ?? '')}`);
      const why = noOne ? 'cannot be reached from the centre now: its link to the centre is down or its hub PC is off' : `did not answer within ${Math.round(timeoutMs / 1000)} s: its link to the centre is down or very slow`;
      return { state: 'cut-off', words: `Store ${id} ${why}. Its last figures are in the table.` };
    }
    const answer = safeJson(reply.data) as { name?: string; error?: { err_code?: number; description?: string } } | null;
    if (answer?.error) {
      if (answer.error.err_code === 10059) return { state: 'not-published', words: `Store ${id} has not published its open orders yet (its hub PC may run an older Packdesk, or has just started).` };
      return { state: 'unreadable', words: `Store ${id} answered but would not show its open orders: ${answer.error.description ?? 'no reason given'}.` };
    }
    name = answer?.name ?? null;
    const data = await Promise.race([first, new Promise<null>((r) => setTimeout(() => r(null), timeoutMs))]);
    if (data === null) return { state: 'not-published', words: `Store ${id} has not published its open orders yet (its hub PC may run an older Packdesk, or has just started).` };
    const parsed = OpenOrdersSchema.safeParse(safeJson(data));
    if (!parsed.success || parsed.data.storeId !== id) return { state: 'unreadable', words: `Store ${id} sent an open-orders list this page cannot read (a newer or older Packdesk?).` };
    return { state: 'ok', list: parsed.data };
  } finally {
    sub.unsubscribe();
    if (name) nc.publish(`${api}.CONSUMER.DELETE.${OPEN_STREAM}.${name}`, '');
  }
}
