/** A queue row's tick box: adds the order to the pick list without opening it. */
import { usePickSelection } from '../../print';
import { useWords } from '../../i18n/useWords';

export function PickSelect({ orderId, disabled }: { orderId: string; disabled: boolean }) {
  const { t } = useWords();
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
        // Out of the Tab order: the row is one option of the queue's listbox, and an option holds
        // no control of its own (axe: nested-interactive). Taps and clicks still tick it.
        tabIndex={-1}
        aria-label={t('print:action.select', { orderId })}
      />
    </label>
  );
}
