/**
 * The orders set aside because the service's latest answer could not be read (a count past 2^53,
 * a date of 1e300, an id no one could type): named above the queue, which lists every other order.
 */
import { useMemo } from 'react';
import { printableId } from '../../../../shared/protocol/orderId';
import { useWords } from '../../i18n/useWords';
import { useOrders } from '../../store/orders';

// Enough to find them in `packdesk orders`; the count says how many more.
const NAMED = 3;

export function SetAsideLine() {
  const { t } = useWords();
  // The Map changes in place; `version` says when.
  const version = useOrders((s) => s.version);
  const ids = useMemo(() => {
    const out: string[] = [];
    for (const v of useOrders.getState().byId.values()) if (v.unreadable) out.push(v.id);
    return out.sort();
  }, [version]);
  if (ids.length === 0) return null;
  const named = ids.slice(0, NAMED).map(printableId).join(', ');
  const more = ids.length > NAMED ? ` ${t('common:queue.setAsideMore', { count: ids.length - NAMED })}` : '';
  return (
    <p className="inline-error set-aside-line" role="status" data-testid="set-aside">
      {t('common:queue.setAside', { count: ids.length, ids: `${named}${more}` })}
    </p>
  );
}
