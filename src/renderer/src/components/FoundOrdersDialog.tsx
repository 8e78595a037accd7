/**
 * Several orders matched what the packer typed in the find field: a short list, each with who it
 * is for, what it holds, its state and what matched, one big button each. Nothing here adds an order.
 */
import type { OrdersFound } from '../../../shared/ipc';
import { useWords } from '../i18n/useWords';
import { openFound } from '../intents';
import { customerName, itemSummary, orderStateWord } from '../orderFacts';
import { Dialog } from './Dialog';

interface Props {
  readonly text: string;
  readonly found: OrdersFound;
  readonly onClose: () => void;
}

export function FoundOrdersDialog({ text, found, onClose }: Props) {
  const { t } = useWords();
  const open = (orderId: string) => {
    onClose();
    void openFound(orderId);
  };
  return (
    <Dialog
      title={t('shift:find.title', { count: found.matches.length, text })}
      onClose={onClose}
      testId="found-orders"
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('shift:find.close')}
        </button>
      }
    >
      <ul className="found-list">
        {found.matches.map(({ order, by }) => (
          <li key={order.id}>
            <button type="button" className="button found-order" onClick={() => open(order.id)} data-testid="found-order" data-order-id={order.id}>
              <span className="found-order-title">
                <strong>{order.id}</strong> {order.facts && <span>{customerName(t, order.facts)}</span>}
              </span>
              <span className="found-order-facts">
                {order.facts ? `${itemSummary(t, order.facts)} · ${orderStateWord(t, order.facts)} · ` : ''}
                {t(`shift:find.by.${by}`)}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {found.more && <p data-testid="found-more">{t('shift:find.more')}</p>}
    </Dialog>
  );
}
