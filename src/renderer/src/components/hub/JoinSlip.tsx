/** The store hub's join slip on paper: what a new counter scans or types to join the store's counters. */
import { paperTime } from '../../print';
import { i18next } from '../../i18n';
import { useWords } from '../../i18n/useWords';

export function JoinSlip({ code, barcodeSvg, at }: { code: string; barcodeSvg: string; at: number }) {
  const { t } = useWords();
  return (
    <article className="print-doc join-slip-paper" data-print-document="joinSlip">
      <header className="print-head">
        <h1>{t('hub:code.slipTitle')}</h1>
      </header>
      <p>{t('hub:code.slipHow')}</p>
      <img className="join-slip-barcode" alt="" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(barcodeSvg)}`} />
      <p className="join-slip-code">{code}</p>
      <p>{t('hub:code.slipMade', { time: paperTime(at, i18next.language) })}</p>
    </article>
  );
}
