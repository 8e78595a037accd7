/** The packing slip that goes in the bag: who, where, what, which invoice, by when, and the order id to scan. */
import { useTranslation } from 'react-i18next';
import { paperTime, type BarPattern, type PackingSlip as Slip } from '../../print';
import { Barcode } from './Barcode';

export function PackingSlip({ slip, barcode }: { slip: Slip; barcode: BarPattern | null }) {
  const { t, i18n } = useTranslation('print');
  const when = (at: number) => paperTime(at, i18n.language);
  return (
    <article className="print-doc packing-slip" data-print-document="packingSlip" data-order-id={slip.orderId}>
      <header className="print-head">
        <h1>{t('slip.title')}</h1>
        <p className="print-order-id">{t('slip.order', { orderId: slip.orderId })}</p>
      </header>
      <Barcode value={slip.orderId} pattern={barcode} label={t('slip.barcodeLabel', { orderId: slip.orderId })} />
      <section className="print-block">
        <h2>{slip.delivery ? t('slip.deliverTo') : t('slip.collect')}</h2>
        <p className="print-customer">{slip.customer ?? t('slip.noName')}</p>
        {slip.phone && <p>{t('slip.phone', { phone: slip.phone })}</p>}
        {slip.addressLines.map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      </section>
      <dl className="print-facts">
        {slip.promisedPackedAt !== null && (
          <>
            <dt>{t('slip.packBy')}</dt>
            <dd>{when(slip.promisedPackedAt)}</dd>
          </>
        )}
        {slip.promisedDeliveryAt !== null && (
          <>
            <dt>{t('slip.deliverBy')}</dt>
            <dd>{when(slip.promisedDeliveryAt)}</dd>
          </>
        )}
        <dt>{t('slip.invoice')}</dt>
        <dd>{slip.invoiceId ?? t('slip.noInvoice')}</dd>
      </dl>
      {slip.prescription && (
        <p className="print-rx-note">
          <span className="print-rx">℞</span> {t('slip.rxNote')}
        </p>
      )}
      <table className="print-items">
        <thead>
          <tr>
            <th scope="col">{t('slip.item')}</th>
            <th scope="col" className="num">
              {t('slip.units')}
            </th>
          </tr>
        </thead>
        <tbody>
          {slip.items.map((item) => (
            <tr key={item.itemId}>
              <td>
                {item.prescription && <span className="print-rx">℞</span>} {item.name ?? t('slip.unnamed', { itemId: item.itemId })}
                {item.measurement && <span className="print-measure"> · {item.measurement}</span>}
              </td>
              <td className="num">{item.units}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('slip.total', { count: slip.items.length })}</th>
            <td className="num">{slip.totalUnits}</td>
          </tr>
        </tfoot>
      </table>
    </article>
  );
}
