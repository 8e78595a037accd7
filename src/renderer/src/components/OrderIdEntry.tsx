/**
 * Find an order: its number (or its last digits), the customer's name or phone, or the invoice
 * number; or scan into this field. The engine searches the orders on the terminal: one found
 * opens, several give a short list; a whole order number found nowhere is asked of the service,
 * and one it does not know is said so and never added. F2 puts the cursor here from anywhere.
 * Find with the field empty opens the Orders search (as F3 does).
 */
import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { OrdersFound } from '../../../shared/ipc';
import { useWords } from '../i18n/useWords';
import { findAndOpen, scanned } from '../intents';
import { useFieldScan } from '../scanner/fieldScan';
import { useUi } from '../store/ui';
import { FoundOrdersDialog } from './FoundOrdersDialog';

export const ORDER_ID_FIELD = 'order-id-entry';

export function OrderIdEntry() {
  const { t } = useWords();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [choice, setChoice] = useState<{ text: string; found: OrdersFound } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // A scan here is taken whole, as a scan anywhere: an order id opens it, another code is never added as an order.
  useFieldScan(input, useCallback((code: string) => scanned(code), []));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    // Find with nothing typed opens the Orders search (the top bar has no room for a button of its own).
    if (!value.trim()) {
      useUi.getState().show({ name: 'search' });
      return;
    }
    setBusy(true);
    const text = value;
    void findAndOpen(text).then((outcome) => {
      setBusy(false);
      if (outcome.kind === 'choose') setChoice({ text: text.trim(), found: outcome.found });
      if (outcome.kind !== 'none') setValue((now) => (now === text ? '' : now));
    });
  };

  return (
    <>
    <form className="id-entry" onSubmit={submit} role="search" aria-label={t('common:idEntry.formLabel')}>
      <label htmlFor={ORDER_ID_FIELD} className="id-entry-label">
        {t('common:idEntry.label')}
      </label>
      <input
        ref={input}
        id={ORDER_ID_FIELD}
        className="text-input id-entry-input"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder={t('common:idEntry.placeholder')}
        autoComplete="off"
        spellCheck={false}
        maxLength={128}
        aria-keyshortcuts="F2"
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        {t('common:idEntry.open')}
      </button>
    </form>
    {choice && <FoundOrdersDialog text={choice.text} found={choice.found} onClose={() => setChoice(null)} />}
    </>
  );
}
