/**
 * Cancel an order: pick a reason from the dated catalogue, then confirm in words. Reasons that
 * accuse someone of fraud need the manager's PIN.
 */
import { useMemo, useState } from 'react';
import { CANCEL_REASONS, findReason, reasonsFor } from '../../../../shared/protocol/reasons';
import { tap } from '../../intents';
import { Dialog } from '../Dialog';
import { PIN_PATTERN, PinField } from '../PinField';
import { ReasonPicker } from '../ReasonPicker';

interface Props {
  orderId: string;
  prescription: boolean;
  onClose: () => void;
}

export function CancelDialog({ orderId, prescription, onClose }: Props) {
  const [reason, setReason] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const reasons = useMemo(() => reasonsFor(CANCEL_REASONS, prescription), [prescription]);
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
        Keep the order
      </button>
      <button type="button" className="button button-primary" disabled={!chosen} onClick={() => setConfirming(true)} data-testid="cancel-next">
        Next
      </button>
    </>
  ) : (
    <>
      <button type="button" className="button" onClick={() => setConfirming(false)}>
        Back to reasons
      </button>
      <button
        type="button"
        className="button button-danger"
        onClick={() => void send()}
        disabled={busy || (needsManager && !PIN_PATTERN.test(pin))}
        data-testid="cancel-confirm"
      >
        Yes, cancel the order
      </button>
    </>
  );

  return (
    <Dialog title={`Cancel order ${orderId}`} onClose={onClose} tone="danger" testId="cancel-dialog" actions={actions}>
      {picking || !chosen ? (
        <ReasonPicker legend="Why is the order cancelled?" reasons={reasons} value={reason} onChange={setReason} />
      ) : (
        <>
          <p className="confirm-text">
            Cancel order <strong>{orderId}</strong> because <strong>{chosen.label}</strong>?
          </p>
          <p className="hint">The customer is told the order is cancelled. This cannot be reversed once it is sent.</p>
          {needsManager && <PinField label="Manager PIN (needed for this reason)" value={pin} onChange={setPin} autoFocus testId="cancel-pin" />}
        </>
      )}
    </Dialog>
  );
}
