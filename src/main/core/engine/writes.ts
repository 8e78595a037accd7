/**
 * What a person does at the counter through the engine: add or remove an order, tap, take a tap
 * back, retry or discard one, acknowledge an alarm, print, scan to pack. Each runs inside the
 * guard (guard.ts), so a data file problem is said, never thrown, and what changed is published
 * for every screen at once.
 */
import { fail, ok, type Result } from '../../../shared/result';
import type { EntryRow, Store } from '../db';
import { entryView, type Outbox, type StoreViews } from '../outbox';
import type { Packing } from '../packing';
import { createPackSteps } from '../packing/steps';
import type { EventHub } from './events';
import type { Guard } from './guard';
import type { Engine } from './types';

export type EngineWrites = Pick<
  Engine,
  'addOrder' | 'removeOrder' | 'submitTap' | 'undo' | 'retry' | 'discard' | 'acknowledgeAlarm' | 'recordPrint' | 'packState' | 'packScan' | 'packTeach'
>;

export interface WritesOptions {
  readonly store: Store;
  readonly outbox: Outbox;
  readonly views: StoreViews;
  readonly packing: Packing;
  /** This counter's name in its store hub, or null: where an order packed here was packed. */
  readonly counterName: () => string | null;
  readonly hub: EventHub;
  readonly now: () => number;
  readonly terminalId: string;
  readonly guard: Guard;
  /** Something was written (the engine folds the WAL in shortly after). */
  readonly wrote: () => void;
  /** Entries changed: their orders and the taps are published, then the status. */
  readonly publish: (entries: readonly EntryRow[], alwaysOrders: boolean) => void;
  readonly publishStatus: () => void;
  /** The sender looks at the queue again (a tap to send, or one taken back). */
  readonly wake: () => void;
  /** A tap was made now (the upkeep waits for a quiet counter). */
  readonly tapped: () => void;
}

export function engineWrites(o: WritesOptions): EngineWrites {
  const { store, outbox, views, hub, now, guard, wrote } = o;
  const packSteps = createPackSteps({ store, packing: o.packing, shown: (id) => views.viewOf(id)?.order ?? null, counterName: o.counterName, wrote });

  const afterChange = (entry: EntryRow): void => {
    o.publish([entry], false);
    o.wake();
  };

  /** A tap moved by a person (undo, retry, discard): every screen hears of it, and the sender looks again. */
  const moved = (r: Result<EntryRow>): Result<true> => {
    if (!r.ok) return r;
    afterChange(r.value);
    return ok(true as const);
  };

  return {
    addOrder(orderId) {
      return guard(() => {
        const r = outbox.addOrder(orderId);
        if (!r.ok) return r;
        const view = views.viewOf(r.value.row.id);
        if (!view) return fail('permanent', `Order ${r.value.row.id} could not be read back`, 'STORE_ERROR');
        if (r.value.added) wrote();
        if (r.value.added && hub.wanted('orders.changed')) hub.emit('orders.changed', { orders: [view] });
        return ok(view);
      });
    },

    removeOrder(orderId) {
      return guard(() => {
        const r = outbox.removeOrder(orderId);
        if (!r.ok) return r;
        wrote();
        if (r.value.length > 0) o.publish(r.value, false);
        else o.publishStatus();
        // Every screen hears of it (another window, or none asked: a late "no such order").
        hub.emit('orders.removed', { orderIds: [orderId.trim()] });
        return ok(true as const);
      });
    },

    submitTap(orderId, input, hubContext = null) {
      return guard(() => {
        const r = outbox.enqueue(orderId, input, hubContext);
        if (!r.ok) return r;
        o.tapped();
        afterChange(r.value.entry);
        return ok(entryView(r.value.entry, r.value.order));
      });
    },

    undo: (entryId) => guard(() => moved(outbox.undo(entryId))),
    retry: (entryId) => guard(() => moved(outbox.retry(entryId))),
    discard: (entryId) => guard(() => moved(outbox.discard(entryId))),

    acknowledgeAlarm(orderId) {
      return guard(() => {
        const id = orderId.trim();
        // The alarm's row keeps when it was acknowledged.
        const known = store.transaction(() => store.alarms.acknowledge(id, now()));
        if (!known) return fail('invalid', `Order ${id} has no alarm to acknowledge`, 'NO_ALARM', { orderId: id });
        wrote();
        const view = views.viewOf(id);
        if (view && hub.wanted('orders.changed')) hub.emit('orders.changed', { orders: [view] });
        return ok(true as const);
      });
    },

    recordPrint(orderId, document, outcome) {
      return guard(() => {
        store.transaction(() => store.history.addPrint({ orderId: orderId.trim(), document, time: now(), terminal: o.terminalId, outcome }));
        wrote();
        return ok(true as const);
      });
    },

    packState: (orderId) => guard(() => ok(packSteps.state(orderId))),
    packScan: (orderId, code) => guard(() => packSteps.scan(orderId, code)),
    packTeach: (orderId, code, itemId) => guard(() => packSteps.teach(orderId, code, itemId)),
  };
}
