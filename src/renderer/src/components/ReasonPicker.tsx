/**
 * Choose one reason: big tiles in the staff's words, a prescription mark and a "manager PIN" tag
 * where they apply. Which reasons, and in what order, comes from `reasonsFor`; the catalogue's
 * dates are the marketplace's bookkeeping, not the packer's, and are not shown.
 */
import { useId } from 'react';
import type { Reason } from '../../../shared/protocol/reasons';
import { useWords } from '../i18n/useWords';
import { reasonWords } from '../i18n/words';

interface Props {
  legend: string;
  reasons: readonly Reason[];
  value: string | null;
  onChange: (code: string) => void;
}

export function ReasonPicker({ legend, reasons, value, onChange }: Props) {
  const { t } = useWords();
  const name = useId();
  return (
    <fieldset className="reason-picker">
      <legend>{legend}</legend>
      <div className="reason-grid">
        {reasons.map((r) => (
          <label key={r.code} className={value === r.code ? 'reason-tile selected' : 'reason-tile'} data-reason={r.code}>
            <input type="radio" name={name} value={r.code} checked={value === r.code} onChange={() => onChange(r.code)} />
            <span className="reason-label">{reasonWords(t, r.code, r.label)}</span>
            {(r.prescription || r.needsManager) && (
              <span className="reason-meta">
                {r.prescription && <span className="tag tag-rx">℞ {t('common:prescription.badge')}</span>}
                {r.needsManager && <span className="tag tag-manager">{t('order:reasons.managerPin')}</span>}
              </span>
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
