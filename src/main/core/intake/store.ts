/** Intake's view of the data file: its own connection, so it never waits inside the outbox's transactions. */
import type { Store } from '../db';
import type { IntakeStore } from './ports';

/** Adapts an open store to what intake needs. */
export function storeForIntake(store: Store): IntakeStore {
  return {
    saveIfNewer: (order, now) => store.transaction(() => store.orders.saveIfNewer(order, now)),
    saveAllIfNewer: (orders, now) => store.transaction(() => orders.map((order) => store.orders.saveIfNewer(order, now))),
    state: () => store.intake.get(),
    commit: (to, at) => store.transaction(() => store.intake.commit(to, at)),
    setNoAccess: (value) => store.transaction(() => store.intake.setNoAccess(value)),
  };
}
