/** Record the seller's invoice number: type it, or scan it into the field (Enter sends). */
import { useId, useState, type FormEvent } from 'react';
import { useWords } from '../../i18n/useWords';
import { tap } from '../../intents';

export function InvoiceForm({ orderId, current }: { orderId: string; current: string | null }) {
  const { t } = useWords();
  const id = useId();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const invoice = value.trim();
    if (!invoice || busy) return;
    setBusy(true);
    const taken = await tap(orderId, { kind: 'invoice', sellerInvoiceId: invoice });
    setBusy(false);
    if (taken) setValue('');
  };

  return (
    <form className="panel invoice-panel" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('order:invoice.title')}</h2>
      <p className="invoice-current" data-testid="invoice-current">
        {current ? (
          <>
            {t('order:invoice.recorded')} <strong>{current}</strong>
          </>
        ) : (
          t('order:invoice.none')
        )}
      </p>
      <div className="field-row">
        <label htmlFor={id} className="visually-hidden">
          {t('order:invoice.label')}
        </label>
        <input
          id={id}
          className="text-input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={t('order:invoice.placeholder')}
          autoComplete="off"
          spellCheck={false}
          maxLength={128}
          data-testid="invoice-input"
        />
        <button type="submit" className="button" disabled={busy || value.trim() === ''}>
          {current ? t('order:invoice.replace') : t('order:invoice.save')}
        </button>
      </div>
    </form>
  );
}
