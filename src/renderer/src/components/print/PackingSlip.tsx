/** The packing slip that goes in the bag: who, where, what, which invoice, by when, and the order id to scan. */
import { paperTime, type BarPattern, type PackingSlip as Slip } from '../../print';
import { Barcode } from './Barcode';
import { useWords } from '../../i18n/useWords';
import { reasonWords } from '../../i18n/words';
import { i18next } from '../../i18n';

export function PackingSlip({ slip, barcode }: { slip: Slip; barcode: BarPattern | null }) {
  const { t } = useWords();
  const when = (at: number) => paperTime(at, i18next.language);
  return (
    <article className="print-doc packing-slip" data-print-document="packingSlip" data-order-id={slip.orderId}>
      <header className="print-head">
        <h1>{t('print:slip.title')}</h1>
        <p className="print-order-id">{t('print:slip.order', { orderId: slip.orderId })}</p>
      </header>
      <Barcode value={slip.orderId} pattern={barcode} label={t('print:slip.barcodeLabel', { orderId: slip.orderId })} />
      <section className="print-block">
        <h2>{slip.delivery ? t('print:slip.deliverTo') : t('print:slip.collect')}</h2>
        <p className="print-customer">{slip.customer ?? t('print:slip.noName')}</p>
        {slip.phone && (
          <p>{slip.phone.whole ? t('print:slip.phone', { phone: slip.phone.shown }) : t('print:slip.phoneEnd', { digits: slip.phone.shown })}</p>
        )}
        {slip.addressLines.map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      </section>
      <dl className="print-facts">
        {slip.promisedPackedAt !== null && (
          <>
            <dt>{t('print:slip.packBy')}</dt>
            <dd>{when(slip.promisedPackedAt)}</dd>
          </>
        )}
        {slip.promisedDeliveryAt !== null && (
          <>
            <dt>{t('print:slip.deliverBy')}</dt>
            <dd>{when(slip.promisedDeliveryAt)}</dd>
          </>
        )}
        <dt>{t('print:slip.invoice')}</dt>
        <dd>{slip.invoiceId ?? t('print:slip.noInvoice')}</dd>
        {slip.packedBy !== null && (
          <>
            <dt>{t('staff:slip.packedBy')}</dt>
            <dd data-testid="slip-packed-by">{slip.packedBy.kind === 'packer' ? slip.packedBy.name : t('staff:slip.counter', { counter: slip.packedBy.counter })}</dd>
          </>
        )}
      </dl>
      {slip.prescription && (
        <p className="print-rx-note">
          <span className="print-rx">℞</span> {t('print:slip.rxNote')}
        </p>
      )}
      <table className="print-items">
        <thead>
          <tr>
            <th scope="col">{t('print:slip.item')}</th>
            <th scope="col" className="num">
              {t('print:slip.units')}
            </th>
          </tr>
        </thead>
        <tbody>
          {slip.items.map((item) => (
            <tr key={item.itemId}>
              <td>
                {item.prescription && <span className="print-rx">℞</span>} {item.name ?? t('print:slip.unnamed', { itemId: item.itemId })}
                {item.measurement && <span className="print-measure"> · {item.measurement}</span>}
                {item.was && <span className="print-was">{t('print:slip.was', { count: item.was.count, reason: reasonWords(t, item.was.reason) })}</span>}
              </td>
              <td className="num">{item.units}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('print:slip.total', { count: slip.items.length })}</th>
            <td className="num">{slip.totalUnits}</td>
          </tr>
        </tfoot>
      </table>
    </article>
  );
}
