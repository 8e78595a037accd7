/** The order screen's Print button: the packing slip on the paper and printer of the settings; none for a cancelled order. */
import { useState } from 'react';
import { orderPhase } from '../../../../shared/fulfilment/states';
import { printPackingSlip } from '../../print';
import { useWords } from '../../i18n/useWords';
import { shownView, useOrders } from '../../store/orders';

export function PrintSlipButton({ orderId }: { orderId: string }) {
  const { t } = useWords();
  const [busy, setBusy] = useState(false);
  const cancelled = useOrders((s) => {
    const order = shownView(s, orderId)?.order;
    return order ? orderPhase(order) === 'CANCELLED' : false;
  });
  const print = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await printPackingSlip(orderId);
    } finally {
      setBusy(false);
    }
  };
  if (cancelled) return null;
  return (
    <button type="button" className="button print-button" onClick={() => void print()} disabled={busy} data-testid="print-slip">
      {busy ? (
        t('print:action.printing')
      ) : (
        <>
          {/* "Print slip" on a 1024 px screen (topbar.css), where the order's header keeps one row of buttons. */}
          <span className="wide-words">{t('print:action.printSlip')}</span>
          <span className="narrow-words">{t('print:action.printSlipShort')}</span>
        </>
      )}
    </button>
  );
}
