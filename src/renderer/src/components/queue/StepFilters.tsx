/** Filter the queue by next step; each choice shows how many orders it holds. */
import { formatNumber } from '../../format';
import { useWords } from '../../i18n/useWords';
import { STEP_LABEL_KEY } from '../../i18n/words';
import { useOrders, type StepFilterKey } from '../../store/orders';
import { useUi } from '../../store/ui';

const CHOICES: readonly { key: StepFilterKey | 'ALL'; label: string }[] = [
  { key: 'ALL', label: 'common:queue.all' },
  { key: 'ACCEPT', label: STEP_LABEL_KEY.ACCEPT },
  { key: 'PACKING', label: STEP_LABEL_KEY.PACKING },
  { key: 'PACKED', label: STEP_LABEL_KEY.PACKED },
  { key: 'OUT_FOR_DELIVERY', label: STEP_LABEL_KEY.OUT_FOR_DELIVERY },
  { key: 'DELIVERED', label: STEP_LABEL_KEY.DELIVERED },
  { key: 'COMPLETE', label: STEP_LABEL_KEY.COMPLETE },
  { key: 'DONE', label: 'common:steps.nothingLeft' },
];

export function StepFilters() {
  const { t, locale } = useWords();
  const counts = useOrders((s) => s.counts);
  const total = useOrders((s) => s.sortedIds.length);
  const filter = useUi((s) => s.filter);
  const setFilter = useUi((s) => s.setFilter);
  return (
    <div className="step-filters" role="group" aria-label={t('common:queue.filterLabel')}>
      {CHOICES.map((c) => (
        <button
          key={c.key}
          type="button"
          className={`filter-chip filter-${c.key}`}
          aria-pressed={filter === c.key}
          onClick={() => setFilter(c.key)}
          data-testid={`filter-${c.key}`}
        >
          {t(c.label)} <span className="filter-count">{formatNumber(c.key === 'ALL' ? total : counts[c.key], locale)}</span>
        </button>
      ))}
    </div>
  );
}
