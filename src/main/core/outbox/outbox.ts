/**
 * The outbox: a persisted queue that owns its entries' lifecycle. Every tap becomes a committed
 * row before the call returns; the queue claims due entries, settles every answer on its row (and
 * on the orders cache) in one transaction, recovers what a stopped process left, and holds the
 * sender lease. Every state change goes through lifecycle.ts. The scheduler (core/sync) only
 * decides when and how many.
 */
import { applyAction, changedAtOf, stepReached } from '../../../shared/fulfilment';
import { type Action, type ActionInput, buildAction, checkId, type Order } from '../../../shared/protocol';
import { fail, ok, type Problem, type Result } from '../../../shared/result';
import type { EntryRow, OrderRow, Store } from '../db';
import { CERTIFICATE_UNTRUSTED } from '../api/http';
import type { AttemptOutcome } from './attempt';
import { type BackoffPolicy, backoffDelay } from './backoff';
import { takeSenderLease, type LeaseResult } from './lease';
import { cancelledProblem, noticeChange, type NoticedChange } from './elsewhere';
import { move, mustMove } from './lifecycle';
import { summarize } from './summary';
import { Projector } from './projection';
import { TapReads } from './tap-reads';
import { checkTap, isPending, project, type ProjectFn } from './validate';

/** With a store hub, what a tap's record keeps of it: whether other counters could be checked when it was made. */
export interface TapHubContext {
  readonly unchecked: boolean;
}

export interface OutboxContext {
  readonly store: Store;
  readonly terminalId: string;
  readonly now: () => number;
  readonly random: () => number;
  /** A random UUID once per entry (crypto.randomUUID in production), which its requestId is made from (NewEntry.randomId). */
  readonly newRequestId: () => string;
  readonly undoWindowMs: () => number;
  readonly backoff: BackoffPolicy;
  /** The order service's clock (this computer's less the difference the token measured); defaults to `now`. */
  readonly serviceNow?: () => number;
  /** Who is packing at the counter now (core/staff), stamped on each tap and each move a person makes; absent: nobody. */
  readonly packer?: () => string | null;
}

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

export type Outbox = ReturnType<typeof createOutbox>;

const NETWORK = 'NETWORK';
/**
 * Slim projections remembered for validating taps: as many as the orders cache keeps bodies, so a
 * store working through a queue of thousands of open orders does not replay every order's waiting
 * taps on each tap (at 512, taps going round 1,000 orders missed every time). A slim order is small.
 */
const SLIM_MEMOS = 10_000;

/** One answered attempt, waiting to be settled. */
export interface Answered {
  readonly entry: EntryRow;
  readonly outcome: AttemptOutcome;
}

/** What one commit did: the settlements, and the entries it claimed or released. */
export interface Committed {
  readonly settlements: readonly Settlement[];
  readonly claimed: readonly EntryRow[];
  readonly released: readonly EntryRow[];
}

/** Builds the outbox over an open store. */
export function createOutbox(ctx: OutboxContext) {
  const { store, terminalId } = ctx;
  // Taps are validated against slim projections, remembered between taps.
  const projector = new Projector({ slim: true, memos: SLIM_MEMOS });
  const projectWith: ProjectFn = (id, body, entries, now) => projector.project(id, body, entries, now);
  // What the last taps read of their orders, while nothing else has written (tap-reads.ts).
  const tapReads = new TapReads();
  const audit = (line: Omit<Parameters<Store['audit']['add']>[0], 'terminal' | 'time'>): void =>
    store.audit.add({ ...line, time: ctx.now(), terminal: terminalId });
  // A move a person made at the counter (a refused tap, undo, retry, discard, removal): with who made it.
  const acted = (line: Omit<Parameters<Store['audit']['add']>[0], 'terminal' | 'time' | 'packer'>): void =>
    audit({ ...line, packer: ctx.packer?.() ?? null });

  const refuseTap = <T>(orderId: string | null, problem: Problem, what: string): Result<T> => {
    store.transaction(() =>
      acted({ kind: 'tap', orderId, outcome: 'refused', message: `${what}: ${problem.message}` }),
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
    enqueue(rawOrderId: string, input: ActionInput, hub: TapHubContext | null = null): Result<{ entry: EntryRow; order: Order | null }> {
      const id = checkId('Order id', rawOrderId);
      if (!id.ok) return id;
      const orderId = id.value;
      const built = buildAction(input);
      if (!built.ok) return refuseTap(orderId, built.problem, 'Tap refused');
      const action = built.value;
      // What this tap leaves its order's reads as, for the next tap, once it is committed.
      const keep: { remember?: () => void } = {};
      const decided = store.transaction((): Result<{ entry: EntryRow; order: Order | null }> | { refused: Problem } => {
        const now = ctx.now();
        const before = store.generation();
        const kept = tapReads.get(orderId, before);
        const row = kept ? kept.row : store.orders.get(orderId);
        const entries = kept ? kept.entries : store.outbox.shapingForOrder(orderId);
        const check = checkTap(orderId, row?.body ?? null, entries, action, now, projectWith);
        if (!check.ok) return { refused: check.problem };
        // A row read just now is there and not removed: ensure would change nothing, and is one
        // statement less on the path to durable.
        if (!row) store.orders.ensure(orderId, now);
        const entry = store.outbox.insert({
          randomId: ctx.newRequestId(),
          orderId,
          action,
          createdAt: now,
          sendAfter: now + Math.max(0, ctx.undoWindowMs()),
          terminalId,
          unitsBefore: unitsBefore(action, () => projectWith(orderId, row?.body ?? null, entries, now) ?? row?.body ?? null),
          packer: ctx.packer?.() ?? null,
          // The other counters' taps heard of now: a tap none of them heard of, and that heard of none of theirs, was made apart.
          hub: hub ? { unchecked: hub.unchecked, seen: store.hubTaps.requestIdsOf(orderId) } : null,
        });
        projector.extend(orderId, row?.body ?? null, entries, entry.id, check.value);
        // An order added just now is read again by its next tap.
        if (row) {
          const after = store.generation();
          const next = [...entries, { id: entry.id, seq: entry.seq, state: entry.state, action: entry.action, awaitingRefresh: entry.awaitingRefresh }];
          keep.remember = () => tapReads.committed(before, after, orderId, { row, entries: next });
        }
        // No audit line: the outbox row is the tap's own record (time, terminal, order, action; kept
        // as long as the audit's lines, retire.ts pruneHistory). A line here was one more page and a third of the tap's CPU on the
        // path to durable; the audit keeps what happens to the tap afterwards, and refusals.
        return ok({ entry, order: row?.body ?? null });
      });
      if ('refused' in decided) return refuseTap(orderId, decided.refused, summarize(action, null));
      keep.remember?.();
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
        const undone = move(store.outbox, entry, 'undo', now, {
          lastError: { kind: 'invalid', code: 'UNDONE', message: 'Taken back by the packer' },
        });
        if (!undone.ok) return fail('invalid', `Too late to undo tap ${entryId}`, 'TOO_LATE', { orderId: entry.orderId });
        acted({ kind: 'undo', entryId, orderId: entry.orderId, outcome: 'undone', message: summarize(entry.action, null) });
        return undone;
      });
    },

    /** Sends a failed entry again (or a backing-off queued one at the next chance). */
    retry(entryId: number): Result<EntryRow> {
      return store.transaction((): Result<EntryRow> => {
        const now = ctx.now();
        const entry = store.outbox.get(entryId);
        if (!entry) return fail('invalid', `There is no tap number ${entryId}`, 'NOT_FOUND', { entryId });
        const after =
          entry.state === 'failed'
            ? move(store.outbox, entry, 'retry', now, { nextAttemptAt: null, mayBeApplied: false })
            : move(store.outbox, entry, 'sendNow', now, { nextAttemptAt: null, dueNow: true });
        if (!after.ok)
          return fail('invalid', `Tap ${entryId} is ${entry.state}; only a failed or waiting tap can be retried`, 'NOT_RETRYABLE', {
            state: entry.state,
          });
        acted({ kind: 'retry', entryId, orderId: entry.orderId, outcome: 'retried', message: `was ${entry.state}` });
        return after;
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
        const moved = move(store.outbox, entry, 'discard', now, { nextAttemptAt: null });
        if (!moved.ok) return fail('invalid', `Tap ${entryId} changed meanwhile; look again`, 'BUSY');
        const after = moved.value;
        acted({
          kind: 'discard',
          entryId,
          orderId: entry.orderId,
          outcome: 'discarded',
          message: `${summarize(entry.action, null)} (was ${entry.state}${entry.lastError ? `: ${entry.lastError.message}` : ''})`,
        });
        return ok(after);
      });
    },

    /**
     * Takes an order off the terminal when none of its taps can have reached the service: the
     * service never answered for it, and no tap of it was sent, is being sent, or went without an
     * answer. Its waiting and refused taps are discarded with it (audited). Returns them.
     */
    removeOrder(rawOrderId: string): Result<EntryRow[]> {
      const id = checkId('Order id', rawOrderId);
      if (!id.ok) return id;
      const orderId = id.value;
      return store.transaction((): Result<EntryRow[]> => {
        const now = ctx.now();
        const row = store.orders.get(orderId);
        if (!row) return fail('invalid', `Order ${orderId} is not on this terminal`, 'NOT_FOUND');
        if (row.body !== null || row.bodyUnreadable || row.syncedAt !== null)
          return fail('invalid', `The order service knows order ${orderId}; it cannot be removed from the terminal`, 'KNOWN_TO_SERVICE', { orderId });
        const entries = store.outbox.forOrder(orderId);
        const reached = entries.find((e) => e.state === 'sent' || e.state === 'sending' || e.noAnswerBefore || e.mayBeApplied);
        if (reached)
          return fail('invalid', `A tap on order ${orderId} may have reached the service; it cannot be removed`, 'MAY_HAVE_REACHED', { orderId });
        const discarded: EntryRow[] = [];
        for (const e of entries) {
          if (e.state !== 'queued' && e.state !== 'failed') continue;
          const after = move(store.outbox, e, 'discard', now, { nextAttemptAt: null });
          if (!after.ok) return fail('invalid', `A tap on order ${orderId} changed meanwhile; look again`, 'BUSY');
          discarded.push(after.value);
        }
        store.orders.remove(orderId, now);
        acted({ kind: 'discard', orderId, outcome: 'order removed', message: `${discarded.length} unsent tap(s) discarded with it` });
        return ok(discarded);
      });
    },

    /** Takes the sender lease of this data file (one sending process at a time), or says who holds it. */
    takeLease(): LeaseResult {
      return takeSenderLease(store, { now: ctx.now });
    },

    /**
     * Run by the process that just took the lease: entries an earlier process left in `sending` are
     * queued again with the same requestId, flagged "no answer seen", and no backoff saved by an
     * earlier process holds a waiting entry (this process has not seen the service fail).
     */
    recover(): EntryRow[] {
      return store.transaction(() => {
        const now = ctx.now();
        // By id: an entry recovered from sending may also drop an old backoff; it is reported once, as it ends up.
        const out = new Map<number, EntryRow>();
        for (const e of store.outbox.inState('sending')) {
          out.set(e.id, mustMove(store.outbox, e, 'recover', now, { noAnswerBefore: true }));
          audit({
            kind: 'recover',
            entryId: e.id,
            orderId: e.orderId,
            outcome: 'requeued',
            message: 'Was being sent when Packdesk stopped; will be checked or sent again with the same request id',
          });
        }
        for (const e of store.outbox.backedOff()) out.set(e.id, mustMove(store.outbox, e, 'dropBackoff', now, { nextAttemptAt: null }));
        return [...out.values()];
      });
    },

    /** Claims up to `limit` due heads (queued -> sending) in one commit, so a crash from here on is recovered as "no answer seen". */
    claimDue(limit: number): EntryRow[] {
      if (limit <= 0) return [];
      return store.transaction(() => claimDueIn(limit));
    },

    /** Claimed entries that were not sent after all go back to queued, as they were; returns them as they are now. */
    release(entries: readonly EntryRow[]): EntryRow[] {
      if (entries.length === 0) return [];
      return store.transaction(() => entries.map((e) => mustMove(store.outbox, e, 'release', ctx.now())));
    },

    /** Connectivity came back: entries that backed off because of the network are due again. */
    networkBack(): EntryRow[] {
      return store.transaction(() => {
        const now = ctx.now();
        return store.outbox.networkBackedOff(now).map((e) => mustMove(store.outbox, e, 'dropBackoff', now, { nextAttemptAt: null }));
      });
    },

    /**
     * Settles `answered` and then claims `plan(settlements).claim` more due heads and releases
     * `plan(...).release`, all in ONE transaction (one fsync per batch). If it throws, nothing of it
     * happened: the file and the caller's picture are as before.
     */
    commit(answered: readonly Answered[], plan: (settlements: readonly Settlement[]) => { claim: number; release: readonly EntryRow[] }): Committed {
      return store.transaction(() => {
        const settlements = answered.map((a) => settleOne(ctx, a.entry, a.outcome, audit));
        const next = plan(settlements);
        const released = next.release.map((e) => mustMove(store.outbox, e, 'release', ctx.now()));
        const claimed = claimDueIn(next.claim);
        return { settlements, claimed, released };
      });
    },

    /** When the earliest queued head becomes due, or null when no order has a queued head. */
    nextWakeAt(): number | null {
      return store.outbox.nextWakeAt();
    },

    /** Entries waiting (queued or sending). */
    waiting(): number {
      return store.outbox.counts().waiting;
    },
  };

  function claimDueIn(limit: number): EntryRow[] {
    if (limit <= 0) return [];
    const now = ctx.now();
    const out: EntryRow[] = [];
    for (const e of store.outbox.dueHeads(now, limit)) {
      const r = move(store.outbox, e, 'claim', now);
      if (r.ok) out.push(r.value);
    }
    return out;
  }
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

type Audit = (line: Omit<Parameters<Store['audit']['add']>[0], 'terminal' | 'time'>) => void;

const CHECK_NOTE = {
  'not-applied': 'status check: the order did not show it yet, so it was sent again with the same request id',
  unavailable: 'status check not available: sent again with the same request id',
} as const;

function settleOne(ctx: OutboxContext, entry: EntryRow, outcome: AttemptOutcome, auditLine: Audit): Settlement {
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
 * A unit cut's item count as the packer saw it when tapping (the order as projected, just checked
 * against, so the projection is remembered), kept with the tap: the service's answer says only the
 * new count. Null for every other tap.
 */
function unitsBefore(action: Action, projected: () => Order | null): number | null {
  if (action.type !== 'ITEM_UNIT_UPDATE') return null;
  const itemId = action.itemId;
  return projected()?.items.find((i) => i.itemId === itemId)?.quantity.count ?? null;
}

/**
 * A 2xx whose body was empty (the platform's 204: plain success) or unreadable (probably applied):
 * never resent. The order is flagged for a refresh, or refreshed at once when `refreshed` came with it.
 */
function settleUnreadable(ctx: OutboxContext, entry: EntryRow, rawBody: string, message: string, refreshed: Order | null, audit: Audit): Settlement {
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
function saveNoticed(ctx: OutboxContext, order: Order, now: number): NoticedChange {
  const before = ctx.store.orders.held(order.id);
  // A body older than the one held is not stored (orders-table's supersedes), and says nothing new.
  if (!ctx.store.orders.saveBody(order, now, ctx.serviceNow?.() ?? now)) return { alarm: null, setAside: [] };
  return noticeChange(ctx.store, before, order, now, ctx.terminalId);
}

const others = (noticed: NoticedChange | null): { others?: readonly EntryRow[] } =>
  noticed && noticed.setAside.length > 0 ? { others: noticed.setAside } : {};
