/**
 * One attempt at an entry: check before resend, the update call, and the check after a refusal
 * that may only mean "already done". Talks to the service; the answer is settled by the queue.
 */
import { orderPhase, showsEffect } from '../../../shared/fulfilment';
import { buildUpdateRequest, type Order } from '../../../shared/protocol';
import type { UpdateOutcome, UpdateSender } from '../api/outcome';
import type { EntryRow } from '../db';
import type { Logger } from '../log';
import type { StatusCheck, StatusCheckResult } from './status-check';

/**
 * Refusals that may mean the action is already applied (a repeat the service does not de-duplicate),
 * or that someone else took the order past it: another counter packed it first (BACKWARD_TRANSITION)
 * or finished it (ORDER_COMPLETED) before this counter's hand-over tap went. Left failed, such a tap
 * held every later tap of the order until a manager discarded it (the store soak, issue 39).
 */
const MAYBE_APPLIED = new Set(['ALREADY_IN_STATE', 'ACTION_NOT_ALLOWED', 'BACKWARD_TRANSITION', 'ORDER_COMPLETED']);

/** What a status check decided before the update went out anyway (for the audit log). */
export type CheckNote = 'not-applied' | 'unavailable';

/** What one attempt found: the service's answer, or what a status check showed instead. */
export type AttemptOutcome =
  | (UpdateOutcome & { readonly checked?: CheckNote })
  /** The order already shows the entry's effect: settle it as applied, with this body. */
  | {
      readonly kind: 'confirmed';
      readonly order: Order;
      /** Why the check ran: an earlier attempt got no answer, or the service refused it now. */
      readonly after: 'no-answer' | 'refusal';
      readonly refusal?: Extract<UpdateOutcome, { kind: 'permanent' }>;
    }
  /**
   * Refused as already done, and the order shows it done, although no try of this tap ever went
   * unanswered: someone else (another counter, the marketplace) made that step; this tap was not applied.
   */
  | { readonly kind: 'elsewhere'; readonly order: Order; readonly refusal: Extract<UpdateOutcome, { kind: 'permanent' }> }
  /** Refused, and the order is cancelled at the service: with this body, the tap and the order's waiting taps are set aside. */
  | { readonly kind: 'cancelled'; readonly order: Order; readonly refusal: Extract<UpdateOutcome, { kind: 'permanent' }> }
  /** The check before resend could not reach the service: nothing was sent. */
  | { readonly kind: 'check-unreachable' }
  /** A 2xx whose body was empty or unreadable, with the order fetched afterwards (null if it could not be). */
  | { readonly kind: 'delivered-refreshed'; readonly answer: Extract<UpdateOutcome, { kind: 'unreadable' }>; readonly order: Order | null };

export interface AttemptDeps {
  readonly sender: UpdateSender;
  readonly statusCheck?: StatusCheck;
  readonly log: Logger;
}

const isAccept = (e: EntryRow): boolean => e.action.type === 'ORDER_STATE_UPDATE' && e.action.orderState === 'ACCEPTED';

/** Runs one attempt for a claimed entry; never throws. */
export async function attemptEntry(entry: EntryRow, deps: AttemptDeps, signal: AbortSignal): Promise<AttemptOutcome> {
  const check = deps.statusCheck;
  // An invoice cannot be seen in the order body: it is always resent (the same id twice is harmless).
  const checkable = check !== undefined && entry.action.type !== 'CLIENT_ORDER_INFO_UPDATE';
  let checked: CheckNote | undefined;
  if (checkable && entry.noAnswerBefore) {
    const seen = await ask(check, entry.orderId, signal, deps.log);
    if (seen.kind === 'unreachable') return { kind: 'check-unreachable' };
    if (seen.kind === 'order' && showsEffect(seen.order, entry.action)) return { kind: 'confirmed', order: seen.order, after: 'no-answer' };
    checked = seen.kind === 'order' ? 'not-applied' : 'unavailable';
  }
  const sent = await send(entry, deps, signal);
  const outcome = checked ? { ...sent, checked } : sent;
  const maybeDone = checkable && (entry.noAnswerBefore || MAYBE_APPLIED.has(outcome.kind === 'permanent' ? outcome.errorCode : '') || isAccept(entry));
  if (outcome.kind === 'permanent' && check !== undefined && (maybeDone || outcome.errorCode === 'ORDER_CANCELLED')) {
    const seen = await ask(check, entry.orderId, signal, deps.log);
    if (seen.kind === 'order' && seen.order.id === entry.orderId) {
      // Only a try that went unanswered can have been this tap's own doing; otherwise the step was made elsewhere.
      if (maybeDone && showsEffect(seen.order, entry.action))
        return entry.noAnswerBefore
          ? { kind: 'confirmed', order: seen.order, after: 'refusal', refusal: outcome }
          : { kind: 'elsewhere', order: seen.order, refusal: outcome };
      if (orderPhase(seen.order) === 'CANCELLED') return { kind: 'cancelled', order: seen.order, refusal: outcome };
    }
  }
  if (outcome.kind === 'unreadable' && check !== undefined) {
    // Delivered but unreadable (or empty, the platform's 204): the order is refreshed at once.
    const seen = await ask(check, entry.orderId, signal, deps.log);
    return { kind: 'delivered-refreshed', answer: outcome, order: seen.kind === 'order' && seen.order.id === entry.orderId ? seen.order : null };
  }
  return outcome;
}

async function send(entry: EntryRow, deps: AttemptDeps, signal: AbortSignal): Promise<UpdateOutcome> {
  const request = buildUpdateRequest(entry.orderId, entry.requestId, [entry.action]);
  if (!request.ok)
    return { kind: 'permanent', status: 0, errorCode: request.problem.code ?? 'INVALID_REQUEST', message: request.problem.message };
  try {
    return await deps.sender.update(request.value, signal);
  } catch (e) {
    // The sender promises never to throw; if it does, treat it as a send whose fate is unknown.
    deps.log.error('sender threw', { error: e });
    return { kind: 'transient', message: `Sending failed: ${e instanceof Error ? e.message : String(e)}`, noAnswer: true };
  }
}

async function ask(check: StatusCheck | undefined, orderId: string, signal: AbortSignal, log: Logger): Promise<StatusCheckResult> {
  if (!check) return { kind: 'unavailable' };
  try {
    return await check(orderId, signal);
  } catch (e) {
    // A check that throws tells nothing about the order: as if the service could not be reached.
    log.warn('status check threw', { error: e });
    return { kind: 'unreachable' };
  }
}
