/**
 * Fault injection, switchable at run time. The state here is pure data plus the seeded draw for
 * the error rate; the HTTP layer decides where each fault bites.
 */
import { z } from 'zod';
import { describeZodError } from '../src/shared/protocol/schemas';
import { fail, ok, type Result } from '../src/shared/result';
import { mulberry32, type Random } from './prng';
import type { BadStatusAnswer, Faults } from './types';

/** No faults at all. */
export function noFaults(expiredStatus: 401 | 412): Faults {
  return {
    latencyMs: 0,
    errorRate: 0,
    outage: 'none',
    rateLimit: { count: 0, retryAfterSeconds: 1 },
    malformedBodies: 0,
    refuseRefresh: false,
    rejectCredentials: false,
    expiredStatus,
    readsRateLimit: { count: 0, retryAfterSeconds: 1 },
    dedupe: true,
    dropAfterApply: 0,
    emptyUpdateAnswers: 0,
    forbidReads: { changes: false, status: false },
    tokenClockOffsetMs: 0,
    changesEveryMs: 0,
    changesNextPage: 'normal',
    badStatus: { answer: 'none', count: 0, orderIds: [] },
  };
}

const count = z.number().int().min(0).max(1_000_000);

/** A patch to the faults, as the admin API and `faults.set` accept it; unknown keys are refused so typos show. */
export const FaultsPatchSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  outage: z.enum(['none', 'refuse', 'hang', 'reset']).optional(),
  rateLimit: z.strictObject({ count, retryAfterSeconds: z.number().int().min(0).max(86_400) }).optional(),
  malformedBodies: count.optional(),
  refuseRefresh: z.boolean().optional(),
  rejectCredentials: z.boolean().optional(),
  expiredStatus: z.union([z.literal(401), z.literal(412)]).optional(),
  readsRateLimit: z.strictObject({ count, retryAfterSeconds: z.number().int().min(0).max(86_400), call: z.enum(['changes', 'status']).optional() }).optional(),
  dedupe: z.boolean().optional(),
  dropAfterApply: count.optional(),
  emptyUpdateAnswers: count.optional(),
  forbidReads: z.strictObject({ changes: z.boolean(), status: z.boolean() }).optional(),
  // Up to ten years either way: a token server set to another year is one of the faults to show.
  tokenClockOffsetMs: z.number().int().min(-3.2e11).max(3.2e11).optional(),
  changesEveryMs: z.number().int().min(0).max(3_600_000).optional(),
  changesNextPage: z.enum(['normal', 'repeat', 'endless']).optional(),
  badStatus: z
    .strictObject({
      answer: z.enum(['none', 'cut', 'otherView', 'empty', 'notFound', 'refused']),
      count,
      orderIds: z.array(z.string().min(1).max(128)).max(1000).default([]),
    })
    .optional(),
});
export type FaultsPatch = z.infer<typeof FaultsPatchSchema>;

/** Parses a patch from outside (JSON body or a caller's object). */
export function parseFaultsPatch(input: unknown): Result<FaultsPatch> {
  const parsed = FaultsPatchSchema.safeParse(input);
  return parsed.success ? ok(parsed.data) : fail('invalid', describeZodError(parsed.error), 'INVALID_FAULTS');
}

/** The faults in force, the counters that run down, and the seeded error-rate draw. */
export class FaultState {
  private current: Faults;
  private readonly draw: Random;

  constructor(
    private readonly defaultExpiredStatus: 401 | 412,
    seed: number,
  ) {
    this.current = noFaults(defaultExpiredStatus);
    // A stream of its own, so switching faults on never changes the seeded orders.
    this.draw = mulberry32((seed ^ 0x9e3779b9) >>> 0);
  }

  /** A copy of the faults in force. */
  get(): Faults {
    return structuredClone(this.current);
  }

  /** Applies an already-parsed patch; returns the previous faults. */
  apply(patch: FaultsPatch): Faults {
    const before = this.get();
    const next: Faults = { ...this.current };
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) Object.assign(next, { [key]: value });
    if (patch.rateLimit) next.rateLimit = { ...patch.rateLimit };
    if (patch.readsRateLimit) next.readsRateLimit = { ...patch.readsRateLimit };
    if (patch.forbidReads) next.forbidReads = { ...patch.forbidReads };
    if (patch.badStatus) next.badStatus = { ...patch.badStatus, orderIds: [...patch.badStatus.orderIds] };
    this.current = next;
    return before;
  }

  /** Back to no faults; returns the previous faults. */
  reset(): Faults {
    const before = this.get();
    this.current = noFaults(this.defaultExpiredStatus);
    return before;
  }

  /** Consumes one rate-limit slot; returns Retry-After seconds when this request is to be limited. */
  takeRateLimit(): number | undefined {
    if (this.current.rateLimit.count <= 0) return undefined;
    this.current.rateLimit = { ...this.current.rateLimit, count: this.current.rateLimit.count - 1 };
    return this.current.rateLimit.retryAfterSeconds;
  }

  /** Whether this update request is to fail with a 503 (seeded draw; no draw when the rate is 0). */
  takeError(): boolean {
    const rate = this.current.errorRate;
    if (rate <= 0) return false;
    if (rate >= 1) return true;
    return this.draw() < rate;
  }

  /** Consumes one read rate-limit slot; returns Retry-After seconds when this read is to be limited. */
  takeReadsRateLimit(call: 'changes' | 'status'): number | undefined {
    const limit = this.current.readsRateLimit;
    if (limit.count <= 0 || (limit.call !== undefined && limit.call !== call)) return undefined;
    this.current.readsRateLimit = { ...limit, count: limit.count - 1 };
    return limit.retryAfterSeconds;
  }

  /** Consumes one bad-status slot when this order's answer is to be spoiled; returns how. */
  takeBadStatus(orderId: string): BadStatusAnswer | undefined {
    const bad = this.current.badStatus;
    if (bad.answer === 'none' || bad.count <= 0) return undefined;
    if (bad.orderIds.length > 0 && !bad.orderIds.includes(orderId)) return undefined;
    this.current.badStatus = { ...bad, count: bad.count - 1 };
    return bad.answer;
  }

  /** Consumes one drop-after-apply slot; true when this applied update is to get no answer. */
  takeDrop(): boolean {
    if (this.current.dropAfterApply <= 0) return false;
    this.current.dropAfterApply -= 1;
    return true;
  }

  /** Consumes one empty-answer slot; true when this successful update is answered 204. */
  takeEmpty(): boolean {
    if (this.current.emptyUpdateAnswers <= 0) return false;
    this.current.emptyUpdateAnswers -= 1;
    return true;
  }

  /** Consumes one malformed-body slot; true when this successful answer is to be mangled. */
  takeMalformed(): boolean {
    if (this.current.malformedBodies <= 0) return false;
    this.current.malformedBodies -= 1;
    return true;
  }
}
