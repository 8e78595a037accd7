/** Plain words for an action, as the outbox list, the CLI and the audit log show it. */
import { CANCEL_REASONS, ITEM_UNIT_REASONS, reasonLabel, type Action, type Order } from '../../../shared/protocol';
import { STEP_LABEL } from '../../../shared/fulfilment';

const ORDER_STATE_PHRASE: Readonly<Record<string, string>> = {
  ACCEPTED: 'Accept order',
  IN_PROGRESS: 'Mark order in progress',
  COMPLETED: 'Complete order',
  CANCELLED: 'Cancel order',
};

/** "Mark packed", "Cut Paracetamol to 1 unit (Item unavailable)", "Cancel order (Buyer not available)". */
export function summarize(action: Action, order: Order | null): string {
  switch (action.type) {
    case 'ORDER_FULFILMENT_STATE_UPDATE':
      return STEP_LABEL[action.fulfillmentState];
    case 'ITEM_UNIT_UPDATE': {
      const item = order?.items.find((i) => i.itemId === action.itemId);
      const name = item?.name ?? action.itemId;
      const units = `${action.itemUnits} unit${action.itemUnits === 1 ? '' : 's'}`;
      return `Cut ${name} to ${units} (${reasonLabel(ITEM_UNIT_REASONS, action.reason)})`;
    }
    case 'ORDER_STATE_UPDATE': {
      const phrase = ORDER_STATE_PHRASE[action.orderState] ?? `Set order ${action.orderState}`;
      if (!action.reason) return phrase;
      const label = action.orderState === 'CANCELLED' ? reasonLabel(CANCEL_REASONS, action.reason) : action.reason;
      return `${phrase} (${label})`;
    }
    case 'CLIENT_ORDER_INFO_UPDATE':
      return `Record invoice ${action.clientOrderInfo.sellerInvoiceId}`;
  }
}
