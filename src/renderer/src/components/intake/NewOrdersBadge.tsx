/** The count of new orders, always in sight; a tap opens the oldest of them. */
import { useTranslation } from 'react-i18next';
import { useNewOrders } from '../../store/newOrders';
import { useUi } from '../../store/ui';

export function NewOrdersBadge() {
  const { t } = useTranslation('intake');
  const ids = useNewOrders((s) => s.ids);
  const openOrder = useUi((s) => s.openOrder);
  if (ids.length === 0) return null;
  return (
    <button
      type="button"
      className="new-orders-badge"
      data-testid="new-order-count"
      aria-label={t('newOrders.badgeLabel')}
      aria-live="polite"
      onClick={() => ids[0] !== undefined && openOrder(ids[0])}
    >
      <span className="dot" aria-hidden="true" />
      {t('newOrders.count', { count: ids.length })}
    </button>
  );
}
