/** Intake's view of the data file: its own connection, so it never waits inside the outbox's transactions. */
import type { Store } from '../db';
import type { IntakeStore } from './ports';

/**
 * Adapts an open store to what intake needs; `serviceNow` is the order service's clock, against
 * which a body stamped in the future is not believed (defaults to the time of the write).
 */
export function storeForIntake(store: Store, serviceNow?: () => number): IntakeStore {
  const service = (now: number): number => serviceNow?.() ?? now;
  return {
    saveIfNewer: (order, now) => store.transaction(() => store.orders.saveIfNewer(order, now, service(now))),
    saveAllIfNewer: (orders, now) => store.transaction(() => orders.map((order) => store.orders.saveIfNewer(order, now, service(now)))),
    setAside: (orderId, rawBody, now) => store.transaction(() => store.orders.markUnreadable(orderId, rawBody, now)),
    state: () => store.intake.get(),
    commit: (to, at) => store.transaction(() => store.intake.commit(to, at)),
    setNoAccess: (value) => store.transaction(() => store.intake.setNoAccess(value)),
  };
}
