/**
 * Record the seller's invoice number: type it (Enter sends), or scan it into the field. A scan is
 * sent whole as the scanner read it, never from the field, which may hold part of another burst.
 * A product barcode is refused, and replacing a recorded invoice asks first (recordInvoice).
 */
import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import type { OrderView } from '../../../../shared/ipc';
import { useWords } from '../../i18n/useWords';
import { recordInvoice } from '../../intents';
import { useFieldScan } from '../../scanner/fieldScan';
import { printableText } from '../../../../shared/protocol/orderId';
import { HeldNote, heldElsewhere, useTakeOverFirst } from '../hub/ClaimBanner';

export function InvoiceForm({ view, orderId, current }: { view: OrderView; orderId: string; current: string | null }) {
  const { t } = useWords();
  // With a store hub: the invoice waits on an order another counter holds (Take over first).
  const held = heldElsewhere(view);
  const ask = useTakeOverFirst(view, t('hub:claim.whyInvoice'));
  const id = useId();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // A scan into the field asks Take over first too (the guard of this render, kept in a ref for the scanner's callback).
  const guard = useRef(ask.guard);
  guard.current = ask.guard;
  useFieldScan(
    input,
    useCallback((code: string) => guard.current(() => void recordInvoice(orderId, code)), [orderId]),
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const invoice = value.trim();
    if (!invoice || busy) return;
    if (held) {
      // Sent once the order is here; the field keeps the number meanwhile.
      ask.guard(() => void recordInvoice(orderId, invoice).then((taken) => taken && setValue('')));
      return;
    }
    setBusy(true);
    // Emptied at the Enter, not when the answer comes: keys typed meanwhile start from an empty
    // field instead of being cut in half when it is cleared under them.
    setValue('');
    const taken = await recordInvoice(orderId, invoice);
    setBusy(false);
    if (!taken) setValue((now) => (now === '' ? invoice : now));
  };

  return (
    <form className="panel invoice-panel" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('order:invoice.title')}</h2>
      <p className="invoice-current" data-testid="invoice-current">
        {current ? (
          <>
            {t('order:invoice.recorded')} <strong>{printableText(current)}</strong>
          </>
        ) : (
          t('order:invoice.none')
        )}
      </p>
      <HeldNote view={view} what={t('hub:claim.toInvoice')} />
      {ask.dialog}
      <div className="field-row">
        <label htmlFor={id} className="visually-hidden">
          {t('order:invoice.label')}
        </label>
        <input
          ref={input}
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
