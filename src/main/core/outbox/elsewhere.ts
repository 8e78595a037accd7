/**
 * Changes someone else made to an order this terminal worked on (the marketplace cancelled it, or
 * changed its items): each new body from the service is compared with the one before. Such a change
 * raises the order's alarm (kept in the data file until a person acknowledges it), and the taps of a
 * cancelled order still waiting here are set aside: they would only be refused (decisions.md).
 */
import { changedAtOf, orderPhase } from '../../../shared/fulfilment';
import type { Order } from '../../../shared/protocol';
import type { Problem } from '../../../shared/result';
import type { AlarmKind, EntryRow, Store } from '../db';
import { move } from './lifecycle';
import { summarize } from './summary';

/** What a new body changed on the terminal. */
export interface NoticedChange {
  readonly alarm: AlarmKind | null;
  /** Taps set aside because the order is cancelled (now discarded, with the reason). */
  readonly setAside: readonly EntryRow[];
}

const NOTHING: NoticedChange = { alarm: null, setAside: [] };

/** The code a tap set aside for a cancelled order carries; its `at` value is when the order was cancelled. */
export const CANCELLED_ELSEWHERE = 'ORDER_CANCELLED_ELSEWHERE';

/** Why a tap of an order cancelled at `at` is not sent. */
export function cancelledProblem(at: number): Problem {
  return {
    kind: 'permanent',
    code: CANCELLED_ELSEWHERE,
    message: `The order was cancelled at the order service at ${new Date(at).toISOString()}; this tap will not be sent`,
    values: { at },
  };
}

/**
 * Run inside the transaction that stores `after` (the service's body) over `before` (the stored
 * one, or null). Raises the alarm and sets aside waiting taps as the module comment says.
 */
export function noticeChange(store: Store, before: Order | null, after: Order, now: number, terminalId: string): NoticedChange {
  const cancelled = orderPhase(after) === 'CANCELLED';
  const wasCancelled = before !== null && orderPhase(before) === 'CANCELLED';
  const itemsMoved = before !== null && !cancelled && itemCounts(before) !== itemCounts(after);
  if (!cancelled && !itemsMoved) return NOTHING;
  const entries = store.outbox.forOrder(after.id);
  // The taps this terminal made on the order and did not take back.
  const worked = entries.filter((e) => e.lastError?.code !== 'UNDONE');
  if (worked.length === 0) return NOTHING;
  const changedAt = changedAtOf(after) ?? now;
  let alarm: AlarmKind | null = null;
  if (cancelled && !wasCancelled && !worked.some(isOwnCancel)) alarm = 'cancelled';
  else if (itemsMoved && !explainedByOwnCuts(before, after, worked)) alarm = 'items';
  // The alarm's row is its own record (when raised, when acknowledged), as an outbox row is a tap's.
  if (alarm) store.alarms.raise(after.id, alarm, changedAt, now);
  const setAside: EntryRow[] = [];
  if (cancelled)
    for (const e of entries) {
      if (e.state !== 'queued' && e.state !== 'failed') continue;
      const moved = move(store.outbox, e, 'setAside', now, { nextAttemptAt: null, lastError: cancelledProblem(changedAt) });
      if (!moved.ok) continue;
      setAside.push(moved.value);
      store.audit.add({
        time: now,
        terminal: terminalId,
        kind: 'discard',
        entryId: e.id,
        orderId: e.orderId,
        outcome: 'set aside',
        message: `${summarize(e.action, null)} (was ${e.state}): the order was cancelled at the order service; not sent`,
      });
    }
  return { alarm, setAside };
}

const isOwnCancel = (e: EntryRow): boolean =>
  e.state !== 'discarded' && e.action.type === 'ORDER_STATE_UPDATE' && e.action.orderState === 'CANCELLED';

/** The items and their units, as one comparable string. */
function itemCounts(order: Order): string {
  return order.items.map((i) => `${i.itemId}=${i.quantity.count}`).join('|');
}

/** Every changed count is one this terminal asked for itself (a unit cut it tapped), and no item came or went. */
function explainedByOwnCuts(before: Order | null, after: Order, worked: readonly EntryRow[]): boolean {
  if (!before || before.items.length !== after.items.length) return false;
  const was = new Map(before.items.map((i) => [i.itemId, i.quantity.count]));
  return after.items.every((i) => {
    const count = was.get(i.itemId);
    if (count === undefined) return false;
    return count === i.quantity.count || worked.some((e) => e.action.type === 'ITEM_UNIT_UPDATE' && e.action.itemId === i.itemId && e.action.itemUnits === i.quantity.count);
  });
}
