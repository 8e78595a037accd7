/** The order screen's Print button: the packing slip on the paper and printer of the settings. */
import { useState } from 'react';
import { printPackingSlip } from '../../print';
import { useWords } from '../../i18n/useWords';

export function PrintSlipButton({ orderId }: { orderId: string }) {
  const { t } = useWords();
  const [busy, setBusy] = useState(false);
  const print = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await printPackingSlip(orderId);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button print-button" onClick={() => void print()} disabled={busy} data-testid="print-slip">
      {busy ? t('print:action.printing') : t('print:action.printSlip')}
    </button>
  );
}
