/**
 * Settling one answered attempt on its entry (outbox.ts commit): what the service's answer, or its
 * silence, means for the tap and its order, moved through lifecycle.ts and said in the audit log.
 * Kept apart from the queue's own moves because this is where the order service's every kind of
 * answer is read; a newcomer asking "what happens when the service says X" looks here.
 */
import { changedAtOf, stepReached } from '../../../shared/fulfilment';
import type { Order } from '../../../shared/protocol';
import type { Problem } from '../../../shared/result';
import type { EntryRow, Store } from '../db';
import { CERTIFICATE_UNTRUSTED } from '../api/http';
import type { AttemptOutcome } from './attempt';
import { type BackoffPolicy, backoffDelay } from './backoff';
import { cancelledProblem, noticeChange, type NoticedChange } from './elsewhere';
import { mustMove } from './lifecycle';

/** What settling needs of the outbox's context (OutboxContext, outbox.ts). */
export interface SettleContext {
  readonly store: Store;
  readonly terminalId: string;
  readonly now: () => number;
  readonly random: () => number;
  readonly backoff: BackoffPolicy;
  readonly serviceNow?: () => number;
}

const NETWORK = 'NETWORK';

/** What settling one answer did, for the sync engine (connectivity, pauses) and for events. */
export interface Settlement {
  readonly entry: EntryRow;
  readonly result: 'sent' | 'unreadable' | 'retry' | 'failed' | 'mayBeApplied' | 'paused' | 'elsewhere' | 'setAside';
  /** Other taps of the entry's order this answer moved: set aside because the order is cancelled. */
  readonly others?: readonly EntryRow[];
  /** Settled as applied because a status check showed its effect (no answer, or a "maybe done" refusal). */
  readonly confirmed?: boolean;
  /** The service answered (true), or the network failed (false); null when it tells nothing. */
  readonly reachable: boolean | null;
  /** The orders cache row of the entry's order was written. */
  readonly orderChanged: boolean;
  /** The service asked every request to wait (429 / Retry-After), in ms from now. */
  readonly rateLimitedForMs?: number;
}

export type Audit = (line: Omit<Parameters<Store['audit']['add']>[0], 'terminal' | 'time'>) => void;

const CHECK_NOTE = {
  'not-applied': 'status check: the order did not show it yet, so it was sent again with the same request id',
  unavailable: 'status check not available: sent again with the same request id',
} as const;

export function settleOne(ctx: SettleContext, entry: EntryRow, outcome: AttemptOutcome, auditLine: Audit): Settlement {
  const { store } = ctx;
  // Every decision of a check before resend is in the audit log, on the line of the attempt it led to.
  const checked = 'checked' in outcome ? outcome.checked : undefined;
  const audit: Audit = checked ? (line) => auditLine({ ...line, message: `${line.message ?? ''} (${CHECK_NOTE[checked]})` }) : auditLine;
  const now = ctx.now();
  const base = { entryId: entry.id, orderId: entry.orderId, kind: 'attempt' as const };
  switch (outcome.kind) {
    case 'success': {
      if (outcome.order.id !== entry.orderId) {
        // An answer about another order cannot be trusted as this order's state.
        return settleUnreadable(
          ctx,
          entry,
          JSON.stringify(outcome.raw ?? outcome.order),
          `The service answered with order ${outcome.order.id} instead of ${entry.orderId}`,
          null,
          audit,
        );
      }
      const after = mustMove(store.outbox, entry, 'deliver', now, {
        addAttempt: true,
        sentNow: true,
        nextAttemptAt: null,
        awaitingRefresh: false,
        lastError: null,
      });
      const noticed = saveNoticed(ctx, outcome.order, now);
      store.outbox.clearAwaitingRefresh(entry.orderId);
      audit({ ...base, outcome: 'sent', message: `HTTP ${outcome.status}` });
      return { entry: after, result: 'sent', reachable: true, orderChanged: true, ...others(noticed) };
    }
    case 'confirmed': {
      const after = mustMove(store.outbox, entry, 'confirm', now, {
        addAttempt: outcome.after === 'refusal',
        sentNow: true,
        nextAttemptAt: null,
        awaitingRefresh: false,
        mayBeApplied: false,
        lastError: null,
      });
      const noticed = saveNoticed(ctx, outcome.order, now);
      store.outbox.clearAwaitingRefresh(entry.orderId);
      const why =
        outcome.after === 'no-answer'
          ? 'an earlier attempt got no answer; the order already shows it, so it was not sent again'
          : `the service refused it (${outcome.refusal?.errorCode ?? '?'}: ${outcome.refusal?.message ?? ''}) and the order already shows it`;
      audit({ ...base, outcome: 'confirmed', message: `Confirmed by status check: ${why}` });
      return { entry: after, result: 'sent', confirmed: true, reachable: true, orderChanged: true, ...others(noticed) };
    }
    case 'elsewhere': {
      // Never "sent": this tap was refused; the order is shown as it really is, with who-knows-who's step on it.
      const reached = stepReached(outcome.order, entry.action);
      const when = reached.at === null ? '' : ` since ${new Date(reached.at).toISOString()}`;
      const problem: Problem = {
        kind: 'permanent',
        code: DONE_ELSEWHERE,
        message: `Not applied by this terminal: the order was already ${reached.state}${when}, made at another counter or by the marketplace (${outcome.refusal.errorCode})`,
        values: reached.at === null ? { state: reached.state } : { state: reached.state, at: reached.at },
      };
      const after = mustMove(store.outbox, entry, 'doneElsewhere', now, { addAttempt: true, nextAttemptAt: null, lastError: problem });
      const noticed = saveNoticed(ctx, outcome.order, now);
      store.outbox.clearAwaitingRefresh(entry.orderId);
      audit({ ...base, outcome: 'done-elsewhere', message: problem.message });
      return { entry: after, result: 'elsewhere', reachable: true, orderChanged: true, ...others(noticed) };
    }
    case 'cancelled': {
      const noticed = saveNoticed(ctx, outcome.order, now);
      const problem = cancelledProblem(changedAtOf(outcome.order) ?? now);
      const after = mustMove(store.outbox, entry, 'setAside', now, { addAttempt: true, nextAttemptAt: null, lastError: problem });
      audit({ ...base, outcome: 'set aside', message: `${outcome.refusal.errorCode} (HTTP ${outcome.refusal.status}): the order is cancelled at the order service` });
      return { entry: after, result: 'setAside', reachable: true, orderChanged: true, ...others(noticed) };
    }
    case 'check-unreachable': {
      const problem: Problem = {
        kind: 'transient',
        code: NETWORK,
        message: 'An earlier attempt got no answer, and the order service could not be asked whether it was applied; it will be asked again',
      };
      const delay = backoffDelay(entry.attempts + 1, ctx.backoff, ctx.random);
      const after = mustMove(store.outbox, entry, 'retryLater', now, { nextAttemptAt: now + delay, lastError: problem });
      audit({ ...base, outcome: 'check-unreachable', message: `${problem.message}; next try in ${Math.ceil(delay / 1000)} s` });
      return { entry: after, result: 'retry', reachable: false, orderChanged: false };
    }
    case 'unreadable':
      return settleUnreadable(ctx, entry, outcome.rawBody, outcome.message, null, audit);
    case 'delivered-refreshed':
      return settleUnreadable(ctx, entry, outcome.answer.rawBody, outcome.answer.message, outcome.order, audit);
    case 'transient': {
      const network = outcome.status === undefined;
      const code = outcome.tokenServer ? 'TOKEN_SERVER' : outcome.certificate ? CERTIFICATE_UNTRUSTED : network ? NETWORK : `HTTP_${outcome.status}`;
      const problem: Problem = { kind: 'transient', code, message: outcome.message };
      const delay = backoffDelay(entry.attempts + 1, ctx.backoff, ctx.random, outcome.retryAfterMs);
      const after = mustMove(store.outbox, entry, 'retryLater', now, {
        addAttempt: true,
        nextAttemptAt: now + delay,
        lastError: problem,
        ...(outcome.noAnswer ? { noAnswerBefore: true } : {}),
      });
      audit({ ...base, outcome: 'retry', message: `${outcome.message}; next try in ${Math.ceil(delay / 1000)} s` });
      const rateLimited = outcome.status === 429 ? { rateLimitedForMs: delay } : {};
      // A token server fault never reached the order service, and a refused certificate means the
      // network worked: neither says the service is offline.
      const reachable = outcome.tokenServer || outcome.certificate ? null : !network;
      return { entry: after, result: 'retry', reachable, orderChanged: false, ...rateLimited };
    }
    case 'auth': {
      const problem: Problem = { kind: 'auth', code: 'CREDENTIALS_REJECTED', message: outcome.message };
      const after = mustMove(store.outbox, entry, 'retryLater', now, { addAttempt: true, nextAttemptAt: null, lastError: problem });
      audit({ ...base, outcome: 'credentials-rejected', message: outcome.message });
      return { entry: after, result: 'paused', reachable: true, orderChanged: false };
    }
    case 'permanent': {
      const problem: Problem = { kind: 'permanent', code: outcome.errorCode, message: outcome.message };
      // An earlier attempt may have landed unseen; a refusal now may just mean "already done".
      const maybe = entry.noAnswerBefore;
      const after = mustMove(store.outbox, entry, 'refuse', now, {
        addAttempt: true,
        nextAttemptAt: null,
        lastError: problem,
        mayBeApplied: maybe,
      });
      audit({
        ...base,
        outcome: maybe ? 'may-be-applied' : 'failed',
        message: `${outcome.errorCode} (HTTP ${outcome.status}): ${outcome.message}`,
      });
      return { entry: after, result: maybe ? 'mayBeApplied' : 'failed', reachable: true, orderChanged: false };
    }
  }
}

/**
 * A 2xx whose body was empty (the platform's 204: plain success) or unreadable (probably applied):
 * never resent. The order is flagged for a refresh, or refreshed at once when `refreshed` came with it.
 */
function settleUnreadable(ctx: SettleContext, entry: EntryRow, rawBody: string, message: string, refreshed: Order | null, audit: Audit): Settlement {
  const now = ctx.now();
  const empty = rawBody.trim() === '';
  const problem: Problem | null = empty
    ? null
    : {
        kind: 'permanent',
        code: 'UNREADABLE_ANSWER',
        message: refreshed
          ? `Delivered, but the service's answer could not be read (${message}); the order was refreshed by a status check`
          : `Delivered, but the service's answer could not be read (${message}); the order needs a refresh`,
      };
  const after = mustMove(ctx.store.outbox, entry, 'deliver', now, {
    addAttempt: true,
    sentNow: true,
    nextAttemptAt: null,
    awaitingRefresh: refreshed === null,
    lastError: problem,
  });
  const noticed = refreshed ? saveNoticed(ctx, refreshed, now) : null;
  if (refreshed) ctx.store.outbox.clearAwaitingRefresh(entry.orderId);
  else ctx.store.orders.markUnreadable(entry.orderId, rawBody, now);
  const said = empty ? 'sent (empty answer)' : message;
  audit({
    kind: 'attempt',
    entryId: entry.id,
    orderId: entry.orderId,
    outcome: empty ? 'sent' : 'unreadable',
    message: refreshed ? `${said}; order refreshed by status check` : said,
  });
  return { entry: after, result: empty ? 'sent' : 'unreadable', reachable: true, orderChanged: true, ...others(noticed) };
}

/** The code of a tap refused because someone else had made its step; values: the state and since when. */
export const DONE_ELSEWHERE = 'DONE_ELSEWHERE';

/** Stores a body from the service as the order's truth, noticing what someone else changed (elsewhere.ts). */
function saveNoticed(ctx: SettleContext, order: Order, now: number): NoticedChange {
  const before = ctx.store.orders.held(order.id);
  // A body older than the one held is not stored (orders-table's supersedes), and says nothing new.
  if (!ctx.store.orders.saveBody(order, now, ctx.serviceNow?.() ?? now)) return { alarm: null, setAside: [] };
  return noticeChange(ctx.store, before, order, now, ctx.terminalId);
}

const others = (noticed: NoticedChange | null): { others?: readonly EntryRow[] } =>
  noticed && noticed.setAside.length > 0 ? { others: noticed.setAside } : {};
