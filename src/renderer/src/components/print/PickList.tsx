/** The pick list: every item of the selected orders once, with its total and each order's share. */
import { paperTime, type PickList as List } from '../../print';
import { useWords } from '../../i18n/useWords';
import { i18next } from '../../i18n';

export function PickList({ list, at }: { list: List; at: number }) {
  const { t } = useWords();
  return (
    <article className="print-doc pick-list" data-print-document="pickList">
      <header className="print-head">
        <h1>{t('print:pick.title')}</h1>
        <p>
          {t('print:pick.orders', { count: list.orderIds.length })} · {t('print:pick.printedAt', { time: paperTime(at, i18next.language) })}
        </p>
        <p className="print-order-list">
          {list.orderIds.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <span className="print-nowrap">{id}</span>
            </span>
          ))}
        </p>
      </header>
      <table className="print-items">
        <thead>
          <tr>
            <th scope="col">{t('print:pick.item')}</th>
            <th scope="col" className="num">
              {t('print:pick.total')}
            </th>
            <th scope="col">{t('print:pick.perOrder')}</th>
          </tr>
        </thead>
        <tbody>
          {list.lines.map((line) => (
            <tr key={line.key}>
              <td>
                {line.prescription && <span className="print-rx">℞</span>} {line.name ?? t('print:pick.unnamed')}
                {line.measurement && <span className="print-measure"> · {line.measurement}</span>}
              </td>
              <td className="num">{line.totalUnits}</td>
              <td className="print-shares">
                {line.shares.map((s, i) => (
                  <span key={s.orderId}>
                    {i > 0 && ', '}
                    <span className="print-nowrap">{t('print:pick.share', { orderId: s.orderId, units: s.units })}</span>
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('print:pick.lines', { count: list.lines.length })}</th>
            <td className="num">{list.totalUnits}</td>
            <td>{t('print:pick.units', { count: list.totalUnits })}</td>
          </tr>
        </tfoot>
      </table>
    </article>
  );
}
