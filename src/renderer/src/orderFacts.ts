/**
 * Words read off an order for display, in the staff's language. Only reading: what the order's
 * next step is, or how it changes, is the engine's business and arrives in OrderView.
 */
import type { TFunction } from 'i18next';
import type { OrderFacts, OutboxEntryView } from '../../shared/ipc';
import { printableText } from '../../shared/protocol/orderId';
import { formatClock } from './format';
import type { Action, Order } from '../../shared/protocol/schemas';
import { reasonWords, stateWord, STEP_LABEL_KEY } from './i18n/words';

/** Who the order is for (the name its facts carry), or why nobody is named. */
export function customerName(t: TFunction, facts: OrderFacts | null): string {
  if (!facts) return t('common:order.newNoDetails');
  return facts.customer !== null ? printableText(facts.customer) : t('common:order.noCustomer');
}

/** "3 items · 7 units". */
export function itemSummary(t: TFunction, facts: OrderFacts | null): string {
  if (!facts) return t('common:order.itemsUnknown');
  return `${t('common:order.items', { count: facts.lines })} · ${t('common:order.units', { count: facts.units })}`;
}

/** Where the order stands in words: the step a packer knows ("Packing", "Out for delivery") once one is reached, else its state ("Accepted", "Cancelled"), or "New". */
export function orderStateWord(t: TFunction, facts: OrderFacts | null): string {
  if (facts?.step) return stateWord(t, facts.step);
  const s = facts?.orderState ?? '';
  if (!s) return t('common:order.new');
  return stateWord(t, s);
}

/** The seller invoice number already recorded on the order, if any. */
export function invoiceOf(order: Order | null): string | null {
  const info = (order as { clientOrderInfo?: { sellerInvoiceId?: unknown } } | null)?.clientOrderInfo;
  return typeof info?.sellerInvoiceId === 'string' ? info.sellerInvoiceId : null;
}

/** What a tap does, in words: "Mark packed", "Cut Paracetamol to 1 unit (Item unavailable)". */
export function actionSummary(t: TFunction, action: Action, order: Order | null): string {
  switch (action.type) {
    case 'ORDER_FULFILMENT_STATE_UPDATE':
      return t(STEP_LABEL_KEY[action.fulfillmentState]);
    case 'ITEM_UNIT_UPDATE': {
      const item = order?.items.find((i) => i.itemId === action.itemId);
      return t('common:summary.units', {
        item: item?.name ?? action.itemId,
        count: action.itemUnits,
        reason: reasonWords(t, action.reason),
      });
    }
    case 'ORDER_STATE_UPDATE': {
      if (action.orderState === 'ACCEPTED') return t(STEP_LABEL_KEY.ACCEPT);
      if (action.orderState === 'CANCELLED')
        return action.reason ? t('common:summary.cancelWhy', { reason: reasonWords(t, action.reason) }) : t('common:summary.cancel');
      return t('common:summary.orderState', { state: stateWord(t, action.orderState) });
    }
    case 'CLIENT_ORDER_INFO_UPDATE':
      return t('common:summary.invoice', { invoice: action.clientOrderInfo.sellerInvoiceId });
  }
}

/** The code of a tap set aside because its order was cancelled (the engine's outbox/elsewhere.ts). */
export const CANCELLED_ELSEWHERE = 'ORDER_CANCELLED_ELSEWHERE';

/** The code of a tap refused because someone else had already made its step (the engine's outbox.ts). */
export const DONE_ELSEWHERE = 'DONE_ELSEWHERE';

/** "Already packing elsewhere (11:42)": the state and time a tap done elsewhere found the order in. */
export function elsewhereWords(t: TFunction, e: OutboxEntryView, locale: string): string {
  const state = String(e.lastError?.values?.state ?? '');
  const at = Number(e.lastError?.values?.at ?? e.createdAt);
  return t(`outbox:elsewhere.${state}`, { time: formatClock(at, locale), defaultValue: t('outbox:elsewhere.other', { time: formatClock(at, locale) }) });
}
