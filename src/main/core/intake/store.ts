/** Intake's view of the data file: its own connection, so it never waits inside the outbox's transactions. */
import type { Store } from '../db';
import { noticeChange } from '../outbox/elsewhere';
import type { IntakeStore } from './ports';

/**
 * Adapts an open store to what intake needs; `serviceNow` is the order service's clock, against
 * which a body stamped in the future is not believed (defaults to the time of the write). A body
 * stored, or an answer set aside, takes its id off the list still to fetch in the same transaction.
 * A body stored over an older one is compared with it in the same transaction too: a cancellation
 * or a change of items made elsewhere to an order this terminal worked on raises its alarm
 * (outbox/elsewhere.ts).
 */
export function storeForIntake(store: Store, serviceNow?: () => number, terminalId = 'intake'): IntakeStore {
  const service = (now: number): number => serviceNow?.() ?? now;
  const save: IntakeStore['saveIfNewer'] = (order, now) => {
    const before = store.orders.held(order.id);
    const result = store.orders.saveIfNewer(order, now, service(now));
    if (result !== 'unchanged') noticeChange(store, before, order, now, terminalId);
    store.intake.fetched(order.id);
    return result;
  };
  return {
    saveIfNewer: (order, now) => store.transaction(() => save(order, now)),
    saveAllIfNewer: (orders, now) => store.transaction(() => orders.map((order) => save(order, now))),
    setAside: (orderId, rawBody, now) =>
      store.transaction(() => {
        store.orders.markUnreadable(orderId, rawBody, now);
        store.intake.fetched(orderId);
      }),
    state: () => store.intake.get(),
    beginWindow: (from, to) => store.transaction(() => store.intake.beginWindow(from, to)),
    savePage: (orderIds, nextPage, at) =>
      store.transaction(() => {
        store.intake.savePage(orderIds, nextPage, at);
        const window = store.intake.get().window;
        if (nextPage === null && window) store.intake.commit(window.to);
      }),
    dropWindow: (problem) =>
      store.transaction(() => {
        store.intake.dropWindow();
        store.intake.setWindowProblem(problem);
      }),
    passCompleted: (at) => store.transaction(() => store.intake.passCompleted(at)),
    setWindowProblem: (problem) => store.transaction(() => store.intake.setWindowProblem(problem)),
    due: (now, limit) => store.intake.due(now, limit),
    fetchFailed: (orderId, error, nextAt) => store.transaction(() => store.intake.fetchFailed(orderId, error, nextAt)),
    stillToFetch: (limit) => store.intake.stillToFetch(limit),
    setNoAccess: (value) => store.transaction(() => store.intake.setNoAccess(value)),
    changesAsked: (at, settings) => store.transaction(() => store.intake.changesAsked(at, settings)),
    readEnded: (read, notBefore) => store.transaction(() => store.intake.readEnded(read, notBefore)),
  };
}
