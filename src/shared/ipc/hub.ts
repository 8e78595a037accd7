/** The store hub's commands (joining, leaving, the join code) and what they answer. */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { CounterNameSchema, hubStatusSchema } from '../hub';
import { emptySchema, okSchema, pinSchema } from './shapes';

/** A store hub's join code, as text and as a barcode (SVG) for the join slip. */
export const hubJoinSchema = builtOnce(() => z.object({ code: z.string(), barcodeSvg: z.string() }));

export type HubJoin = z.infer<ReturnType<typeof hubJoinSchema>>;


/** The hub commands: name -> payload schema and result schema (built on first use by the contract). */
export const hubCommands = {
  /** The store hub as this counter sees it (a one-counter store: mode 'solo'). */
  'hub.status': () => ({ payload: emptySchema(), result: hubStatusSchema() }),
  /** Makes this counter the store's hub (manager); answers the join code other counters need. */
  'hub.create': () => ({ payload: z.object({ pin: pinSchema(), name: CounterNameSchema.optional() }).strict(), result: hubJoinSchema() }),
  /** The join code again, to show or print on a join slip (manager, on the hub). */
  'hub.joinCode': () => ({ payload: z.object({ pin: pinSchema() }).strict(), result: hubJoinSchema() }),
  /** Joins this counter to a store hub by its join code, typed or scanned (manager). */
  'hub.join': () => ({ payload: z.object({ pin: pinSchema(), code: z.string().trim().min(1).max(1000), name: CounterNameSchema.optional() }).strict(), result: hubStatusSchema() }),
  /** Leaves the store hub (a hub stops serving); the counter works alone again (manager). */
  'hub.leave': () => ({ payload: z.object({ pin: pinSchema() }).strict(), result: okSchema() }),
};
