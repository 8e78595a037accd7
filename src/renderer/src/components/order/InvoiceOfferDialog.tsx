/**
 * A scanned code that is not an order id, while an order is open: most likely the invoice slip
 * in the packer's other hand. One tap records it as this order's invoice number; nothing is ever
 * added as a new order from such a code.
 */
import { tap } from '../../intents';
import { useUi, type InvoiceOffer } from '../../store/ui';
import { Dialog } from '../Dialog';
import { useWords } from '../../i18n/useWords';

export function InvoiceOfferDialog({ offer }: { offer: InvoiceOffer }) {
  const { t } = useWords();
  const close = () => useUi.getState().offerInvoice(null);
  const confirm = async () => {
    const taken = await tap(offer.orderId, { kind: 'invoice', sellerInvoiceId: offer.code });
    if (taken) close();
  };
  return (
    <Dialog
      title={t('shift:invoiceOffer.title')}
      onClose={close}
      testId="invoice-offer"
      actions={
        <>
          <button type="button" className="button" onClick={close}>
            {t('shift:invoiceOffer.dismiss')}
          </button>
          <button type="button" className="button button-primary" onClick={() => void confirm()} data-testid="invoice-offer-confirm">
            {t('shift:invoiceOffer.confirm')}
          </button>
        </>
      }
    >
      <p>{t('shift:invoiceOffer.notAnOrder', { code: offer.code })}</p>
      <p className="invoice-offer-code" data-testid="invoice-offer-code">
        {offer.code}
      </p>
      <p>{t('shift:invoiceOffer.question', { orderId: offer.orderId })}</p>
    </Dialog>
  );
}
