/** Turns rows into the views the UI and the CLI show (src/shared/ipc/), so no shell recomputes them. */
import { nextStep, promisedPackedAt } from '../../../shared/fulfilment';
import { addCut, cutsShownOn } from '../../../shared/orders';
import type { MatchKind } from '../../../shared/orders';
import { type Order, orderIdProblem } from '../../../shared/protocol';
import type { ItemCut, OrderView, OutboxEntryView } from '../../../shared/ipc';
import type { AlarmRow, CutRow, EntryRow, OrderRow, Store } from '../db';
import type { Logger } from '../log';
import { Projector } from './projection';
import { summarize } from './summary';
import { isPending, project, type ProjectFn } from './validate';

/** One outbox entry as shown; `order` (if known) names items in the summary. */
export function entryView(entry: EntryRow, order: Order | null): OutboxEntryView {
  return {
    id: entry.id,
    requestId: entry.requestId,
    orderId: entry.orderId,
    action: entry.action,
    summary: summarize(entry.action, order),
    state: entry.state,
    createdAt: entry.createdAt,
    sendAfter: entry.sendAfter,
    attempts: entry.attempts,
    nextAttemptAt: entry.nextAttemptAt,
    lastError: entry.lastError,
    mayBeApplied: entry.mayBeApplied,
    sentAt: entry.sentAt,
    packer: entry.packer,
    ...(entry.unitsBefore !== null ? { unitsBefore: entry.unitsBefore } : {}),
    ...(entry.hubUnchecked !== null ? { hub: { unchecked: entry.hubUnchecked !== 0, seen: [...(entry.hubSeen ?? [])] } } : {}),
  };
}

/**
 * One order as shown: the projected order, its one next step, how many taps wait or failed, its open
 * alarm, and the items this terminal cut (`cuts`, read for one order's whole view, not the queue's).
 */
export function orderView(
  row: OrderRow,
  entries: readonly EntryRow[],
  now: number,
  projectWith?: ProjectFn,
  alarm?: AlarmRow | null,
  cuts: readonly CutRow[] = [],
): OrderView {
  const projected = projectWith ? projectWith(row.id, row.body, entries, now) : project(row.body, entries, now);
  const pending = entries.filter(isPending);
  const waiting = pending.filter((e) => e.state === 'queued' || e.state === 'sending').length;
  const failed = pending.filter((e) => e.state === 'failed' && !e.mayBeApplied).length;
  // With no details yet, Accept is the only step, and once it waits there is nothing more to tap.
  const step = projected ? nextStep(projected) : pending.length > 0 ? null : nextStep(undefined);
  return {
    id: row.id,
    order: projected,
    nextStep: step,
    waiting,
    failed,
    mayBeApplied: pending.some((e) => e.state === 'failed' && e.mayBeApplied),
    needsRefresh: row.needsRefresh,
    promisedPackedAt: promisedPackedAt(projected ?? undefined) ?? null,
    syncedAt: row.syncedAt,
    addedAt: row.addedAt,
    unreadable: isUnreadable(row),
    ...(alarm && alarm.acknowledgedAt === null ? { alarm: { kind: alarm.kind, changedAt: alarm.changedAt, raisedAt: alarm.raisedAt } } : {}),
    ...cutsShown(cuts, projected),
  };
}

/** Per item, the count before its first cut and its latest cut's reason (shared/orders/cuts.ts). */
function cutsShown(rows: readonly CutRow[], order: Order | null): { cuts?: ItemCut[] } {
  let cuts: ItemCut[] = [];
  for (const r of rows) cuts = addCut(cuts, { itemId: r.itemId, was: r.unitsBefore, reason: r.reason });
  const shown = cutsShownOn(order, cuts);
  return shown.length > 0 ? { cuts: shown } : {};
}

/**
 * Whether the service's latest word on an order could not be read: a body that breaks the
 * schema's ranges (stored so by an older Packdesk, or refused on arrival with the answer kept), or
 * an id that breaks the one id rule. Such an order is set aside and named, never hides the others.
 */
export function isUnreadable(row: OrderRow): boolean {
  return row.bodyUnreadable || (row.rawUnreadable ?? '') !== '' || orderIdProblem(row.id) !== null;
}

/** The views of what one data file holds, as the engine answers the screens and the CLI. */
export interface StoreViews {
  /** One order as shown, with its alarm and cuts; null when the terminal does not hold it. */
  viewOf(orderId: string): OrderView | null;
  /** Entries as shown, each naming items by its order's cached body. */
  entryViews(entries: readonly EntryRow[]): OutboxEntryView[];
  /** Every order on the terminal as shown; one that cannot be shown is set aside, never the list. */
  listOrders(): OrderView[];
  /** Orders that typed text finds (id, last digits, name, phone, invoice), most certain first. */
  findOrders(text: string, limit: number): { matches: { view: OrderView; by: MatchKind }[]; more: boolean };
  /** Orders whose full projection is kept in memory now. */
  projectionsKept(): number;
}

export function storeViews(o: { store: Store; now: () => number; log: Logger }): StoreViews {
  const { store, now, log } = o;
  // Full projections (not the outbox's slim ones): the screens show every field of an order.
  const projector = new Projector();
  const projectWith: ProjectFn = (id, body, entries, t) => projector.project(id, body, entries, t);

  const ordersById = (ids: Iterable<string>): Map<string, Order | null> => {
    const out = new Map<string, Order | null>();
    for (const id of ids) if (!out.has(id)) out.set(id, store.orders.get(id)?.body ?? null);
    return out;
  };

  const viewOf = (orderId: string): OrderView | null => {
    const row = store.orders.get(orderId);
    return row
      ? orderView(row, store.outbox.projectedForOrder(orderId), now(), projectWith, store.alarms.get(orderId), [...store.hubTaps.cutsForOrder(orderId), ...store.outbox.cutsForOrder(orderId)])
      : null;
  };

  return {
    viewOf,

    entryViews(entries) {
      const orders = ordersById(entries.map((e) => e.orderId));
      return entries.map((e) => entryView(e, orders.get(e.orderId) ?? null));
    },

    listOrders() {
      const byOrder = new Map<string, EntryRow[]>();
      for (const e of store.outbox.projectedAll()) {
        const list = byOrder.get(e.orderId);
        if (list) list.push(e);
        else byOrder.set(e.orderId, [e]);
      }
      const t = now();
      const alarms = store.alarms.open();
      // An order that left the terminal is never looked at again: its projection goes with it.
      projector.keepOnly(new Set(byOrder.keys()));
      return store.orders.list().map((row) => {
        try {
          return orderView(row, byOrder.get(row.id) ?? [], t, projectWith, alarms.get(row.id));
        } catch (e) {
          // One order whose taps cannot be laid over its body is set aside, never the whole queue.
          log.error('an order could not be shown', { orderId: row.id, error: e });
          return orderView({ ...row, body: null, bodyUnreadable: true, needsRefresh: true }, [], t);
        }
      });
    },

    findOrders(text, limit) {
      const { found, more } = store.search.find(text, limit);
      const matches = found.flatMap(({ id, by }) => {
        const view = viewOf(id);
        return view ? [{ view, by }] : [];
      });
      return { matches, more };
    },

    projectionsKept: () => projector.remembered,
  };
}
