/** Intake's view of the data file: its own connection, so it never waits inside the outbox's transactions. */
import type { Order } from '../../../shared/protocol';
import type { Store } from '../db';
import { noticeChange } from '../outbox/elsewhere';
import type { IntakeStore } from './ports';

/**
 * Adapts an open store to what intake needs. A body stored over an older one is compared with it
 * in the same transaction: a cancellation or a change of items made elsewhere to an order this
 * terminal worked on raises its alarm (outbox/elsewhere.ts).
 */
export function storeForIntake(store: Store, terminalId = 'intake'): IntakeStore {
  const save = (order: Order, now: number): 'new' | 'updated' | 'unchanged' => {
    const before = store.orders.get(order.id)?.body ?? null;
    const result = store.orders.saveIfNewer(order, now);
    if (result !== 'unchanged') noticeChange(store, before, order, now, terminalId);
    return result;
  };
  return {
    saveIfNewer: (order, now) => store.transaction(() => save(order, now)),
    saveAllIfNewer: (orders, now) => store.transaction(() => orders.map((order) => save(order, now))),
    state: () => store.intake.get(),
    commit: (to, at) => store.transaction(() => store.intake.commit(to, at)),
    setNoAccess: (value) => store.transaction(() => store.intake.setNoAccess(value)),
  };
}
