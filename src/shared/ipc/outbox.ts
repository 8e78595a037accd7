/** The outbox as the screens see it: a tap's entry and its state; and the outbox's commands. */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { ActionSchema } from '../protocol/schemas';
import { emptySchema, okSchema, pinSchema, ProblemSchema } from './shapes';

export const EntryStateSchema = z.enum(['queued', 'sending', 'sent', 'failed', 'discarded']);

export type EntryState = z.infer<typeof EntryStateSchema>;


/** One outbox entry as the UI and the CLI show it. */
export const outboxEntryViewSchema = builtOnce(() => z.object({
  id: z.number().int(),
  requestId: z.string(),
  orderId: z.string(),
  action: ActionSchema,
  /** Plain words: "Mark PACKED", "Cut Paracetamol to 1 unit (Item unavailable)". */
  summary: z.string(),
  state: EntryStateSchema,
  createdAt: z.number(),
  /** End of the undo window (epoch ms); not sent before. */
  sendAfter: z.number(),
  attempts: z.number().int(),
  nextAttemptAt: z.number().nullable(),
  lastError: ProblemSchema.nullable(),
  /** An earlier attempt ended without an answer and a later one was refused: it may have landed. */
  mayBeApplied: z.boolean(),
  sentAt: z.number().nullable(),
  /** Who made the tap: the packer signed in at the counter then; null: nobody was (the counter's name stands in). */
  packer: z.string().nullable(),
  /** A unit cut's count of its item before it; absent for other taps. */
  unitsBefore: z.number().int().min(0).optional(),
  /**
   * With a store hub: whether other counters could not be checked when the tap was made, and which
   * of their taps on the order this counter had heard of then (request ids). Absent: no hub.
   */
  hub: z.object({ unchecked: z.boolean(), seen: z.array(z.string()) }).optional(),
}));

export type OutboxEntryView = z.infer<ReturnType<typeof outboxEntryViewSchema>>;


/** The outbox commands: name -> payload schema and result schema (built on first use by the contract). */
export const outboxCommands = {
  'outbox.list': () => ({ payload: emptySchema(), result: z.array(outboxEntryViewSchema()) }),
  'outbox.retry': () => ({ payload: z.object({ entryId: z.number().int().positive() }).strict(), result: okSchema() }),
  'outbox.discard': () => ({ payload: z.object({ entryId: z.number().int().positive(), pin: pinSchema() }).strict(), result: okSchema() }),
};
