/**
 * The durable outbox: every tap becomes a committed row before the call returns, and every
 * answer from the service is settled on that row (and on the orders cache) in one transaction.
 */
import { applyAction } from '../../../shared/fulfilment';
import { type ActionInput, buildAction, checkId, type Order } from '../../../shared/protocol';
import { fail, ok, type Problem, type Result } from '../../../shared/result';
import type { UpdateOutcome } from '../api/outcome';
import type { EntryRow, OrderRow, Store } from '../db';
import { type BackoffPolicy, backoffDelay } from './backoff';
import { summarize } from './summary';
import { Projector } from './projection';
import { checkTap, isPending, project, type ProjectFn } from './validate';

export interface OutboxContext {
  readonly store: Store;
  readonly terminalId: string;
  readonly now: () => number;
  readonly random: () => number;
  /** Creates the requestId once per entry (crypto.randomUUID in production). */
  readonly newRequestId: () => string;
  readonly undoWindowMs: () => number;
  readonly backoff: BackoffPolicy;
}

/** What settling one answer did, for the sync engine (connectivity, pauses) and for events. */
export interface Settlement {
  readonly entry: EntryRow;
  readonly result: 'sent' | 'unreadable' | 'retry' | 'failed' | 'mayBeApplied' | 'paused';
  /** The service answered (true), or the network failed (false); null when it tells nothing. */
  readonly reachable: boolean | null;
  /** The orders cache row of the entry's order was written. */
  readonly orderChanged: boolean;
  /** The service asked every request to wait (429 / Retry-After), in ms from now. */
  readonly rateLimitedForMs?: number;
}

export type Outbox = ReturnType<typeof createOutbox>;

const NETWORK = 'NETWORK';

/** Builds the outbox over an open store. */
export function createOutbox(ctx: OutboxContext) {
  const { store, terminalId } = ctx;
  // Taps are validated against slim projections, remembered between taps.
  const projector = new Projector({ slim: true });
  const projectWith: ProjectFn = (id, body, entries, now) => projector.project(id, body, entries, now);
  const audit = (line: Omit<Parameters<Store['audit']['add']>[0], 'terminal' | 'time'>): void =>
    store.audit.add({ ...line, time: ctx.now(), terminal: terminalId });

  const refuseTap = <T>(orderId: string | null, problem: Problem, what: string): Result<T> => {
    store.transaction(() =>
      audit({ kind: 'tap', orderId, outcome: 'refused', message: `${what}: ${problem.message}` }),
    );
    return { ok: false, problem };
  };

  return {
    /** Adds an order known only by its scanned or typed id; returns its row and whether it was new. */
    addOrder(rawOrderId: string): Result<{ row: OrderRow; added: boolean }> {
      const id = checkId('Order id', rawOrderId);
      if (!id.ok) return id;
      return store.transaction(() => {
        const added = store.orders.ensure(id.value, ctx.now());
        const row = store.orders.get(id.value);
        if (!row) return fail('permanent', `Order ${id.value} could not be stored`, 'STORE_WRITE');
        return ok({ row, added });
      });
    },

    /** Validates a tap against the projected order and commits it as a queued entry (returned with the cached order), or refuses it. */
    enqueue(rawOrderId: string, input: ActionInput): Result<{ entry: EntryRow; order: Order | null }> {
      const id = checkId('Order id', rawOrderId);
      if (!id.ok) return id;
      const orderId = id.value;
      const built = buildAction(input);
      if (!built.ok) return refuseTap(orderId, built.problem, 'Tap refused');
      const action = built.value;
      const decided = store.transaction((): Result<{ entry: EntryRow; order: Order | null }> | { refused: Problem } => {
        const now = ctx.now();
        const row = store.orders.get(orderId);
        const entries = store.outbox.projectedForOrder(orderId);
        const check = checkTap(orderId, row?.body ?? null, entries, action, now, projectWith);
        if (!check.ok) return { refused: check.problem };
        store.orders.ensure(orderId, now);
        const entry = store.outbox.insert({
          requestId: ctx.newRequestId(),
          orderId,
          action,
          createdAt: now,
          sendAfter: now + Math.max(0, ctx.undoWindowMs()),
          terminalId,
        });
        projector.extend(orderId, row?.body ?? null, entries, entry.id, check.value);
        audit({ kind: 'tap', entryId: entry.id, orderId, outcome: 'queued', message: summarize(action, row?.body ?? null) });
        return ok({ entry, order: row?.body ?? null });
      });
      if ('refused' in decided) return refuseTap(orderId, decided.refused, summarize(action, null));
      return decided;
    },

    /** Takes a tap back: only while it is queued, unsent and inside its undo window. */
    undo(entryId: number): Result<EntryRow> {
      return store.transaction((): Result<EntryRow> => {
        const now = ctx.now();
        const entry = store.outbox.get(entryId);
        if (!entry) return fail('invalid', `There is no tap number ${entryId}`, 'NOT_FOUND', { entryId });
        if (entry.state !== 'queued' || entry.attempts > 0 || now >= entry.sendAfter)
          return fail('invalid', `Too late to undo "${summarize(entry.action, null)}": it is on its way to the service`, 'TOO_LATE', {
            orderId: entry.orderId,
          });
        const blocked = laterTapsDependOn(store, entry, now);
        if (blocked) return fail('invalid', `Undo the later taps of order ${entry.orderId} first (${blocked})`, 'LATER_TAPS', {
            orderId: entry.orderId,
          });
        const undone = store.outbox.transition(entryId, 'queued', 'discarded', now, {
          lastError: { kind: 'invalid', code: 'UNDONE', message: 'Taken back by the packer' },
        });
        if (!undone) return fail('invalid', `Too late to undo tap ${entryId}`, 'TOO_LATE', { orderId: entry.orderId });
        audit({ kind: 'undo', entryId, orderId: entry.orderId, outcome: 'undone', message: summarize(entry.action, null) });
        return ok(undone);
      });
    },

    /** Sends a failed entry again (or a backing-off queued one at the next chance). */
    retry(entryId: number): Result<EntryRow> {
      return store.transaction((): Result<EntryRow> => {
        const now = ctx.now();
        const entry = store.outbox.get(entryId);
        if (!entry) return fail('invalid', `There is no tap number ${entryId}`, 'NOT_FOUND', { entryId });
        let after: EntryRow | null = null;
        if (entry.state === 'failed') after = store.outbox.retryFailed(entryId, now);
        else if (entry.state === 'queued') after = store.outbox.sendNow(entryId, now);
        if (!after)
          return fail('invalid', `Tap ${entryId} is ${entry.state}; only a failed or waiting tap can be retried`, 'NOT_RETRYABLE', {
            state: entry.state,
          });
        audit({ kind: 'retry', entryId, orderId: entry.orderId, outcome: 'retried', message: `was ${entry.state}` });
        return ok(after);
      });
    },

    /** Gives up on a failed or waiting entry; the caller has checked the manager PIN. */
    discard(entryId: number): Result<EntryRow> {
      return store.transaction((): Result<EntryRow> => {
        const now = ctx.now();
        const entry = store.outbox.get(entryId);
        if (!entry) return fail('invalid', `There is no tap number ${entryId}`, 'NOT_FOUND', { entryId });
        if (entry.state === 'sending')
          return fail('invalid', `Tap ${entryId} is being sent right now; try again in a moment`, 'BUSY');
        if (entry.state !== 'failed' && entry.state !== 'queued')
          return fail('invalid', `Tap ${entryId} is already ${entry.state}`, 'NOT_DISCARDABLE', { state: entry.state });
        const after = store.outbox.transition(entryId, entry.state, 'discarded', now, { nextAttemptAt: null });
        if (!after) return fail('invalid', `Tap ${entryId} changed meanwhile; look again`, 'BUSY');
        audit({
          kind: 'discard',
          entryId,
          orderId: entry.orderId,
          outcome: 'discarded',
          message: `${summarize(entry.action, null)} (was ${entry.state}${entry.lastError ? `: ${entry.lastError.message}` : ''})`,
        });
        return ok(after);
      });
    },

    /** After a crash: entries left in `sending` are queued again with the same requestId, flagged "no answer seen". */
    recover(): EntryRow[] {
      return store.transaction(() => {
        const rows = store.outbox.recoverSending(ctx.now());
        for (const r of rows)
          audit({
            kind: 'recover',
            entryId: r.id,
            orderId: r.orderId,
            outcome: 'requeued',
            message: 'Was being sent when Packdesk stopped; will be sent again with the same request id',
          });
        return rows;
      });
    },

    /** Moves due entries to `sending` in one commit, so a crash from here on is recovered as "no answer seen". */
    claim(entries: readonly EntryRow[]): EntryRow[] {
      if (entries.length === 0) return [];
      const moved = new Set(store.transaction(() => store.outbox.markSending(entries.map((e) => e.id), ctx.now())));
      return entries.filter((e) => moved.has(e.id)).map((e) => ({ ...e, state: 'sending' as const }));
    },

    /** Claimed entries that were not sent after all go back to queued, as they were; returns them as they are now. */
    unclaim(entries: readonly EntryRow[]): EntryRow[] {
      if (entries.length === 0) return [];
      store.transaction(() => store.outbox.unclaim(entries.map((e) => e.id), ctx.now()));
      return entries.map((e) => ({ ...e, state: 'queued' as const }));
    },

    /** Applies the service's answer to a sending entry, per decisions.md, in one transaction. */
    settle(entry: EntryRow, outcome: UpdateOutcome): Settlement {
      return store.transaction(() => settleOne(ctx, entry, outcome, audit));
    },
  };
}

/** When undoing `entry` would leave a later pending tap of its order invalid, says which. */
function laterTapsDependOn(store: Store, entry: EntryRow, now: number): string | null {
  const entries = store.outbox.projectedForOrder(entry.orderId);
  const later = entries.filter((e) => e.seq > entry.seq && isPending(e));
  if (later.length === 0) return null;
  const body = store.orders.get(entry.orderId)?.body ?? null;
  if (!body) return summarize(later[0]!.action, null);
  let current: Order = project(body, entries.filter((e) => e.seq < entry.seq), now) ?? body;
  for (const e of later) {
    const r = applyAction(current, e.action, now);
    if (!r.ok) return summarize(e.action, body);
    current = r.value;
  }
  return null;
}

function settleOne(
  ctx: OutboxContext,
  entry: EntryRow,
  outcome: UpdateOutcome,
  audit: (line: Omit<Parameters<Store['audit']['add']>[0], 'terminal' | 'time'>) => void,
): Settlement {
  const { store } = ctx;
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
          audit,
        );
      }
      const after = store.outbox.markSent(entry.id, now, false, null);
      store.orders.saveBody(outcome.order, now);
      store.outbox.clearAwaitingRefresh(entry.orderId);
      audit({ ...base, outcome: 'sent', message: `HTTP ${outcome.status}` });
      return { entry: after, result: 'sent', reachable: true, orderChanged: true };
    }
    case 'unreadable':
      return settleUnreadable(ctx, entry, outcome.rawBody, outcome.message, audit);
    case 'transient': {
      const network = outcome.status === undefined;
      const problem: Problem = { kind: 'transient', code: network ? NETWORK : `HTTP_${outcome.status}`, message: outcome.message };
      const delay = backoffDelay(entry.attempts + 1, ctx.backoff, ctx.random, outcome.retryAfterMs);
      const after = store.outbox.requeueAfterAttempt(entry.id, now, now + delay, problem, outcome.noAnswer);
      audit({ ...base, outcome: 'retry', message: `${outcome.message}; next try in ${Math.ceil(delay / 1000)} s` });
      const rateLimited = outcome.status === 429 ? { rateLimitedForMs: delay } : {};
      return { entry: after, result: 'retry', reachable: !network, orderChanged: false, ...rateLimited };
    }
    case 'auth': {
      const problem: Problem = { kind: 'auth', code: 'CREDENTIALS_REJECTED', message: outcome.message };
      const after = store.outbox.requeueAfterAttempt(entry.id, now, null, problem, false);
      audit({ ...base, outcome: 'credentials-rejected', message: outcome.message });
      return { entry: after, result: 'paused', reachable: true, orderChanged: false };
    }
    case 'permanent': {
      const problem: Problem = { kind: 'permanent', code: outcome.errorCode, message: outcome.message };
      // An earlier attempt may have landed unseen; a refusal now may just mean "already done".
      const maybe = entry.noAnswerBefore;
      const after = store.outbox.markFailed(entry.id, now, problem, maybe);
      audit({
        ...base,
        outcome: maybe ? 'may-be-applied' : 'failed',
        message: `${outcome.errorCode} (HTTP ${outcome.status}): ${outcome.message}`,
      });
      return { entry: after, result: maybe ? 'mayBeApplied' : 'failed', reachable: true, orderChanged: false };
    }
  }
}

function settleUnreadable(
  ctx: OutboxContext,
  entry: EntryRow,
  rawBody: string,
  message: string,
  audit: (line: Omit<Parameters<Store['audit']['add']>[0], 'terminal' | 'time'>) => void,
): Settlement {
  const now = ctx.now();
  const problem: Problem = {
    kind: 'permanent',
    code: 'UNREADABLE_ANSWER',
    message: `Delivered, but the service's answer could not be read (${message}); the order needs a refresh`,
  };
  // Probably applied: never resend it. Keep the body for support and flag the order.
  const after = ctx.store.outbox.markSent(entry.id, now, true, problem);
  ctx.store.orders.markUnreadable(entry.orderId, rawBody, now);
  audit({ kind: 'attempt', entryId: entry.id, orderId: entry.orderId, outcome: 'unreadable', message });
  return { entry: after, result: 'unreadable', reachable: true, orderChanged: true };
}
