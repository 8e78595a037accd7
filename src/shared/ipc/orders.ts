/**
 * Orders as the screens see them (a view, a queue row, its facts, alarms and conflicts, search
 * hits) and the commands on orders and taps.
 */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { ActionSchema, FULFILLMENT_STATES, OrderSchema } from '../protocol/schemas';
import { claimSchema, CounterIdSchema, CounterNameSchema, SharedTapStateSchema } from '../hub';
import { MATCH_KINDS } from '../orders/match';
import { outboxEntryViewSchema } from './outbox';
import { actionInputSchema, emptySchema, idSchema, nextStepSchema, okSchema, orderIdInputSchema, pinSchema } from './shapes';
import { DaySchema } from './shift';

/**
 * An order this terminal had taps on, cancelled or with its items changed by someone else (the
 * marketplace, another counter): said loudly until a person acknowledges it.
 */
export const orderAlarmSchema = builtOnce(() => z.object({
  kind: z.enum(['cancelled', 'items']),
  /** When the service changed the order (epoch ms). */
  changedAt: z.number(),
  raisedAt: z.number(),
}));

export type OrderAlarm = z.infer<ReturnType<typeof orderAlarmSchema>>;


/** An item to put back at a counter that did not keep an order packed twice: what it scanned, cut, or (neither known) the whole line. */
export const putBackItemSchema = builtOnce(() => z.object({
  itemId: z.string(),
  units: z.number().int().min(0),
  why: z.enum(['scanned', 'cut', 'picked']),
}));

export type PutBackItem = z.infer<ReturnType<typeof putBackItemSchema>>;


/**
 * "Packed twice": this counter and another (or more) worked on the order while they could not see
 * each other. Shown loudly until a person settles who keeps it; then, at a counter that does not
 * keep it, what to put back until a person there says it is done. Absent otherwise.
 */
export const orderConflictSchema = builtOnce(() => z.object({
  parties: z.array(z.object({ counterId: CounterIdSchema, counterName: CounterNameSchema, packers: z.array(z.string()), here: z.boolean() })),
  raisedAt: z.number(),
  settled: z
    .object({ keeperName: CounterNameSchema, keeperHere: z.boolean(), byCounter: CounterNameSchema, byPacker: z.string().nullable(), at: z.number() })
    .nullable(),
  /** At a counter that does not keep the order: what to put back. */
  putBack: z.array(putBackItemSchema()).optional(),
}));

export type OrderConflict = z.infer<ReturnType<typeof orderConflictSchema>>;


/** Another counter's tap on an order, as this counter shows it. */
export const elsewhereTapSchema = builtOnce(() => z.object({
  counterName: CounterNameSchema,
  /** The other counter's own words for it (English); `action` is worded here, in this counter's language, with the items' names. */
  summary: z.string(),
  action: ActionSchema.optional(),
  state: SharedTapStateSchema,
  queuedAt: z.number(),
}));

export type ElsewhereTap = z.infer<ReturnType<typeof elsewhereTapSchema>>;


/** An item this terminal cut: how many units it had before its first cut, and the latest cut's reason code. */
export const itemCutSchema = builtOnce(() => z.object({
  itemId: z.string(),
  was: z.number().int().nonnegative(),
  reason: z.string(),
}));

export type ItemCut = z.infer<ReturnType<typeof itemCutSchema>>;


/** One order on the terminal: the service's latest answer with still-queued taps applied. */
export const orderViewSchema = builtOnce(() => z.object({
  id: z.string(),
  /** Projected order; null until the service has answered for it once. */
  order: OrderSchema.nullable(),
  nextStep: nextStepSchema().nullable(),
  /** Taps queued or sending. */
  waiting: z.number().int(),
  /** Taps failed, holding the order. */
  failed: z.number().int(),
  mayBeApplied: z.boolean(),
  /** The last answer could not be read; the order should be refreshed. */
  needsRefresh: z.boolean(),
  promisedPackedAt: z.number().nullable(),
  /** When the service's latest answer for this order arrived. */
  syncedAt: z.number().nullable(),
  addedAt: z.number(),
  /** The service's latest answer could not be read (numbers, dates or id out of range): set aside, named in the queue and `doctor`. */
  unreadable: z.boolean().optional(),
  /** Cancelled or changed elsewhere and not yet acknowledged; absent otherwise. */
  alarm: orderAlarmSchema().optional(),
  /** With a store hub: the counter packing this order (`here`: this one), as last heard; absent when unclaimed. */
  claim: claimSchema().extend({ here: z.boolean() }).optional(),
  /** With a store hub: other counters' taps on this order that their outboxes have not sent yet (already laid over `order`). */
  elsewhere: z.array(elsewhereTapSchema()).optional(),
  /** With a store hub: packed twice while the counters could not see each other, until settled and put right here. */
  conflict: orderConflictSchema().optional(),
  /**
   * With a store hub: another counter packing this order has its alarm raised (cancelled or changed
   * by someone else) and not yet acknowledged there: every other counter shows a red line.
   */
  alarmElsewhere: z.object({ kind: z.enum(['cancelled', 'items']), changedAt: z.number(), counterName: CounterNameSchema, packer: z.string().nullable() }).optional(),

  /** Items this terminal cut ("was 3: Item unavailable"); absent when none, and on the queue's rows. */
  cuts: z.array(itemCutSchema()).optional(),
}));

export type OrderView = z.infer<ReturnType<typeof orderViewSchema>>;


/** What the queue shows of an order's body: read off it once by the main side (`summarize`). */
export const orderFactsSchema = builtOnce(() => z.object({
  /** The service's order state as it sent it ("Accepted"); empty when it sent none. */
  orderState: z.string(),
  /** The billing name, else the person at a fulfilment's end; null when the order names nobody. */
  customer: z.string().nullable(),
  /** Item lines and the units over all of them. */
  lines: z.number().int().min(0),
  units: z.number().int().min(0),
  /** Any item needs a prescription checked. */
  prescription: z.boolean(),
  /**
   * The furthest fulfilment step the order has reached (PACKING, PACKED, OUT_FOR_DELIVERY,
   * DELIVERED…) while it is accepted or in progress: the step a packer knows, which the order state
   * ("Accepted", "In progress") does not say. Absent before packing starts and once it is finished.
   */
  step: z.string().optional(),
}));

export type OrderFacts = z.infer<ReturnType<typeof orderFactsSchema>>;


/**
 * One queue row: an order's view without its body, only the facts a row shows. The queue lists
 * every order on the terminal (thousands), so it carries a few hundred bytes an order rather than
 * the body's several kilobytes; a screen that needs the body (the order, a slip) reads it with
 * `orders.get`, and `orders.changed` brings whole views.
 */
export const orderSummarySchema = builtOnce(() => orderViewSchema().omit({ order: true }).extend({
  /** Null until the service has answered for the order once (as `order` in the view). */
  facts: orderFactsSchema().nullable(),
}));

export type OrderSummary = z.infer<ReturnType<typeof orderSummarySchema>>;


/** Filter keys of the queue: a next step, or DONE for orders with nothing left to do. */
export const STEP_FILTER_KEYS = ['ACCEPT', ...FULFILLMENT_STATES, 'COMPLETE', 'DONE'] as const;

export type StepFilterKey = (typeof STEP_FILTER_KEYS)[number];

/** How many orders each filter holds. */
export const stepCountsSchema = builtOnce(() => z.object(
  Object.fromEntries(STEP_FILTER_KEYS.map((k) => [k, z.number().int().min(0)])) as Record<StepFilterKey, z.ZodNumber>,
));

export type StepCounts = Record<StepFilterKey, number>;


/**
 * The queue's first screenful without the rest: the ids of every order in queue order (the list's
 * length and scroll, which orders are known), the rows of the first few, and the count per step.
 * The renderer draws the first screen from it and reads `orders.list` once that is painted.
 */
export const queueHeadSchema = builtOnce(() => z.object({
  ids: z.array(orderSummarySchema().shape.id),
  rows: z.array(orderSummarySchema()),
  counts: stepCountsSchema(),
}));

export type QueueHead = z.infer<ReturnType<typeof queueHeadSchema>>;


/** What the order finder answers: the orders typed text found (a short list), and how each matched. */
export const ordersFoundSchema = builtOnce(() => z.object({
  matches: z.array(z.object({ order: orderSummarySchema(), by: z.enum(MATCH_KINDS) })),
  /** More orders matched than the list holds: the packer types more. */
  more: z.boolean(),
}));

export type OrdersFound = z.infer<ReturnType<typeof ordersFoundSchema>>;


/**
 * The Orders search's filter by where an order stands: something still to do here, nothing left to
 * do (still on the terminal), or gone from the terminal (its id and history kept, its details not).
 */
export const SEARCH_STANDINGS = ['open', 'done', 'left'] as const;

export type SearchStanding = (typeof SEARCH_STANDINGS)[number];


/** Most orders one Orders search lists: a screenful or two; more asks for more of the text or a day. */
export const SEARCH_LIMIT = 50;


/** One order the Orders search found. */
export const orderHitSchema = builtOnce(() => z.object({
  id: z.string(),
  /** How the text found it; 'day' when no text was given and the day listed it. */
  by: z.enum([...MATCH_KINDS, 'day']),
  standing: z.enum(SEARCH_STANDINGS),
  addedAt: z.number(),
  /** Its queue row while it is on the terminal; null once it has left. */
  order: orderSummarySchema().nullable(),
  /** When it left the terminal (epoch ms), or null while on it. */
  leftAt: z.number().nullable(),
}));

export type OrderHit = z.infer<ReturnType<typeof orderHitSchema>>;


export const ordersSearchedSchema = builtOnce(() => z.object({
  hits: z.array(orderHitSchema()),
  /** More orders matched than the list holds. */
  more: z.boolean(),
}));

export type OrdersSearched = z.infer<ReturnType<typeof ordersSearchedSchema>>;


/** The orders commands: name -> payload schema and result schema (built on first use by the contract). */
export const ordersCommands = {
  /** Every order on the terminal as a queue row (no bodies). */
  'orders.list': () => ({ payload: emptySchema(), result: z.array(orderSummarySchema()) }),
  'orders.get': () => ({ payload: z.object({ orderId: orderIdInputSchema() }).strict(), result: orderViewSchema().nullable() }),
  /** A scanned or typed order id: opens it, or adds it to the terminal when new. */
  'orders.add': () => ({ payload: z.object({ orderId: orderIdInputSchema() }).strict(), result: orderViewSchema() }),
  /** Finds orders on the terminal by typed text: an id, its last digits, the customer's name or phone, the invoice number. */
  'orders.find': () => ({ payload: z.object({ text: idSchema() }).strict(), result: ordersFoundSchema() }),
  /**
   * The Orders search: typed text (as orders.find reads it) or a day's arrivals, orders that left
   * the terminal included, filtered by where they stand and the day they arrived.
   */
  'orders.search': () => ({
    payload: z
      .object({ text: z.union([z.string().trim().length(0), idSchema()]), standing: z.enum(SEARCH_STANDINGS).optional(), day: DaySchema.optional() })
      .strict(),
    result: ordersSearchedSchema(),
  }),
  /** Takes an order off the terminal when none of its taps reached the service (a code scanned by mistake). */
  'orders.remove': () => ({ payload: z.object({ orderId: orderIdInputSchema() }).strict(), result: okSchema() }),
  /** The queue's first `rows` rows, every id in queue order and the counts per step: the first screen before the whole list. */
  'orders.head': () => ({ payload: z.object({ rows: z.number().int().min(1).max(500) }).strict(), result: queueHeadSchema() }),
  /** A person has seen the order's alarm (cancelled or changed elsewhere): it stops sounding. */
  'orders.acknowledge': () => ({ payload: z.object({ orderId: orderIdInputSchema() }).strict(), result: okSchema() }),
  'taps.submit': () => ({
    payload: z.object({ orderId: orderIdInputSchema(), input: actionInputSchema(), pin: pinSchema().optional() }).strict(),
    result: outboxEntryViewSchema(),
  }),
  'taps.undo': () => ({ payload: z.object({ entryId: z.number().int().positive() }).strict(), result: okSchema() }),
  /** Takes over an order another counter is packing (a confirmed act; that counter is told). */
  'orders.takeOver': () => ({ payload: z.object({ orderId: orderIdInputSchema() }).strict(), result: claimSchema() }),
  /** An order packed twice while the counters were apart: a person chose which counter keeps it. */
  'orders.settleConflict': () => ({ payload: z.object({ orderId: orderIdInputSchema(), keeperId: CounterIdSchema }).strict(), result: okSchema() }),
  /** At a counter that did not keep an order packed twice: its items are back on the shelf. */
  'orders.putBack': () => ({ payload: z.object({ orderId: orderIdInputSchema() }).strict(), result: okSchema() }),
};
