/** Drop a tap for good: says what is lost, and needs the manager PIN. */
import { useId, useState } from 'react';
import type { OutboxEntryView } from '../../../../shared/ipc';
import { discard } from '../../intents';
import { Dialog } from '../Dialog';
import { PIN_PATTERN, PinField } from '../PinField';

export function DiscardDialog({ entry, onClose }: { entry: OutboxEntryView; onClose: () => void }) {
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formId = useId();

  const confirm = async () => {
    if (!PIN_PATTERN.test(pin) || busy) return;
    setBusy(true);
    const refused = await discard(entry.id, pin);
    setBusy(false);
    if (refused) setProblem(refused);
    else onClose();
  };

  return (
    <Dialog
      title="Discard this tap?"
      onClose={onClose}
      tone="danger"
      testId="discard-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Keep it
          </button>
          <button type="submit" form={formId} className="button button-danger" disabled={!PIN_PATTERN.test(pin) || busy} data-testid="discard-confirm">
            Discard
          </button>
        </>
      }
    >
      <p className="confirm-text">
        <strong>{entry.summary}</strong> for order <strong>{entry.orderId}</strong> will never be sent.
      </p>
      <p className="hint">Only do this when the order service must not get it, for example a wrong order number.</p>
      <form
        id={formId}
        onSubmit={(e) => {
          e.preventDefault();
          void confirm();
        }}
      >
        <PinField label="Manager PIN" value={pin} onChange={setPin} autoFocus testId="discard-pin" />
        {problem && (
          <p className="inline-error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  );
}
