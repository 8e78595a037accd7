/** The queue's pick list action: how many orders are ticked, print their pick list, or clear. */
import { useState } from 'react';
import { printPickList, usePickSelection } from '../../print';
import { useWords } from '../../i18n/useWords';

export function PickListBar() {
  const { t } = useWords();
  const ids = usePickSelection((s) => s.ids);
  const clear = usePickSelection((s) => s.clear);
  const [busy, setBusy] = useState(false);
  const print = async () => {
    if (busy || ids.size === 0) return;
    setBusy(true);
    try {
      await printPickList([...ids]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="pick-bar" data-testid="pick-bar">
      <button type="button" className="button button-primary" onClick={() => void print()} disabled={busy || ids.size === 0} data-testid="print-pick-list">
        {t('print:action.pickList', { count: ids.size })}
      </button>
      {ids.size > 0 && (
        <button type="button" className="button" onClick={clear}>
          {t('print:action.clearSelection')}
        </button>
      )}
    </div>
  );
}
