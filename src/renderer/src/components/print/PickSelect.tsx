/**
 * A queue row's tick box: adds the order to the pick list without opening it. It is a picture of a
 * box, not a control of its own: the row is one option of the queue's listbox, and an option holds
 * no control (axe: nested-interactive). A tap ticks it; from the keyboard, Space ticks the active row.
 */
import { usePickSelection } from '../../print';
import { useWords } from '../../i18n/useWords';

export function PickSelect({ orderId, disabled }: { orderId: string; disabled: boolean }) {
  const { t } = useWords();
  const selected = usePickSelection((s) => s.ids.has(orderId));
  const toggle = usePickSelection((s) => s.toggle);
  return (
    <span
      className={`pick-select${selected ? ' ticked' : ''}${disabled ? ' disabled' : ''}`}
      // The row opens its order on click; the tick box must not.
      onClick={(e) => {
        e.stopPropagation();
        if (!disabled) toggle(orderId);
      }}
      title={t('print:action.select', { orderId })}
      data-testid="pick-select"
      data-ticked={selected ? 'true' : 'false'}
    >
      <span className="pick-box" aria-hidden="true">
        {selected ? '✓' : ''}
      </span>
      {selected && <span className="visually-hidden">{t('print:action.ticked')}</span>}
    </span>
  );
}
