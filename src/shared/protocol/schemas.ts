/**
 * zod schemas for every object of the order update service specification.
 * Objects are "loose": fields the service adds later pass through untouched.
 * Which response fields are always present is not specified, so only what Packdesk
 * cannot work without is required.
 */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';

// zod compiles a validator per object schema with `new Function` on its first use. For the order
// schema that cost 8-11 ms of CPU on the first tap after a start (bench/engine-start.ts), and the
// compiled validators parsed our order bodies no faster than the interpreter afterwards (about
// 0.05 ms a body either way). Pages with a CSP forbid it in any case (see the preload).
z.config({ jitless: true });

export {
  ACTION_TYPES,
  type ActionType,
  FULFILLMENT_STATES,
  type FulfillmentState,
  normalizeOrderState,
  ORDER_STATES,
  type OrderStateRequest,
  sameOrderState,
} from './vocabulary';
import { FULFILLMENT_STATES, ORDER_STATES } from './vocabulary';
import { orderIdProblem } from './orderId';

const nonEmpty = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

// ---- Token -------------------------------------------------------------------------------

export const tokenResponseSchema = builtOnce(() => z.looseObject({
  access_token: nonEmpty('access_token'),
  refresh_token: z.string().optional(),
  token_type: nonEmpty('token_type'),
  expires_in: z.number().int().positive(),
  expires_at: z.number().optional(),
  issued_at: z.number().optional(),
}));
export type TokenResponse = z.infer<ReturnType<typeof tokenResponseSchema>>;

// ---- Actions and request -----------------------------------------------------------------

export const FulfilmentStateUpdateSchema = z.looseObject({
  type: z.literal('ORDER_FULFILMENT_STATE_UPDATE'),
  fulfilmentId: nonEmpty('fulfilmentId'),
  fulfillmentState: z.enum(FULFILLMENT_STATES),
});
export const ItemUnitUpdateSchema = z.looseObject({
  type: z.literal('ITEM_UNIT_UPDATE'),
  itemId: nonEmpty('itemId'),
  itemUnits: z.number().int().min(0),
  reason: nonEmpty('reason'),
});
export const OrderStateUpdateSchema = z.looseObject({
  type: z.literal('ORDER_STATE_UPDATE'),
  orderState: z.enum(ORDER_STATES),
  reason: z.string().optional(),
});
export const ClientOrderInfoUpdateSchema = z.looseObject({
  type: z.literal('CLIENT_ORDER_INFO_UPDATE'),
  clientOrderInfo: z.looseObject({ sellerInvoiceId: nonEmpty('sellerInvoiceId') }),
});

export const ActionSchema = z.discriminatedUnion('type', [
  FulfilmentStateUpdateSchema,
  ItemUnitUpdateSchema,
  OrderStateUpdateSchema,
  ClientOrderInfoUpdateSchema,
]);
export type Action = z.infer<typeof ActionSchema>;
export type FulfilmentStateUpdate = z.infer<typeof FulfilmentStateUpdateSchema>;
export type ItemUnitUpdate = z.infer<typeof ItemUnitUpdateSchema>;
export type OrderStateUpdate = z.infer<typeof OrderStateUpdateSchema>;
export type ClientOrderInfoUpdate = z.infer<typeof ClientOrderInfoUpdateSchema>;

export const requestContextSchema = builtOnce(() => z.looseObject({
  requestId: nonEmpty('requestId'),
  transactionId: nonEmpty('transactionId'),
  actionType: z.literal('UPDATE'),
}));

export const orderUpdateRequestSchema = builtOnce(() => z.looseObject({
  requestContext: requestContextSchema(),
  orderId: nonEmpty('orderId'),
  actions: z.array(ActionSchema).min(1, 'at least one action is needed'),
}));
export type OrderUpdateRequest = z.infer<ReturnType<typeof orderUpdateRequestSchema>>;

// ---- Order -------------------------------------------------------------------------------

// ---- Ranges -------------------------------------------------------------------------------
// Every number and date of an order that reaches a screen, a slip or a sum is checked here, where
// it enters: a body that breaks one is set aside as unreadable (and kept for support), never
// allowed to break the queue for every other order (a sum past 2^53, a date of 1e300).

/** An order id by the one id rule (`orderIdProblem`). */
export const OrderIdSchema = z.string().superRefine((value, ctx) => {
  const problem = orderIdProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `order id ${problem}` });
});

/** The most units one item line may have: what a tap may set (actionInputSchema()), and sums stay exact. */
export const MAX_UNITS = 100_000;
/** The largest amount of money believed (in rupees): a price, a total, a line of the break-up. */
export const MAX_AMOUNT = 1_000_000_000;
/** Promised, expected and actual times an order may name (epoch ms): from 2000 to 2100. */
export const PLAUSIBLE_TIME = { min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) } as const;

const UnitCount = z.number().int().min(0).max(MAX_UNITS);
const Amount = z.number().min(-MAX_AMOUNT).max(MAX_AMOUNT);
const ValueSchema = z.looseObject({ value: Amount });

/**
 * A moment as the service writes it: an ISO 8601 string (update specification) or epoch
 * milliseconds (the platform's callback sample). Kept as an ISO string past this point, so code
 * and the orders cache see one form.
 */
export const TimestampSchema = z
  .union([z.string(), z.number().int().min(0).max(8_640_000_000_000_000)])
  .transform((v) => (typeof v === 'number' ? new Date(v).toISOString() : v));
const EndTimeSchema = z.looseObject({
  endTime: z
    .number()
    .min(PLAUSIBLE_TIME.min, 'a time before the year 2000')
    .max(PLAUSIBLE_TIME.max, 'a time after the year 2100'),
});

export const AddressSchema = z.looseObject({
  building: z.string().optional(),
  locality: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  country: z.string().optional(),
  pincode: z.string().optional(),
  formattedAddress: z.string().optional(),
  lat: z.number().min(-90).max(90).optional(),
  lon: z.number().min(-180).max(180).optional(),
});
export type Address = z.infer<typeof AddressSchema>;

export const ItemSchema = z.looseObject({
  itemId: nonEmpty('itemId'),
  name: z.string().optional(),
  platformItemId: z.string().optional(),
  serviceProviderItemId: z.string().optional(),
  fulfillmentId: z.string().optional(),
  quantity: z.looseObject({ count: UnitCount }),
  price: ValueSchema.optional(),
  sellingPrice: ValueSchema.optional(),
  images: z.array(z.looseObject({ image: z.string() })).optional(),
  prescriptionRequired: z.boolean().optional(),
  displayMeasurement: z.string().optional(),
});
export type Item = z.infer<typeof ItemSchema>;

// A time outside PLAUSIBLE_TIME (1e300, -1e20) is dropped, not the order: the order can still be
// packed, and the screens show no time rather than an impossible one ("Invalid time value", a
// lateness of 2,77,77,77,82,7… h).
const PlausibleEndTime = EndTimeSchema.optional().catch(undefined);

export const StatusHistoryEntrySchema = z.looseObject({
  actual: PlausibleEndTime,
  expected: PlausibleEndTime,
  promised: PlausibleEndTime,
});
export type StatusHistoryEntry = z.infer<typeof StatusHistoryEntrySchema>;

export const FulfillmentSchema = z.looseObject({
  fulfillmentId: nonEmpty('fulfillmentId'),
  type: z.string(),
  ownerType: z.string().optional(),
  end: z
    .looseObject({
      address: AddressSchema.optional(),
      contact: z.looseObject({ phone: z.string().optional() }).optional(),
      person: z.looseObject({ name: z.string().optional() }).optional(),
    })
    .optional(),
  fulfillmentState: z.string().optional(),
  fulfilmentStatusHistory: z.record(z.string(), StatusHistoryEntrySchema).optional(),
});
export type Fulfillment = z.infer<typeof FulfillmentSchema>;

export const BreakUpSchema = z.looseObject({
  referenceId: z.string().optional(),
  type: z.string().optional(),
  quotationLevel: z.string().optional(),
  title: z.string().optional(),
  price: ValueSchema.optional(),
  quantity: z.looseObject({ count: UnitCount }).optional(),
});

export const QuoteSchema = z.looseObject({
  price: ValueSchema.optional(),
  breakUp: z.array(BreakUpSchema).optional(),
});

export const OrderActionSchema = z.looseObject({
  type: z.string(),
  channel: z.string().optional(),
  createdAt: TimestampSchema.optional(),
});

export const BillingSchema = z.looseObject({
  name: z.string().optional(),
  address: AddressSchema.optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  createdAt: TimestampSchema.optional(),
  updatedAt: TimestampSchema.optional(),
});

export const OrderSchema = z.looseObject({
  id: OrderIdSchema,
  items: z.array(ItemSchema),
  orderState: z.string(),
  serviceProvider: z.looseObject({ id: z.string().optional(), platformId: z.string().optional() }).optional(),
  billing: BillingSchema.optional(),
  fulfillments: z.array(FulfillmentSchema),
  quote: QuoteSchema.optional(),
  actions: z.array(OrderActionSchema).optional(),
  createdAt: TimestampSchema.optional(),
  updatedAt: TimestampSchema.optional(),
});
export type Order = z.infer<typeof OrderSchema>;

// ---- Responses ---------------------------------------------------------------------------

export const responseContextSchema = builtOnce(() => z.looseObject({
  requestId: z.string().optional(),
  transactionId: z.string().optional(),
}));

export const orderUpdateSuccessSchema = builtOnce(() => z.looseObject({
  requestContext: responseContextSchema().optional(),
  response: OrderSchema,
}));
export type OrderUpdateSuccess = z.infer<ReturnType<typeof orderUpdateSuccessSchema>>;

export const errorResponseSchema = builtOnce(() => z.looseObject({
  requestContext: responseContextSchema().optional(),
  error: z.looseObject({ errorCode: z.string(), message: z.string() }),
}));
export type ErrorResponse = z.infer<ReturnType<typeof errorResponseSchema>>;

/** `NOT_FOUND` (update specification) and `ORDER_NOT_FOUND` (platform documents) are one condition. */
export function isOrderNotFound(errorCode: string | undefined): boolean {
  return errorCode === 'NOT_FOUND' || errorCode === 'ORDER_NOT_FOUND';
}

/** Turns a zod error into one line a support person can read. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}
