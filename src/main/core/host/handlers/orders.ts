/**
 * The orders domain's handlers: the queue, one order, adding an id (asked of the service at once),
 * finding and searching, taps, and what the store hub settles between counters. Views go out with
 * the hub's facts laid over them (hub.decorate).
 */
import type { ordersCommands } from '../../../../shared/ipc';
import { CANCEL_REASONS, ITEM_UNIT_REASONS, findReason, type ActionInput } from '../../../../shared/protocol';
import { SEARCH_LIMIT } from '../../../../shared/ipc';
import { FIND_LIMIT, queueHead, summarize } from '../../../../shared/orders';
import { fail, ok } from '../../../../shared/result';
import type { Engine } from '../../engine';
import { awaitWithin, systemTimers } from '../../time';
import { done, type DomainHandlers, type HandlerKit } from './common';

/** A cancellation (or unit cut) whose reason is marked needsManager, e.g. FRAUD_PRESCRIPTION, needs the PIN. */
export function needsManager(input: ActionInput): boolean {
  if (input.kind === 'orderState' && input.reason) return findReason(CANCEL_REASONS, input.reason)?.needsManager === true;
  if (input.kind === 'units') return findReason(ITEM_UNIT_REASONS, input.reason)?.needsManager === true;
  return false;
}

const FETCH_PATIENCE_MS = 2_500;

export function ordersHandlers(kit: HandlerKit): DomainHandlers<typeof ordersCommands> {
  const { engineOr, withPin } = kit;
  const { runtime, log, hub, ...deps } = kit.deps;

  /**
   * A scanned or typed id the terminal does not know, asked of the service at once: its items show
   * before Accept, and an id the service does not know is never added. 'unknown' when the service
   * cannot be asked now (offline) or did not answer within the packer's patience.
   */
  const fetchUnknown = async (orderId: string): Promise<'found' | 'notFound' | 'unknown'> => {
    const service = runtime.service();
    if (!service || service.engine.status().connectivity === 'offline') return 'unknown';
    const fetching = service.intake.fetchOrder(orderId);
    // The packer waits at most this long; a slower answer still arrives as an orders.changed event.
    const report = await awaitWithin(fetching, FETCH_PATIENCE_MS, 'late' as const, systemTimers, { keepAlive: true });
    if (report === 'late') {
      // Added meanwhile as still unknown: a late "no such order" takes it off again, so it does not
      // wait for its items for good.
      void fetching.then((late) => {
        if (late.kind === 'notFound') dropUnknown(orderId);
      });
      return 'unknown';
    }
    if (report.kind === 'stored') return 'found';
    return report.kind === 'notFound' ? 'notFound' : 'unknown';
  };

  /** Takes off an order the service does not know, when nothing was tapped on it. */
  const dropUnknown = (orderId: string): void => {
    const engine = runtime.engine();
    const view = engine?.getOrder(orderId);
    if (!engine || !view || view.order !== null || view.waiting > 0 || view.failed > 0) return;
    const removed = engine.removeOrder(orderId);
    log.info('an id the order service does not know was taken off again', { ok: removed.ok });
  };

  return {
    // Queue rows, not whole views: 5,000 bodies are about 23 MB to carry and check on every start.
    'orders.list': async () => ok(deps.queue.rows()),
    'orders.get': async ({ orderId }) =>
      engineOr((e) => {
        const view = e.getOrder(orderId);
        return ok(view ? hub.decorate(view) : null);
      }),
    'orders.add': async ({ orderId }) => {
      const known = runtime.engine()?.getOrder(orderId);
      if (known?.order) return ok(hub.decorate(known));
      const fetched = await fetchUnknown(orderId);
      if (fetched === 'notFound') {
        // Added earlier while offline, perhaps: it is not waiting for items that will never come.
        if (known) dropUnknown(orderId);
        return fail('invalid', `The order service does not know order ${orderId}.`, 'ORDER_NOT_FOUND', { orderId });
      }
      return engineOr((e) => e.addOrder(orderId));
    },
    'orders.find': async ({ text }) =>
      engineOr((e) => {
        const { matches, more } = e.findOrders(text, FIND_LIMIT);
        return ok({ matches: matches.map(({ view, by }) => ({ order: summarize(hub.decorate(view)), by })), more });
      }),
    'orders.search': async ({ text, standing, day }) =>
      engineOr((e) => {
        const { hits, more } = e.searchOrders({ text, standing, day }, SEARCH_LIMIT);
        return ok({
          hits: hits.map(({ view, ...hit }) => ({ ...hit, order: view ? summarize(hub.decorate(view)) : null })),
          more,
        });
      }),
    'orders.remove': async ({ orderId }) => engineOr((e) => done(e.removeOrder(orderId))),
    'orders.head': async ({ rows }) => ok(queueHead(deps.queue.rows(), rows)),
    'orders.acknowledge': async ({ orderId }) => engineOr((e) => done(e.acknowledgeAlarm(orderId))),
    'taps.submit': async ({ orderId, input, pin }) => {
      const tap = async (): Promise<ReturnType<Engine['submitTap']>> => {
        // With a store hub, the order is claimed for this counter first: never two counters packing one order.
        const claimed = await hub.beforeTap(orderId, input);
        if (!claimed.ok) return claimed;
        return engineOr((e) => e.submitTap(orderId, input, claimed.value));
      };
      return needsManager(input) ? withPin(pin, tap) : tap();
    },
    'taps.undo': async ({ entryId }) => engineOr((e) => done(e.undo(entryId))),
    'orders.takeOver': async ({ orderId }) => hub.takeOver(orderId),
    'orders.settleConflict': async ({ orderId, keeperId }) => done(hub.settleConflict(orderId, keeperId)),
    'orders.putBack': async ({ orderId }) => done(hub.putBack(orderId)),
  };
}
