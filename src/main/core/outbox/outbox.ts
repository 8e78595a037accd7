/**
 * The outbox: a persisted queue that owns its entries' lifecycle. Every tap becomes a committed
 * row before the call returns; the queue claims due entries, settles every answer on its row (and
 * on the orders cache) in one transaction (what each answer means: settle.ts), recovers what a
 * stopped process left, and holds the sender lease. Every state change goes through lifecycle.ts.
 * The scheduler (core/sync) only decides when and how many.
 */
import { applyAction } from '../../../shared/fulfilment';
import { type Action, type ActionInput, buildAction, checkId, type Order } from '../../../shared/protocol';
import { fail, ok, type Problem, type Result } from '../../../shared/result';
import type { EntryRow, OrderRow, Store } from '../db';
import type { AttemptOutcome } from './attempt';
import type { BackoffPolicy } from './backoff';
import { takeSenderLease, type LeaseResult } from './lease';
import { move, mustMove } from './lifecycle';
import { summarize } from './summary';
import { Projector } from './projection';
import { type Settlement, settleOne } from './settle';
import { TapReads } from './tap-reads';
import { checkTap, isPending, project, type ProjectFn } from './validate';

export { DONE_ELSEWHERE, type Settlement } from './settle';

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

export type Outbox = ReturnType<typeof createOutbox>;

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
        projector.forget(entry.orderId);
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
        projector.forget(entry.orderId);
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
      const committed = store.transaction(() => {
        const settlements = answered.map((a) => settleOne(ctx, a.entry, a.outcome, audit));
        const next = plan(settlements);
        const released = next.release.map((e) => mustMove(store.outbox, e, 'release', ctx.now()));
        const claimed = claimDueIn(next.claim);
        return { settlements, claimed, released };
      });
      for (const a of answered) projector.forget(a.entry.orderId);
      return committed;
    },

    /** Orders whose tap projection is kept in memory now (for the memory benchmark and its tests). */
    projectionsKept(): number {
      return projector.remembered;
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
