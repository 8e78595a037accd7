/**
 * Shapes every part of the IPC contract uses: ids, PINs, a problem, words, a tap's input, a next
 * step.
 */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { FULFILLMENT_STATES, ORDER_STATES, OrderIdSchema } from '../protocol/schemas';
import { idFault } from '../protocol/builders';

export const idSchema = builtOnce(() => z
  .string()
  .trim()
  .min(1)
  .max(128)
  .superRefine((value, ctx) => {
    const fault = idFault(value);
    if (fault) ctx.addIssue({ code: 'custom', message: `The id ${fault}` });
  }));

/** An order id from the renderer: trimmed, then the one id rule (OrderIdSchema). */
export const orderIdInputSchema = builtOnce(() => z.string().trim().pipe(OrderIdSchema));

export const pinSchema = builtOnce(() => z.string().regex(/^\d{4,8}$/, 'PIN must be 4 to 8 digits'));


export const ProblemSchema = z.object({
  kind: z.enum(['transient', 'auth', 'permanent', 'invalid', 'storage']),
  message: z.string(),
  code: z.string().optional(),
  /** What the code's sentence needs filled in (order id, count, wait…), so the renderer can say it in the packer's language. */
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});


/** A sentence by code and values: the renderer words it in the staff's language. */
export const wordsSchema = builtOnce(() => z.object({
  code: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
}));

export type Words = z.infer<ReturnType<typeof wordsSchema>>;


export const actionInputSchema = builtOnce(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fulfilment'), fulfilmentId: idSchema(), state: z.enum(FULFILLMENT_STATES) }),
  z.object({ kind: z.literal('units'), itemId: idSchema(), units: z.number().int().min(0).max(100_000), reason: idSchema() }),
  z.object({ kind: z.literal('orderState'), state: z.enum(ORDER_STATES), reason: idSchema().optional() }),
  z.object({ kind: z.literal('invoice'), sellerInvoiceId: idSchema() }),
]));


export const nextStepSchema = builtOnce(() => z.object({
  key: z.enum(['ACCEPT', ...FULFILLMENT_STATES, 'COMPLETE']),
  label: z.string(),
  fulfilmentId: z.string().optional(),
}));


export const emptySchema = builtOnce(() => z.object({}).strict());

export const okSchema = builtOnce(() => z.object({ done: z.literal(true) }));
