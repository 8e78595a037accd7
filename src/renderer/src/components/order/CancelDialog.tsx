/**
 * Cancel (or, before Accept, reject) an order: pick one of the reasons that fit where the order
 * is, then confirm in words. Reasons that accuse someone of fraud need the manager's PIN.
 */
import { useMemo, useState } from 'react';
import { cancelMoment } from '../../../../shared/fulfilment';
import { hasPrescriptionItem } from '../../../../shared/orders';
import { CANCEL_REASONS, findReason, reasonsFor } from '../../../../shared/protocol/reasons';
import type { Order } from '../../../../shared/protocol/schemas';
import { useWords } from '../../i18n/useWords';
import { reasonWords } from '../../i18n/words';
import { tap } from '../../intents';
import { Dialog } from '../Dialog';
import { PIN_PATTERN, PinField } from '../PinField';
import { ReasonPicker } from '../ReasonPicker';

interface Props {
  /** The order as the packer sees it (queued taps applied): where it is decides which reasons fit. */
  order: Order;
  onClose: () => void;
}

export function CancelDialog({ order, onClose }: Props) {
  const orderId = order.id;
  const { t } = useWords();
  const [reason, setReason] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const prescription = hasPrescriptionItem(order);
  const moment = cancelMoment(order);
  const reasons = useMemo(() => reasonsFor(CANCEL_REASONS, { prescription, moment }), [prescription, moment]);
  const chosen = reason === null ? undefined : findReason(CANCEL_REASONS, reason);
  const needsManager = chosen?.needsManager === true;

  const send = async () => {
    if (!chosen || busy || (needsManager && !PIN_PATTERN.test(pin))) return;
    setBusy(true);
    const taken = await tap(orderId, { kind: 'orderState', state: 'CANCELLED', reason: chosen.code }, needsManager ? pin : undefined);
    setBusy(false);
    if (taken) onClose();
  };

  const picking = !confirming || !chosen;
  const actions = picking ? (
    <>
      <button type="button" className="button" onClick={onClose}>
        {t('order:cancel.keep')}
      </button>
      <button type="button" className="button button-primary" disabled={!chosen} onClick={() => setConfirming(true)} data-testid="cancel-next">
        {t('order:cancel.next')}
      </button>
    </>
  ) : (
    <>
      <button type="button" className="button" onClick={() => setConfirming(false)}>
        {t('order:cancel.backToReasons')}
      </button>
      <button
        type="button"
        className="button button-danger"
        onClick={() => void send()}
        disabled={busy || (needsManager && !PIN_PATTERN.test(pin))}
        data-testid="cancel-confirm"
      >
        {t('order:cancel.confirm')}
      </button>
    </>
  );

  return (
    <Dialog title={t('order:cancel.title', { orderId })} onClose={onClose} tone="danger" testId="cancel-dialog" actions={actions}>
      {picking || !chosen ? (
        <ReasonPicker legend={t('order:cancel.why')} reasons={reasons} value={reason} onChange={setReason} />
      ) : (
        <>
          <p className="confirm-text">
            {t('order:cancel.question', { orderId, reason: reasonWords(t, chosen.code, chosen.label) })}
          </p>
          <p className="hint">{t('order:cancel.final')}</p>
          {needsManager && <PinField label={t('order:cancel.pin')} value={pin} onChange={setPin} autoFocus testId="cancel-pin" />}
        </>
      )}
    </Dialog>
  );
}
