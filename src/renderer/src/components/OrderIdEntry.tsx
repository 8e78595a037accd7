/**
 * Type an order number (or scan into this field): opens the order, or adds it to the terminal
 * when it is new. F2 puts the cursor here from anywhere.
 */
import { useCallback, useRef, useState, type FormEvent } from 'react';
import { useWords } from '../i18n/useWords';
import { openOrderById, scanned } from '../intents';
import { useFieldScan } from '../scanner/fieldScan';

export const ORDER_ID_FIELD = 'order-id-entry';

export function OrderIdEntry() {
  const { t } = useWords();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // A scan here is taken whole, as a scan anywhere: an order id opens it, another code is never added as an order.
  useFieldScan(input, useCallback((code: string) => scanned(code), []));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    void openOrderById(value).then((opened) => {
      setBusy(false);
      if (opened) setValue((now) => (now === value ? '' : now));
    });
  };

  return (
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
  );
}
