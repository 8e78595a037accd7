/**
 * The read calls of the order service (order-intake.md): `changes` (ids of orders placed or changed
 * in a window, in pages behind an opaque cursor, rate limited) and `status` (one order in the
 * `ORDER_VIEW` envelope).
 */
import { z } from 'zod';
import { changesRequestSchema, statusRequestSchema } from '../src/shared/protocol/intake';
import { describeZodError } from '../src/shared/protocol/schemas';
import { type Answer, type EchoContext, errorAnswer } from './answers';
import type { OrderBook } from './orders';
import type { Faults } from './types';

export interface ReadOptions {
  readonly book: OrderBook;
  readonly now: () => number;
  readonly maxPageSize: number;
  readonly minIntervalMs: number;
  /** The faults in force (`changesNextPage`). */
  readonly faults: () => Faults;
}

// The cursor is opaque to clients; inside it names the window and where the next page starts.
const CursorSchema = z.object({ f: z.number(), t: z.number(), o: z.number().int().min(0) });

const encodeCursor = (c: z.infer<typeof CursorSchema>): string => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(text: string): z.infer<typeof CursorSchema> | null {
  try {
    const parsed = CursorSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Where a `nextPage` this service gave out starts (offset in its window's ids); undefined for anything else. */
export function pageOffset(nextPage: unknown): number | undefined {
  return typeof nextPage === 'string' ? decodeCursor(nextPage)?.o : undefined;
}

/** Handles `changes` and `status` bodies (auth and gateway faults are checked by the caller). */
export function createReads(options: ReadOptions) {
  let lastFirstPageAt: number | null = null;

  return {
    /** One page of `changes`. */
    changes(json: unknown, context: EchoContext): Answer {
      const request = changesRequestSchema().safeParse(json);
      if (!request.success) return errorAnswer(400, context, 'INVALID_REQUEST', describeZodError(request.error));
      const r = request.data;
      const echo = { requestId: r.requestContext.requestId };
      const now = options.now();
      if (r.nextPage === undefined) {
        // Only a new pass counts towards the rate limit: reading the pages of one window is one poll.
        if (lastFirstPageAt !== null && options.minIntervalMs > 0 && now - lastFirstPageAt < options.minIntervalMs) {
          const wait = Math.max(1, Math.ceil((lastFirstPageAt + options.minIntervalMs - now) / 1000));
          return errorAnswer(429, echo, 'RATE_LIMITED', `Polled too often; retry after ${wait} s`, { 'Retry-After': String(wait) });
        }
        lastFirstPageAt = now;
      }
      if (r.fromTimestamp > r.toTimestamp) return errorAnswer(400, echo, 'INVALID_REQUEST', 'fromTimestamp is after toTimestamp');
      let from = r.fromTimestamp;
      let to = r.toTimestamp;
      let offset = 0;
      if (r.nextPage !== undefined) {
        const cursor = decodeCursor(r.nextPage);
        if (!cursor) return errorAnswer(400, echo, 'INVALID_REQUEST', 'nextPage is not a cursor this service gave out');
        ({ f: from, t: to, o: offset } = cursor);
      }
      const size = Math.min(r.size, options.maxPageSize);
      const ids = options.book.changedBetween(r.serviceProviderId, from, to);
      const page = ids.slice(offset, offset + size);
      const mode = options.faults().changesNextPage;
      // Faults: a service that repeats the cursor it was given, or one whose pages never end.
      const more = mode === 'endless' || (mode === 'repeat' ? true : offset + size < ids.length);
      const nextPage = mode === 'repeat' && r.nextPage !== undefined ? r.nextPage : encodeCursor({ f: from, t: to, o: offset + size });
      const response = { orderIds: page, ...(more ? { nextPage } : {}) };
      return { status: 200, body: JSON.stringify({ requestContext: echo, response }) };
    },

    /** One `status` call. */
    status(json: unknown, context: EchoContext): Answer {
      const request = statusRequestSchema().safeParse(json);
      if (!request.success) return errorAnswer(400, context, 'INVALID_REQUEST', describeZodError(request.error));
      const { requestContext, orderId } = request.data;
      const echo = { requestId: requestContext.requestId, transactionId: requestContext.transactionId };
      const order = options.book.get(orderId);
      // The platform's documents answer an unknown order with 404 ORDER_NOT_FOUND.
      if (!order) return errorAnswer(404, echo, 'ORDER_NOT_FOUND', `Order ${orderId} was not found`);
      return { status: 200, body: JSON.stringify({ type: 'ORDER_VIEW', requestContext: echo, response: order }) };
    },
  };
}
