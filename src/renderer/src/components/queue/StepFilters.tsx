/** Filter the queue by next step; each choice shows how many orders it holds. */
import { useTranslation } from 'react-i18next';
import { STEP_LABEL } from '../../../../shared/fulfilment/states';
import { useOrders, type StepFilterKey } from '../../store/orders';
import { useUi } from '../../store/ui';

const CHOICES: readonly { key: StepFilterKey | 'ALL'; label: string }[] = [
  { key: 'ALL', label: 'All' },
  { key: 'ACCEPT', label: STEP_LABEL.ACCEPT },
  { key: 'PACKING', label: STEP_LABEL.PACKING },
  { key: 'PACKED', label: STEP_LABEL.PACKED },
  { key: 'OUT_FOR_DELIVERY', label: STEP_LABEL.OUT_FOR_DELIVERY },
  { key: 'DELIVERED', label: STEP_LABEL.DELIVERED },
  { key: 'COMPLETE', label: STEP_LABEL.COMPLETE }, // shown through shift:step.complete
  { key: 'DONE', label: 'Nothing left' },
];

export function StepFilters() {
  const counts = useOrders((s) => s.counts);
  const total = useOrders((s) => s.sortedIds.length);
  const filter = useUi((s) => s.filter);
  const setFilter = useUi((s) => s.setFilter);
  const { t } = useTranslation('shift');
  return (
    <div className="step-filters" role="group" aria-label="Show orders whose next step is">
      {CHOICES.map((c) => (
        <button
          key={c.key}
          type="button"
          className={`filter-chip filter-${c.key}`}
          aria-pressed={filter === c.key}
          onClick={() => setFilter(c.key)}
          data-testid={`filter-${c.key}`}
        >
          {c.key === 'COMPLETE' ? t('step.complete') : c.label} <span className="filter-count">{c.key === 'ALL' ? total : counts[c.key]}</span>
        </button>
      ))}
    </div>
  );
}
