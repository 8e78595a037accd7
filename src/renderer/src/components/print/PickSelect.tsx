/** A queue row's tick box: adds the order to the pick list without opening it. */
import { useTranslation } from 'react-i18next';
import { usePickSelection } from '../../print';

export function PickSelect({ orderId, disabled }: { orderId: string; disabled: boolean }) {
  const { t } = useTranslation('print');
  const selected = usePickSelection((s) => s.ids.has(orderId));
  const toggle = usePickSelection((s) => s.toggle);
  return (
    // The row opens its order on click; the tick box must not.
    <label className="pick-select" onClick={(e) => e.stopPropagation()} data-testid="pick-select">
      <input
        type="checkbox"
        checked={selected}
        disabled={disabled}
        onChange={() => toggle(orderId)}
        aria-label={t('action.select', { orderId })}
      />
    </label>
  );
}
