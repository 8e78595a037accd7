/**
 * What a packer does to an order: a tap, its invoice, taking it over from another counter, an
 * alarm seen, taking it off the terminal; and reading an order into the store.
 */
import type { OrderView } from '../../../shared/ipc';
import type { ActionInput } from '../../../shared/protocol/builders';
import { predictTap } from '../../../shared/orders';
import { playConfirm } from '../feedback/sound';
import { isProductBarcode } from '../scanner/productCode';
import { invoiceOf } from '../orderFacts';
import { shownView, useOrders } from '../store/orders';
import { useOutbox } from '../store/outbox';
import { useUi } from '../store/ui';
import { usePickSelection } from '../print/selection';
import { looksLikeBadge } from '../../../shared/staff';
import { isItemCodeOf } from '../packing/intents';
import { command, refuse, soundsOn } from './bridge';
import { refreshOutbox } from './outbox';

/** Orders off the terminal leave the queue and the pick list. */
export function ordersGone(orderIds: readonly string[]): void {
  useOrders.getState().remove(orderIds);
  usePickSelection.getState().drop(orderIds);
}

/** Takes an order none of whose taps reached the service off the terminal, then shows the queue. */
export async function removeOrder(orderId: string): Promise<boolean> {
  const reply = await command('orders.remove', { orderId });
  if (!reply.ok) {
    refuse(reply.problem);
    return false;
  }
  ordersGone([orderId]);
  const ui = useUi.getState();
  if (ui.screen.name === 'order' && ui.screen.orderId === orderId) ui.back();
  ui.say('info', (t) => t('shift:removeOrder.done', { orderId }));
  void refreshOutbox();
  return true;
}

/** A person has seen an order's alarm (cancelled or changed elsewhere): it stops sounding. */
export async function acknowledgeAlarm(orderId: string): Promise<void> {
  const reply = await command('orders.acknowledge', { orderId });
  if (!reply.ok) return refuse(reply.problem);
  const view = await command('orders.get', { orderId });
  if (view.ok && view.value) useOrders.getState().merge([view.value]);
}

/** Takes over an order another counter is packing (the packer confirmed); the order then shows its next step here. */
export async function takeOver(orderId: string): Promise<boolean> {
  const reply = await command('orders.takeOver', { orderId });
  if (!reply.ok) {
    refuse(reply.problem);
    return false;
  }
  if (soundsOn()) playConfirm();
  const counter = reply.value.counterName;
  useUi.getState().say('info', (t) => t('hub:claim.takenOver', { orderId, counter }));
  await readOrder(orderId);
  return true;
}

/**
 * An invoice number typed or scanned into an order's invoice field. A product's barcode is
 * refused; replacing an invoice already recorded is its own question (the offer names both
 * numbers), never one tap. True when the tap was queued.
 */
export async function recordInvoice(orderId: string, code: string): Promise<boolean> {
  if (looksLikeBadge(code)) {
    refuse((t) => t('staff:badgeNotInvoice'));
    return false;
  }
  if (isProductBarcode(code) || isItemCodeOf(shownView(useOrders.getState(), orderId)?.order, code)) {
    refuse((t) => t('shift:scan.product', { code: code.trim() }));
    return false;
  }
  const current = invoiceOf(shownView(useOrders.getState(), orderId)?.order ?? null);
  if (current !== null && current !== code.trim()) {
    useUi.getState().clearNotice();
    useUi.getState().offerInvoice({ orderId, code: code.trim() });
    return false;
  }
  return tap(orderId, { kind: 'invoice', sellerInvoiceId: code });
}

/**
 * Sends one tap. The screen draws the order as the tap will leave it at once (`predictTap`, the
 * engine's own rules), in the same frame as the button's acknowledgement; the engine answers with
 * the queued entry, and its view of the order arrives by event and replaces the foreseen one. A
 * refused tap drops it, so the screen goes back to what the engine holds.
 */
export async function tap(orderId: string, input: ActionInput, pin?: string): Promise<boolean> {
  const orders = useOrders.getState();
  const shown = shownView(orders, orderId);
  const foreseen = shown ? predictTap(shown, input, Date.now()) : null;
  if (foreseen) orders.predict(foreseen);
  const reply = await command('taps.submit', pin === undefined ? { orderId, input } : { orderId, input, pin });
  // The engine's view comes by event before its answer; should it not have (an event lost on a
  // reconnect), read it rather than keep showing the foreseen one.
  if (foreseen && useOrders.getState().answered(orderId, reply.ok) === 'unseen') void readOrder(orderId);
  if (!reply.ok) {
    refuse(reply.problem);
    // A refused step usually means this screen was behind the engine (another window moved the
    // order): read the order again so the button shows what is really next.
    if (reply.problem.kind === 'invalid') void readOrder(orderId);
    return false;
  }
  const entry = reply.value;
  useOutbox.getState().merge([entry]);
  if (soundsOn()) playConfirm();
  const ui = useUi.getState();
  ui.clearNotice();
  ui.offerUndo(
    entry.state === 'queued' && entry.sendAfter > Date.now()
      ? { entryId: entry.id, orderId, action: entry.action, summary: entry.summary, sendAfter: entry.sendAfter }
      : null,
  );
  return true;
}

/** Reads one order from the engine into the store; null when the engine cannot say or no longer has it. */
async function readOrder(orderId: string): Promise<OrderView | null> {
  const reply = await command('orders.get', { orderId });
  if (!reply.ok || !reply.value) return null;
  useOrders.getState().merge([reply.value]);
  return reply.value;
}

/** Reads in flight, so a screen drawn twice while one is on its way asks once. */
const loading = new Map<string, Promise<OrderView | null>>();

/**
 * The whole view of an order (its body: items, fulfilments, address), read from the engine when
 * the store has only its queue row. Null when the engine cannot say or no longer has the order.
 */
export function loadOrder(orderId: string): Promise<OrderView | null> {
  const have = useOrders.getState().views.get(orderId);
  if (have) return Promise.resolve(have);
  let read = loading.get(orderId);
  if (!read) {
    read = readOrder(orderId).finally(() => loading.delete(orderId));
    loading.set(orderId, read);
  }
  return read;
}
