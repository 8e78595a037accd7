/** Record the seller's invoice number: type it, or scan it into the field (Enter sends). */
import { useId, useState, type FormEvent } from 'react';
import { tap } from '../../intents';

export function InvoiceForm({ orderId, current }: { orderId: string; current: string | null }) {
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
      <h2 id={`${id}-title`}>Invoice</h2>
      <p className="invoice-current" data-testid="invoice-current">
        {current ? (
          <>
            Recorded: <strong>{current}</strong>
          </>
        ) : (
          'No invoice number recorded yet.'
        )}
      </p>
      <div className="field-row">
        <label htmlFor={id} className="visually-hidden">
          Seller invoice number
        </label>
        <input
          id={id}
          className="text-input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="Scan or type the invoice number"
          autoComplete="off"
          spellCheck={false}
          maxLength={128}
          data-testid="invoice-input"
        />
        <button type="submit" className="button" disabled={busy || value.trim() === ''}>
          {current ? 'Replace' : 'Save'}
        </button>
      </div>
    </form>
  );
}
