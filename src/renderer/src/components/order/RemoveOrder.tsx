/**
 * Takes an order off the terminal that the order service never took: a code scanned by mistake,
 * or an order number typed wrong. Offered only while nothing of it is on its way; the engine
 * checks again that no tap of it can have reached the service.
 */
import { useState } from 'react';
import type { OrderView } from '../../../../shared/ipc';
import { removeOrder } from '../../intents';
import { Dialog } from '../Dialog';
import { useWords } from '../../i18n/useWords';

export function RemoveOrder({ view }: { view: OrderView }) {
  const { t } = useWords();
  const [asking, setAsking] = useState(false);
  if (view.order !== null || view.waiting > 0 || view.mayBeApplied) return null;
  return (
    <>
      <p>{t('shift:removeOrder.why')}</p>
      <button type="button" className="button button-danger-outline" onClick={() => setAsking(true)} data-testid="remove-order">
        {t('shift:removeOrder.open')}
      </button>
      {asking && (
        <Dialog
          title={t('shift:removeOrder.title', { orderId: view.id })}
          onClose={() => setAsking(false)}
          tone="danger"
          testId="remove-order-dialog"
          actions={
            <>
              <button type="button" className="button" onClick={() => setAsking(false)}>
                {t('shift:removeOrder.keep')}
              </button>
              <button type="button" className="button button-danger" onClick={() => void removeOrder(view.id)} data-testid="remove-order-confirm">
                {t('shift:removeOrder.confirm')}
              </button>
            </>
          }
        >
          <p>{t('shift:removeOrder.explain')}</p>
        </Dialog>
      )}
    </>
  );
}
