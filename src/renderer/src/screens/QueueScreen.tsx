/**
 * The order queue: every order on the terminal, the most pressing first, filtered by next step.
 */
import { useMemo } from 'react';
import { PickListBar } from '../components/print/PickListBar';
import { OrderList } from '../components/queue/OrderList';
import { SetAsideLine } from '../components/queue/SetAsideLine';
import { StepFilters } from '../components/queue/StepFilters';
import { stepOf, useOrders } from '../store/orders';
import { useWords } from '../i18n/useWords';
import { useUi } from '../store/ui';

export function QueueScreen() {
  const { t } = useWords();
  const filter = useUi((s) => s.filter);
  const sortedIds = useOrders((s) => s.sortedIds);
  // Only a filtered queue depends on every order's step; "All" redraws only when the order moves.
  const version = useOrders((s) => (filter === 'ALL' ? 0 : s.version));
  const loaded = useOrders((s) => s.loaded);

  const ids = useMemo(() => {
    if (filter === 'ALL') return sortedIds;
    const byId = useOrders.getState().byId;
    return sortedIds.filter((id) => {
      const view = byId.get(id);
      return view !== undefined && stepOf(view) === filter;
    });
    // `version` stands for the Map's contents, which change in place.
  }, [sortedIds, version, filter]);

  return (
    <main className="screen queue-screen" aria-labelledby="queue-title">
      <div className="queue-head">
        {/* The "All" filter shows the count; the heading is for screen readers. */}
        <h1 id="queue-title" className="visually-hidden">
          {t('common:nav.orders')} <span className="muted">({sortedIds.length})</span>
        </h1>
        <StepFilters />
        <PickListBar />
      </div>
      <SetAsideLine />
      {loaded && sortedIds.length === 0 ? (
        <div className="empty-state">
          <p className="empty-title">{t('common:queue.empty.title')}</p>
          <p>{t('common:queue.empty.how')}</p>
        </div>
      ) : ids.length === 0 ? (
        <div className="empty-state">
          <p className="empty-title">{t('common:queue.emptyFilter.title')}</p>
          <p>{t('common:queue.emptyFilter.how')}</p>
        </div>
      ) : (
        <OrderList ids={ids} />
      )}
    </main>
  );
}
