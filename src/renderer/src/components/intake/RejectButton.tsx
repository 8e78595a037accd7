/** Reject beside Accept on a new order: a cancellation with a reason from the dated catalogue. */
import { useState } from 'react';
import type { Order } from '../../../../shared/protocol/schemas';
import { CancelDialog } from '../order/CancelDialog';
import { useWords } from '../../i18n/useWords';

export function RejectButton({ order }: { order: Order }) {
  const { t } = useWords();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-danger-outline reject-button" onClick={() => setOpen(true)} title={t('intake:reject.hint')} data-testid="reject-order">
        {t('intake:reject.button')}
      </button>
      {open && <CancelDialog order={order} onClose={() => setOpen(false)} />}
    </>
  );
}
