/**
 * zod schemas for the two read calls of the order service (order-intake.md): `changes` (which
 * orders changed in a time window, page by page) and `status` (one order's current body, in the
 * `ORDER_VIEW` envelope of the platform's callbacks).
 */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { OrderSchema, responseContextSchema } from './schemas';

/** Paths of the read calls under `{base_url}`. */
export const CHANGES_PATH = '/tsp/order/v1/changes';
export const STATUS_PATH = '/tsp/order/v1/status';

const nonEmpty = (what: string) => z.string().trim().min(1, `${what} must not be empty`);
const epochMs = z.number().int().min(0);

export const changesRequestSchema = builtOnce(() => z.looseObject({
  requestContext: z.looseObject({ requestId: nonEmpty('requestId') }),
  serviceProviderId: nonEmpty('serviceProviderId'),
  fromTimestamp: epochMs,
  toTimestamp: epochMs,
  sortOrder: z.enum(['ASC', 'DESC']),
  nextPage: z.string().min(1).optional(),
  size: z.number().int().min(1),
}));
export type ChangesRequest = z.infer<ReturnType<typeof changesRequestSchema>>;

/** One page of the answer; an absent, null or empty `nextPage` means the last page. */
export const changesAnswerSchema = builtOnce(() => z.looseObject({
  requestContext: responseContextSchema().optional(),
  response: z.looseObject({
    orderIds: z.array(nonEmpty('orderId')),
    nextPage: z
      .string()
      .nullish()
      .transform((v) => (v === null || v === undefined || v === '' ? null : v)),
  }),
}));
export type ChangesAnswer = z.infer<ReturnType<typeof changesAnswerSchema>>;

export const statusRequestSchema = builtOnce(() => z.looseObject({
  requestContext: z.looseObject({ requestId: nonEmpty('requestId'), transactionId: nonEmpty('transactionId') }),
  orderId: nonEmpty('orderId'),
}));
export type StatusRequest = z.infer<ReturnType<typeof statusRequestSchema>>;

/** The `ORDER_VIEW` envelope around the same order as an update's success response. */
export const statusAnswerSchema = builtOnce(() => z.looseObject({
  // Absent is tolerated (the update answer has no type); another type is not an order view.
  type: z.literal('ORDER_VIEW').optional(),
  requestContext: responseContextSchema().optional(),
  response: OrderSchema,
}));
export type StatusAnswer = z.infer<ReturnType<typeof statusAnswerSchema>>;

/** Builds a `changes` request for one page. */
export function buildChangesRequest(input: {
  readonly requestId: string;
  readonly serviceProviderId: string;
  readonly fromTimestamp: number;
  readonly toTimestamp: number;
  readonly size: number;
  readonly nextPage?: string | null;
}): ChangesRequest {
  return changesRequestSchema().parse({
    requestContext: { requestId: input.requestId },
    serviceProviderId: input.serviceProviderId,
    fromTimestamp: input.fromTimestamp,
    toTimestamp: input.toTimestamp,
    sortOrder: 'ASC',
    size: input.size,
    ...(input.nextPage ? { nextPage: input.nextPage } : {}),
  });
}

/** Builds a `status` request; the order id doubles as transactionId, as in updates. */
export function buildStatusRequest(requestId: string, orderId: string): StatusRequest {
  return statusRequestSchema().parse({ requestContext: { requestId, transactionId: orderId }, orderId });
}
