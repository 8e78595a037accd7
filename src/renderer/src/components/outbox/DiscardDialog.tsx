/** Drop a tap for good: says what is lost, and needs the manager PIN. */
import { useId, useState } from 'react';
import type { OutboxEntryView } from '../../../../shared/ipc';
import { useWords } from '../../i18n/useWords';
import { problemWords } from '../../i18n/words';
import type { Problem } from '../../../../shared/result';
import { discard } from '../../intents';
import { actionSummary } from '../../orderFacts';
import { useOrderView } from '../../hooks/useOrderView';
import { Dialog } from '../Dialog';
import { PIN_PATTERN, PinField } from '../PinField';

export function DiscardDialog({ entry, onClose }: { entry: OutboxEntryView; onClose: () => void }) {
  const { t } = useWords();
  const order = useOrderView(entry.action.type === 'ITEM_UNIT_UPDATE' ? entry.orderId : null)?.order ?? null;
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
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
      title={t('outbox:discardDialog.title')}
      onClose={onClose}
      tone="danger"
      testId="discard-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('outbox:discardDialog.keep')}
          </button>
          <button type="submit" form={formId} className="button button-danger" disabled={!PIN_PATTERN.test(pin) || busy} data-testid="discard-confirm">
            {t('outbox:discardDialog.confirm')}
          </button>
        </>
      }
    >
      <p className="confirm-text">
        {t('outbox:discardDialog.what', { what: actionSummary(t, entry.action, order), orderId: entry.orderId })}
      </p>
      <p className="hint">{t('outbox:discardDialog.when')}</p>
      <form
        id={formId}
        onSubmit={(e) => {
          e.preventDefault();
          void confirm();
        }}
      >
        <PinField label={t('common:pin.manager')} value={pin} onChange={setPin} autoFocus testId="discard-pin" />
        {problem && (
          <p className="inline-error" role="alert">
            {problemWords(t, problem)}
          </p>
        )}
      </form>
    </Dialog>
  );
}
