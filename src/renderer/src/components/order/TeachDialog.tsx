/** "Which item is this?": a product barcode the store does not know yet, taught once and remembered. */
import type { OrderView } from '../../../../shared/ipc';
import type { Order } from '../../../../shared/protocol/schemas';
import { useWords } from '../../i18n/useWords';
import { notInOrder, teachCode } from '../../packing/intents';
import { usePacking } from '../../packing/store';
import { Dialog } from '../Dialog';
import { printableText } from '../../../../shared/protocol/orderId';

export function TeachDialog({ view, order, code }: { view: OrderView; order: Order; code: string }) {
  const { t } = useWords();
  const close = () => usePacking.getState().ask(null);
  return (
    <Dialog
      title={t('staff:teach.title')}
      onClose={close}
      testId="teach-dialog"
      actions={
        <button type="button" className="button button-danger-outline" onClick={() => notInOrder(order.id, code)} data-testid="teach-none">
          {t('staff:teach.none')}
        </button>
      }
    >
      <p>{t('staff:teach.text', { code })}</p>
      <ul className="teach-list">
        {order.items
          .filter((i) => i.quantity.count > 0)
          .map((item) => (
            <li key={item.itemId}>
              <button type="button" className="button teach-item" onClick={() => void teachCode(view, code, item.itemId)} data-testid="teach-item" data-item-id={item.itemId}>
                {printableText(item.name ?? item.itemId)}
                {item.displayMeasurement ? ` · ${item.displayMeasurement}` : ''}
              </button>
            </li>
          ))}
      </ul>
    </Dialog>
  );
}
