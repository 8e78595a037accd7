/**
 * The queue's rows for `orders.head`, listed ahead when asked (`prepare`): a page about to ask for
 * its first screen (the harness knows once it has served the page's scripts) then gets its
 * answer without waiting for the listing of every order (tens of milliseconds for 5,000, several
 * times that on a busy machine), which runs while the page loads instead. A prepared list serves
 * one head only, and only while nothing about the orders has changed since: the same engine, no
 * orders or outbox event, and at most PREPARED_MS old; else the head lists afresh.
 */
import type { EventName, OrderSummary, OrderView } from '../../../shared/ipc';
import { summarize } from '../../../shared/orders';
import type { Engine } from '../engine';

/** How long a list made ahead stays good for a head without any event (the views are projected at a time). */
export const PREPARED_MS = 2_000;

/** Events after which a list made ahead no longer holds. */
const CHANGES: ReadonlySet<EventName> = new Set(['orders.changed', 'orders.removed', 'orders.listed', 'outbox.changed', 'hub.status']);

export interface QueueRows {
  /** Lists every order's row now and keeps it for the next `forHead`. */
  prepare(): void;
  /** The rows for a head: the prepared ones when they still hold (used once), else listed now. */
  forHead(): OrderSummary[];
  /** To be called with every event the host raises. */
  noteEvent(event: EventName): void;
}

export function createQueueRows(deps: { engine: () => Engine | null; now: () => number; decorate?: (view: OrderView) => OrderView }): QueueRows {
  let prepared: { rows: OrderSummary[]; engine: Engine; at: number } | null = null;
  const decorate = deps.decorate ?? ((view: OrderView) => view);
  const list = (engine: Engine | null): OrderSummary[] => (engine?.listOrders() ?? []).map((v) => summarize(decorate(v)));
  return {
    prepare() {
      const engine = deps.engine();
      prepared = engine ? { rows: list(engine), engine, at: deps.now() } : null;
    },
    forHead() {
      const engine = deps.engine();
      const kept = prepared;
      prepared = null;
      if (kept && kept.engine === engine && deps.now() - kept.at <= PREPARED_MS) return kept.rows;
      return list(engine);
    },
    noteEvent(event) {
      if (CHANGES.has(event)) prepared = null;
    },
  };
}
