/** Packers' badges laid out for print: a name and a barcode each, one under another (a roll) or in a grid (A4). */
import type { BadgeCard } from '../../print';
import { useWords } from '../../i18n/useWords';
import { Barcode } from '../print/Barcode';
import { printableText } from '../../../../shared/protocol/orderId';

export function BadgeSheet({ badges }: { badges: readonly BadgeCard[] }) {
  const { t } = useWords();
  return (
    <article className="print-doc badge-sheet" data-print-document="badges">
      {badges.map((b) => (
        <section key={b.badge} className="badge-card" data-badge={b.badge}>
          <h1 className="badge-name">{printableText(b.name)}</h1>
          <p className="badge-role">{t('staff:badges.role')}</p>
          <Barcode value={b.badge} pattern={b.barcode} label={t('staff:badges.barcodeLabel', { name: b.name })} />
        </section>
      ))}
    </article>
  );
}
