/**
 * What flows north from a store hub to the chain's central NATS system, defined once: each
 * counter's health and the store's summary, as zod schemas, and the subjects and streams they
 * travel on. Only figures, versions, ids and times: never a customer's name, phone or address,
 * never an order body and never a secret (the schemas are strict, so an extra field is refused at
 * both ends). See docs/fleet.md.
 */
import { z } from 'zod';
import { CounterIdSchema, CounterNameSchema } from '../../../../shared/hub';
import { CHAIN_STREAMS, NORTH_PREFIX, NORTH_STREAM } from '../registry';

/** A store's id: its JetStream domain and a subject token, so letters, digits, - and _ only. */
export const StoreIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'store id: letters, digits, - and _ only');
export type StoreId = z.infer<typeof StoreIdSchema>;

/** Storage warnings a counter may raise, as codes (never a path or a message that could carry data). */
export const StorageWarningSchema = z.enum(['disk-low', 'data-file-large', 'data-file-damaged', 'backup-failed', 'data-file-unwritable']);
export type StorageWarning = z.infer<typeof StorageWarningSchema>;

/** One counter's presence and health, sent every 10 s and on change. Times are the counter's clock, epoch ms. */
export const CounterHealthSchema = z
  .object({
    kind: z.literal('counter'),
    storeId: StoreIdSchema,
    counterId: CounterIdSchema,
    counterName: CounterNameSchema,
    version: z.string().max(40),
    /** Counts up from 1 each time the counter starts sending: lets the centre see a gap or a double. */
    seq: z.number().int().min(1),
    /** When the counter started sending (with seq, unique per message). */
    runAt: z.number(),
    at: z.number(),
    tapsWaiting: z.number().int().min(0),
    oldestWaitingAt: z.number().nullable(),
    lastSentAt: z.number().nullable(),
    /** Whether the counter can reach the order service. */
    online: z.boolean(),
    /** The counter's clock minus the order service's, in ms; null when not known yet. */
    clockDifferenceMs: z.number().nullable(),
    /** When the counter's intake last finished a pass (its own or the store's); null: never. */
    lastIntakeAt: z.number().nullable(),
    storageWarnings: z.array(StorageWarningSchema).max(10),
  })
  .strict();
export type CounterHealth = z.infer<typeof CounterHealthSchema>;

/** The store's orders in figures, sent by the hub PC every 10 s and on change. */
export const StoreSummarySchema = z
  .object({
    kind: z.literal('summary'),
    storeId: StoreIdSchema,
    seq: z.number().int().min(1),
    runAt: z.number(),
    at: z.number(),
    awaitingAccept: z.number().int().min(0),
    beingPacked: z.number().int().min(0),
    late: z.number().int().min(0),
    cancelledAlarmsOpen: z.number().int().min(0),
  })
  .strict();
export type StoreSummary = z.infer<typeof StoreSummarySchema>;

export const NorthMessageSchema = z.discriminatedUnion('kind', [CounterHealthSchema, StoreSummarySchema]);
export type NorthMessage = z.infer<typeof NorthMessageSchema>;

/** The stream on each store hub (in the chain's account, the store's domain) that keeps what flows north while the link is down; its subjects start with NORTH_PREFIX. */
export { NORTH_PREFIX, NORTH_STREAM };
/** The stream on the central system that sources every store's NORTH_STREAM. */
export const FLEET_STREAM = 'PACKDESK_FLEET';
/** How often a counter and the store summary are sent when nothing changed. */
export const NORTH_EVERY_MS = 10_000;
/** How long a store hub keeps what flows north when cut off from the centre. */
export const NORTH_KEEP_MS = CHAIN_STREAMS.north.maxAgeMs;

/** The subject a message travels on: one per counter, one for the store's summary. */
export function northSubject(message: NorthMessage): string {
  return message.kind === 'counter'
    ? `${NORTH_PREFIX}.${message.storeId}.counter.${message.counterId}`
    : `${NORTH_PREFIX}.${message.storeId}.summary`;
}

/** The id the stream drops a double by (a publish retried after a lost answer). */
export function northMessageId(message: NorthMessage): string {
  const who = message.kind === 'counter' ? message.counterId : 'summary';
  return `${message.storeId}.${who}.${message.runAt}.${message.seq}`;
}
