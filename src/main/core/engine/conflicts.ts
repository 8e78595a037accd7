/**
 * The engine's side of orders packed twice while counters could not see each other (issue 39):
 * other counters' taps heard through the hub kept in the data file (hub_taps), this counter's taps
 * made without asking the hub, and each conflict's record (order_conflicts) from the moment it is
 * found until a person settles it and, at a counter that does not keep the order, says its items
 * are back. The rules that find and share them are core/hub's (apart.ts, conflicts.ts); this module
 * only reads and writes, and shapes what a screen shows.
 */
import type { ConflictRecord, SharedTap } from '../../../shared/hub';
import type { OrderConflict, PutBackItem } from '../../../shared/ipc';
import type { Order } from '../../../shared/protocol';
import { changedAtOf, orderPhase } from '../../../shared/fulfilment';
import { fail, ok, type Result } from '../../../shared/result';
import type { ConflictRow, EntryRow, HubTapRow, Store } from '../db';
import { mergeConflict, sameConflict, type WorkTap, workOf } from '../hub/apart';
import type { Packing } from '../packing';

/** This counter's taps on an order made without asking the hub, not yet looked at with the hub back. */
export interface UncheckedWork {
  readonly orderId: string;
  readonly requestIds: readonly string[];
  readonly packers: readonly string[];
}

/** Who this counter is in its hub. */
export interface ConflictCounter {
  readonly counterId: string;
  readonly counterName: string;
}

export interface EngineConflicts {
  /** Keeps other counters' taps heard through the hub; answers the orders whose taps changed here. */
  keepHubTaps(taps: readonly SharedTap[]): string[];
  /** This counter's and other counters' taps on an order, as finding taps made apart reads them. */
  workTaps(orderId: string, me: ConflictCounter): { own: WorkTap[]; others: WorkTap[] };
  /** Orders with packing taps of this counter made unchecked and not looked at yet. */
  uncheckedWork(): UncheckedWork[];
  /** Those orders were looked at with the hub back. */
  reconciled(orderIds: readonly string[]): void;
  /** Keeps a record found here (`shared` false) or heard from the hub (true), merged with what is here; true when it changed here. */
  keep(record: ConflictRecord, from: 'found' | 'hub'): boolean;
  /** The record of an order, as kept here. */
  get(orderId: string): ConflictRow | null;
  /** Settles who keeps the order (a person at this counter chose); the record as it is now. */
  settle(orderId: string, keeperId: string, by: { readonly counterName: string; readonly packer: string | null }): Result<ConflictRecord>;
  /** A person here put the items back. */
  putBack(orderId: string): Result<true>;
  /** Records the hub does not hold as they are here. */
  unshared(): ConflictRecord[];
  /** The hub took this record as written. */
  markShared(record: ConflictRecord): void;
  /** What screens show of each order's conflict at this counter (open ones, and items still to put back here); kept until the next write. */
  views(counterId: string): ReadonlyMap<string, OrderConflict>;
  /** Conflicts raised here in [from, to). */
  raisedBetween(from: number, to: number): ConflictRow[];
  /**
   * An order this counter holds (its claim) was cancelled by someone else though no tap of this
   * counter's was made on it yet (taken over, not touched): its alarm is raised as for an order
   * worked on here (outbox/elsewhere.ts). True when it was raised now.
   */
  alarmHeld(orderId: string): boolean;
}

/** A tap of this counter as finding taps made apart reads it (only taps made while in a hub carry what it needs). */
function ownWork(e: EntryRow, me: ConflictCounter): WorkTap | null {
  if (e.hubUnchecked === null) return null;
  return {
    requestId: e.requestId,
    counterId: me.counterId,
    counterName: me.counterName,
    packer: e.packer,
    action: e.action,
    unchecked: e.hubUnchecked !== 0,
    seen: e.hubSeen,
    undone: e.lastError?.code === 'UNDONE',
  };
}

function otherWork(t: HubTapRow): WorkTap {
  return {
    requestId: t.requestId,
    counterId: t.counterId,
    counterName: t.counterName,
    packer: t.packer,
    action: t.action,
    unchecked: t.unchecked,
    seen: t.seen,
    // Another counter's tap taken back there is discarded and never sent; whether it was undone is not said, so it counts.
    undone: false,
  };
}

/** What a counter that does not keep the order puts back: what it scanned, else what it cut, else every line of the order. */
export function putBackItems(order: Order | null, scanned: readonly { itemId: string; scanned: number }[], cuts: readonly { itemId: string; units: number }[]): PutBackItem[] {
  const byScan = scanned.filter((s) => s.scanned > 0).map((s) => ({ itemId: s.itemId, units: s.scanned, why: 'scanned' as const }));
  const byCut = cuts.filter((c) => c.units > 0 && !byScan.some((s) => s.itemId === c.itemId)).map((c) => ({ itemId: c.itemId, units: c.units, why: 'cut' as const }));
  if (byScan.length + byCut.length > 0) return [...byScan, ...byCut];
  return (order?.items ?? []).filter((i) => i.quantity.count > 0).map((i) => ({ itemId: i.itemId, units: i.quantity.count, why: 'picked' as const }));
}

export function createEngineConflicts(deps: { store: Store; packing: Packing; now: () => number; order: (orderId: string) => Order | null }): EngineConflicts {
  const { store, packing, now } = deps;
  // Read again after any write to the file (a scan or a cut changes what to put back).
  let cached: { counterId: string; generation: string; views: Map<string, OrderConflict> } | null = null;
  const changed = (): void => {
    cached = null;
  };

  const viewOf = (row: ConflictRow, counterId: string): OrderConflict | null => {
    const { record } = row;
    const here = record.parties.some((p) => p.counterId === counterId);
    if (!here) return null;
    const settled = record.settled;
    const keeperHere = settled?.keeperId === counterId;
    // Settled: nothing more to say where the order stays, nor once the items are back.
    if (settled && (keeperHere || row.putBackAt !== null)) return null;
    const view: OrderConflict = {
      parties: record.parties.map((p) => ({ counterId: p.counterId, counterName: p.counterName, packers: [...p.packers], here: p.counterId === counterId })),
      raisedAt: row.raisedAt,
      settled: settled ? { keeperName: settled.keeperName, keeperHere, byCounter: settled.byCounter, byPacker: settled.byPacker, at: settled.at } : null,
    };
    if (!settled) return view;
    const cuts = store.outbox.forOrder(record.orderId).flatMap((e) =>
      e.action.type === 'ITEM_UNIT_UPDATE' && e.state !== 'discarded' ? [{ itemId: e.action.itemId, units: e.action.itemUnits }] : [],
    );
    return { ...view, putBack: putBackItems(deps.order(record.orderId), packing.counts(record.orderId).items, cuts) };
  };

  return {
    keepHubTaps(taps) {
      const rows: HubTapRow[] = taps.map((t) => ({
        counterId: t.counterId,
        requestId: t.requestId,
        orderId: t.orderId,
        counterName: t.counterName,
        packer: t.packer ?? null,
        action: t.action,
        summary: t.summary,
        state: t.state,
        queuedAt: t.queuedAt,
        sentAt: t.sentAt,
        unchecked: t.unchecked === true,
        seen: t.seen ?? null,
        unitsBefore: t.unitsBefore ?? null,
      }));
      if (rows.length === 0) return [];
      return [...store.transaction(() => store.hubTaps.put(rows, now()))];
    },

    workTaps(orderId, me) {
      const own = store.outbox.forOrder(orderId).flatMap((e) => ownWork(e, me) ?? []);
      const others = store.hubTaps.forOrder(orderId).map(otherWork);
      return { own, others };
    },

    uncheckedWork() {
      const byOrder = new Map<string, { requestIds: string[]; packers: Set<string> }>();
      for (const e of store.outbox.uncheckedWork()) {
        if (workOf(e.action) !== 'packing' || e.lastError?.code === 'UNDONE') continue;
        const at = byOrder.get(e.orderId) ?? { requestIds: [], packers: new Set<string>() };
        at.requestIds.push(e.requestId);
        if (e.packer) at.packers.add(e.packer);
        byOrder.set(e.orderId, at);
      }
      return [...byOrder].map(([orderId, at]) => ({ orderId, requestIds: at.requestIds, packers: [...at.packers] }));
    },

    reconciled(orderIds) {
      if (orderIds.length > 0) store.transaction(() => store.outbox.markReconciled(orderIds));
    },

    keep(record, from) {
      return store.transaction(() => {
        const here = store.conflicts.get(record.orderId);
        if (!here) {
          store.conflicts.put(record, now(), from === 'hub');
          changed();
          return true;
        }
        // The hub's word first (its settlement is the one that stands); what only this file knew is added to it.
        const merged = from === 'hub' ? mergeConflict(record, here.record) : mergeConflict(here.record, record);
        const shared = from === 'hub' ? sameConflict(merged, record) : here.shared && sameConflict(merged, here.record);
        if (sameConflict(merged, here.record) && shared === here.shared) return false;
        store.conflicts.put(merged, here.raisedAt, shared);
        changed();
        return !sameConflict(merged, here.record);
      });
    },

    get: (orderId) => store.conflicts.get(orderId),

    settle(orderId, keeperId, by) {
      return store.transaction((): Result<ConflictRecord> => {
        const here = store.conflicts.get(orderId);
        if (!here) return fail('invalid', `Order ${orderId} was not packed twice.`, 'NO_CONFLICT', { orderId });
        if (here.record.settled) return ok(here.record);
        const keeper = here.record.parties.find((p) => p.counterId === keeperId);
        if (!keeper) return fail('invalid', `That counter did not work on order ${orderId}.`, 'NOT_A_PARTY', { orderId });
        const record: ConflictRecord = {
          ...here.record,
          settled: { keeperId, keeperName: keeper.counterName, byCounter: by.counterName, byPacker: by.packer, at: now() },
        };
        store.conflicts.put(record, here.raisedAt, false);
        changed();
        return ok(record);
      });
    },

    putBack(orderId) {
      return store.transaction((): Result<true> => {
        const here = store.conflicts.get(orderId);
        if (!here?.record.settled) return fail('invalid', `Order ${orderId} has nothing to put back.`, 'NO_CONFLICT', { orderId });
        store.conflicts.putBack(orderId, now());
        changed();
        return ok(true);
      });
    },

    unshared: () => store.conflicts.unshared().map((r) => r.record),

    markShared(record) {
      store.transaction(() => store.conflicts.markShared(record));
    },

    views(counterId) {
      const generation = store.generation();
      if (cached?.counterId === counterId && cached.generation === generation) return cached.views;
      const views = new Map<string, OrderConflict>();
      for (const row of store.conflicts.open()) {
        const view = viewOf(row, counterId);
        if (view) views.set(row.record.orderId, view);
      }
      cached = { counterId, generation, views };
      return views;
    },

    raisedBetween: (from, to) => store.conflicts.raisedBetween(from, to),

    alarmHeld(orderId) {
      return store.transaction(() => {
        const body = store.orders.get(orderId)?.body;
        if (!body || orderPhase(body) !== 'CANCELLED' || store.alarms.get(orderId) !== null) return false;
        store.alarms.raise(orderId, 'cancelled', changedAtOf(body) ?? now(), now());
        changed();
        return true;
      });
    },
  };
}
