/**
 * Finding and opening an order: by its id (asked of the service when new), by typed text, from the
 * queue.
 */
import { DEFAULT_ORDER_ID_PATTERN } from '../../../shared/orderIdPattern';
import { orderIdProblem } from '../../../shared/protocol/orderId';
import type { OrdersFound } from '../../../shared/ipc';
import { orderIdMatcher } from '../scanner/orderId';
import { useOrders } from '../store/orders';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import { command, refuse } from './bridge';
import { loadOrder } from './orders';

/**
 * Whether a code is an order id by the terminal's pattern: the one place the renderer tells ids
 * from other text (a name, an invoice, a product), so one rule can replace it.
 */
export function isOrderId(code: string): boolean {
  const pattern = useStatus.getState().settings?.orderIdPattern ?? DEFAULT_ORDER_ID_PATTERN;
  return orderIdMatcher(pattern)(code);
}

/**
 * A scanned or typed order id: opens it, asking the service for it first when the terminal does
 * not have it. An id the service does not know is said so and added nowhere.
 */
export async function openOrderById(rawId: string): Promise<boolean> {
  const orderId = rawId.trim();
  if (!orderId) {
    refuse((t) => t('common:refusals.noOrderNumber'));
    return false;
  }
  if (orderIdProblem(orderId) !== null) {
    refuse((t) => t('common:refusals.badOrderNumber'));
    return false;
  }
  const reply = await command('orders.add', { orderId });
  if (!reply.ok) {
    refuse(reply.problem);
    return false;
  }
  useOrders.getState().merge([reply.value]);
  useUi.getState().openOrder(reply.value.id);
  return true;
}

/** The orders on the terminal typed text finds (the engine searches); null when it could not (said why). */
export async function findOrders(text: string): Promise<OrdersFound | null> {
  const reply = await command('orders.find', { text: text.trim() });
  if (!reply.ok) {
    refuse(reply.problem);
    return null;
  }
  return reply.value;
}

/** What a search from the find field came to: an order opened, a short list to choose from, or nothing (said why). */
export type FindOutcome = { readonly kind: 'opened' } | { readonly kind: 'choose'; readonly found: OrdersFound } | { readonly kind: 'none' };

/**
 * Typed text (or a code) from the find field. One order found opens; several come back as a short
 * list; none, and the text is an order id, asks the service for it; anything else found nothing,
 * in words. Nothing is ever added from a name, a phone or the digits of a number.
 */
export async function findAndOpen(raw: string): Promise<FindOutcome> {
  const text = raw.trim();
  if (!text) {
    refuse((t) => t('common:refusals.noOrderNumber'));
    return { kind: 'none' };
  }
  const found = await findOrders(text);
  if (!found) return { kind: 'none' };
  const [only, ...others] = found.matches;
  if (only && others.length === 0 && !found.more) {
    // Kept while the service could not be asked: asked now (one it does not know is let go).
    if (only.order.facts === null) return (await openOrderById(only.order.id)) ? { kind: 'opened' } : { kind: 'none' };
    await openFound(only.order.id);
    return { kind: 'opened' };
  }
  if (only) return { kind: 'choose', found };
  if (isOrderId(text)) return (await openOrderById(text)) ? { kind: 'opened' } : { kind: 'none' };
  refuse((t) => t('shift:find.nothing', { text }));
  return { kind: 'none' };
}

/** Opens an order the finder found (on the terminal already), its next step focused. */
export async function openFound(orderId: string): Promise<void> {
  await loadOrder(orderId);
  useUi.getState().openOrder(orderId);
}

/**
 * Opens an order of the queue: its body is read first when the store has only its row, so the
 * screen draws once, whole (a few milliseconds; the screen reads it itself if this fails).
 */
export async function showOrder(orderId: string): Promise<void> {
  // An id that breaks the id rule cannot be asked for (the set-aside line above the queue names it).
  if (orderIdProblem(orderId) !== null) {
    refuse((t) => t('common:queue.unreadableRow'));
    return;
  }
  await loadOrder(orderId);
  useUi.getState().show({ name: 'order', orderId });
}
