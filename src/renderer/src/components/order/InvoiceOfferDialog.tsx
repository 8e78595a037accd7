/**
 * A code offered as the open order's invoice number: scanned outside the invoice field (most
 * likely the invoice slip in the packer's other hand), or typed or scanned into the field while an
 * invoice is already recorded. With none recorded, one tap records it. With one recorded, it is a
 * question of its own naming both numbers, the one kept by default. Nothing is ever added as a
 * new order from such a code.
 */
import { tap } from '../../intents';
import { invoiceOf } from '../../orderFacts';
import { shownView, useOrders } from '../../store/orders';
import { useUi, type InvoiceOffer } from '../../store/ui';
import { Dialog } from '../Dialog';
import { useWords } from '../../i18n/useWords';
import { printableText } from '../../../../shared/protocol/orderId';

export function InvoiceOfferDialog({ offer }: { offer: InvoiceOffer }) {
  const { t } = useWords();
  const current = useOrders((s) => invoiceOf(shownView(s, offer.orderId)?.order ?? null));
  const close = () => useUi.getState().offerInvoice(null);
  const confirm = async () => {
    const taken = await tap(offer.orderId, { kind: 'invoice', sellerInvoiceId: offer.code });
    if (taken) close();
  };
  if (current !== null && current !== offer.code) {
    const values = { orderId: offer.orderId, old: current, code: offer.code };
    return (
      <Dialog
        title={t('shift:invoiceReplace.title')}
        onClose={close}
        testId="invoice-offer"
        actions={
          <>
            <button type="button" className="button button-primary" onClick={close} data-testid="invoice-replace-keep">
              {t('shift:invoiceReplace.keep', values)}
            </button>
            <button type="button" className="button" onClick={() => void confirm()} data-testid="invoice-offer-confirm">
              {t('shift:invoiceReplace.confirm', values)}
            </button>
          </>
        }
      >
        <p>{t('shift:invoiceReplace.recorded', values)}</p>
        <p className="invoice-offer-code" data-testid="invoice-offer-old">
          {printableText(current ?? '')}
        </p>
        <p>{t('shift:invoiceReplace.question', values)}</p>
        <p className="invoice-offer-code" data-testid="invoice-offer-code">
          {printableText(offer.code)}
        </p>
      </Dialog>
    );
  }
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
        {printableText(offer.code)}
      </p>
      <p>{t('shift:invoiceOffer.question', { orderId: offer.orderId })}</p>
    </Dialog>
  );
}
