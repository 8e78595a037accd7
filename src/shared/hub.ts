/**
 * What the counters of one store share through the store hub, as data: the shapes written to the
 * hub's buckets (each parsed with these schemas when read back: the hub is outside the process) and
 * shown on screens, in `doctor` and `packdesk hub status`. The rules that write them live in
 * src/main/core/hub; see docs/store-hub.md.
 */
import { z } from 'zod';
import { builtOnce } from './on-first-use';
import { ActionSchema, OrderIdSchema } from './protocol/schemas';

/** A counter's id in the hub: the terminal id, safe as a NATS subject token and KV key part. */
export const CounterIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'counter id: letters, digits, - and _ only');
export type CounterId = z.infer<typeof CounterIdSchema>;

/** A counter's name as people say it ("Counter 2"). */
export const CounterNameSchema = z.string().trim().min(1).max(40);

/** "Being packed at Counter 2": one order claimed by one counter, with its own expiry. */
/**
 * The inbox prefix of every counter's hub connection: replies and KV watch deliveries to counters
 * travel on it and may carry order bodies; they stay in the counters' account, which the chain link never reaches (core/hub/server/accounts.ts).
 */
export const HUB_INBOX_PREFIX = '_PDHUB';

export const claimSchema = builtOnce(() => z.object({
  orderId: OrderIdSchema,
  counterId: CounterIdSchema,
  counterName: CounterNameSchema,
  /** Who is packing, when the store signs packers in (issue 24); null: the counter's name stands in. */
  packer: z.string().max(60).nullable(),
  claimedAt: z.number(),
  renewedAt: z.number(),
  /** After this (epoch ms) the claim has lapsed and anyone may claim the order. */
  expiresAt: z.number(),
}));
export type Claim = z.infer<ReturnType<typeof claimSchema>>;

/** What asking to claim an order came to. */
export type ClaimOutcome =
  | { readonly kind: 'held'; readonly claim: Claim }
  | { readonly kind: 'taken'; readonly by: Claim }
  /** The hub cannot be asked (away, or this store runs without one): the packer may go on; screens say other counters cannot be checked. */
  | { readonly kind: 'unchecked' };

export const SharedTapStateSchema = z.enum(['waiting', 'sent', 'failed', 'discarded']);

/** One counter's tap as every counter sees it: its own outbox still sends it. */
export const sharedTapSchema = builtOnce(() => z.object({
  /** The tap's request id (unique store-wide). */
  requestId: z.string().min(1).max(128),
  orderId: OrderIdSchema,
  counterId: CounterIdSchema,
  counterName: CounterNameSchema,
  action: ActionSchema,
  /** Plain words, as the tapping counter's outbox shows it ("Mark PACKED"). */
  summary: z.string().max(200),
  state: SharedTapStateSchema,
  queuedAt: z.number(),
  sentAt: z.number().nullable(),
  /** Who made it (the packer signed in there); null: nobody was, the counter stands in. Absent from a counter before issue 39. */
  packer: z.string().max(60).nullable().optional(),
  /** Made while that counter could not ask the hub whether another counter had the order (the hub away, or no answer in time). */
  unchecked: z.boolean().optional(),
  /**
   * The other counters' taps on the order that counter had heard of when it made this one (request
   * ids); null or absent: not known (made before it joined a hub, or by a counter before issue 39).
   * Two taps neither of which had heard of the other were made apart (conflicts.ts).
   */
  seen: z.array(z.string().min(1).max(128)).max(256).nullable().optional(),
  /** A unit cut's count of its item before the cut ("was 3"), so every counter can print it. */
  unitsBefore: z.number().int().min(0).nullable().optional(),
}));
export type SharedTap = z.infer<ReturnType<typeof sharedTapSchema>>;

/** One counter in a conflict: who worked on the order there while the counters could not see each other. */
export const conflictPartySchema = builtOnce(() => z.object({
  counterId: CounterIdSchema,
  counterName: CounterNameSchema,
  /** The packers whose taps were made apart there (none: nobody was signed in, the counter stands in). */
  packers: z.array(z.string().min(1).max(60)).max(8),
}));
export type ConflictParty = z.infer<ReturnType<typeof conflictPartySchema>>;

/**
 * "Packed twice": an order that more than one counter tapped or claimed while they could not see
 * each other, found when they find each other again (core/hub/conflicts.ts). One record an order
 * in the hub, kept by every counter involved in its own file until a person settles it.
 */
export const conflictRecordSchema = builtOnce(() => z.object({
  orderId: OrderIdSchema,
  parties: z.array(conflictPartySchema()).min(2).max(8),
  /** The taps made apart that make the conflict (request ids), so one found again is known as the same. */
  taps: z.array(z.string().min(1).max(128)).max(256),
  /** When it was first found (the finding counter's clock). */
  raisedAt: z.number(),
  /** Who keeps the order, as a person settled it at one of the counters; null until then. */
  settled: z
    .object({
      keeperId: CounterIdSchema,
      keeperName: CounterNameSchema,
      byCounter: CounterNameSchema,
      byPacker: z.string().max(60).nullable(),
      at: z.number(),
    })
    .nullable(),
}));
export type ConflictRecord = z.infer<ReturnType<typeof conflictRecordSchema>>;

/** A counter's presence and health, written every few seconds and on change. */
export const counterPresenceSchema = builtOnce(() => z.object({
  counterId: CounterIdSchema,
  counterName: CounterNameSchema,
  version: z.string().max(40),
  /** When this was written (the counter's clock, epoch ms). */
  at: z.number(),
  tapsWaiting: z.number().int().min(0),
  oldestWaitingAt: z.number().nullable(),
  lastSentAt: z.number().nullable(),
  /** The counter's clock minus the order service's, in ms; null when not known yet. */
  clockDifferenceMs: z.number().nullable(),
  /** Whether the counter can reach the order service. */
  online: z.boolean(),
  /**
   * The packer signed in at the counter (names are one per store), so a packer signed in at two
   * counters at once is told so on both; absent from a counter of an older version. Never goes north.
   */
  packer: z.string().max(60).nullable().optional(),
}));
export type CounterPresence = z.infer<ReturnType<typeof counterPresenceSchema>>;

/** How this counter stands with the hub. */
export const HubModeSchema = z.enum([
  /** No hub configured: a one-counter store, as before. */
  'solo',
  /** Joined, talking to the hub: one intake per store, claims checked. */
  'connected',
  /** Joined, the hub has not answered yet (starting, or back after being away). */
  'connecting',
  /** Joined, the hub away long enough that this counter runs its own intake and alerts. */
  'away',
]);
export type HubMode = z.infer<typeof HubModeSchema>;

/** One counter as the Counters screen lists it. */
export const counterViewSchema = builtOnce(() => counterPresenceSchema().extend({
  /** Heard from within the presence window. */
  present: z.boolean(),
  isThisCounter: z.boolean(),
  holdsIntake: z.boolean(),
}));
export type CounterView = z.infer<ReturnType<typeof counterViewSchema>>;

/** The hub as this counter sees it: the sync bar, the Counters screen, `doctor`, `hub status`. */
export const hubStatusSchema = builtOnce(() => z.object({
  mode: HubModeSchema,
  /** This counter's role. */
  role: z.enum(['none', 'hub', 'counter']),
  counterId: CounterIdSchema.nullable(),
  counterName: CounterNameSchema.nullable(),
  /** When the mode last changed (epoch ms). */
  since: z.number().nullable(),
  /** The counter whose intake polls for the store, when known. */
  intakeHolder: z.object({ counterId: CounterIdSchema, counterName: CounterNameSchema }).nullable(),
  counters: z.array(counterViewSchema()),
  /** The hub's own health, on the hub PC (process running, restarts, storage used); null elsewhere. */
  server: z
    .object({
      running: z.boolean(),
      pid: z.number().int().nullable(),
      restarts: z.number().int().min(0),
      version: z.string().nullable(),
      listen: z.string(),
      problem: z.string().nullable(),
    })
    .nullable(),
  /** A problem in plain words (wrong code, certificate changed, hub away), or null. */
  problem: z.string().nullable(),
}));
export type HubStatus = z.infer<ReturnType<typeof hubStatusSchema>>;
