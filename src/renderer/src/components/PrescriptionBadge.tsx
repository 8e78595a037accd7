/** Marks an order or item that needs a prescription checked. */
import { useWords } from '../i18n/useWords';

export function PrescriptionBadge() {
  const { t } = useWords();
  return (
    <span className="badge badge-rx" title={t('common:prescription.needed')}>
      <span aria-hidden="true">℞</span> <span className="badge-word">{t('common:prescription.badge')}</span>
    </span>
  );
}
