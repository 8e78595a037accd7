/**
 * The order queue: every order on the terminal, the most pressing first, filtered by next step.
 */
import { useMemo } from 'react';
import { PickListBar } from '../components/print/PickListBar';
import { OrderList } from '../components/queue/OrderList';
import { SetAsideLine } from '../components/queue/SetAsideLine';
import { StepFilters } from '../components/queue/StepFilters';
import { useOrders } from '../store/orders';
import { useWords } from '../i18n/useWords';
import { useUi } from '../store/ui';
import { useNow } from '../hooks/useNow';
import { inView } from '../components/queue/views';

export function QueueScreen() {
  const { t } = useWords();
  const filter = useUi((s) => s.filter);
  const sortedIds = useOrders((s) => s.sortedIds);
  // Only a filtered queue depends on every order's step; "All" redraws only when the order moves.
  const version = useOrders((s) => (filter === 'ALL' ? 0 : s.version));
  const loaded = useOrders((s) => s.loaded);
  // "Late" and "Done today" change with the clock too: looked at again each minute.
  const now = useNow(60_000);
  const clock = filter === 'LATE' || filter === 'DONE_TODAY' ? now : 0;

  const ids = useMemo(() => {
    if (filter === 'ALL') return sortedIds;
    const byId = useOrders.getState().byId;
    return sortedIds.filter((id) => {
      const view = byId.get(id);
      return view !== undefined && inView(view, filter, clock || Date.now());
    });
    // `version` stands for the Map's contents, which change in place.
  }, [sortedIds, version, filter, clock]);

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
