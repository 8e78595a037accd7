/** The count of new orders, always in sight; a tap opens the oldest of them. */
import { useNewOrders } from '../../store/newOrders';
import { useUi } from '../../store/ui';
import { useWords } from '../../i18n/useWords';

export function NewOrdersBadge() {
  const { t } = useWords();
  const ids = useNewOrders((s) => s.ids);
  const openOrder = useUi((s) => s.openOrder);
  if (ids.length === 0) return null;
  return (
    <button
      type="button"
      className="new-orders-badge"
      data-testid="new-order-count"
      // Its name starts with the words it shows ("2 new orders", "2 new"), as speech input expects.
      aria-label={t('intake:newOrders.badgeLabel', { count: ids.length })}
      aria-live="polite"
      onClick={() => ids[0] !== undefined && openOrder(ids[0])}
    >
      <span className="dot" aria-hidden="true" />
      <span className="wide-words">{t('intake:newOrders.count', { count: ids.length })}</span>
      {/* A 1024 px top bar has room for "2 new" beside the nav, not "2 new orders" (topbar.css). */}
      <span className="narrow-words" aria-hidden="true">
        {t('intake:newOrders.short', { count: ids.length })}
      </span>
    </button>
  );
}
