/**
 * Choose one reason from a dated catalogue: big tiles, reasons added after the catalogue's first
 * list marked with their date, and a "manager PIN" tag where one is needed. The order given is
 * kept (prescription reasons first for prescription items comes from `reasonsFor`).
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

/** dd/mm/yyyy -> a sortable yyyymmdd number. */
function dayNumber(added: string): number {
  const [d, m, y] = added.split('/');
  return Number(`${y ?? ''}${m ?? ''}${d ?? ''}`) || 0;
}

export function ReasonPicker({ legend, reasons, value, onChange }: Props) {
  const { t } = useWords();
  const name = useId();
  const first = reasons.reduce((min, r) => (dayNumber(r.added) < dayNumber(min) ? r.added : min), reasons[0]?.added ?? '');
  return (
    <fieldset className="reason-picker">
      <legend>{legend}</legend>
      <p className="reason-note">{t('order:reasons.note', { date: first })}</p>
      <div className="reason-grid">
        {reasons.map((r) => (
          <label key={r.code} className={value === r.code ? 'reason-tile selected' : 'reason-tile'} data-reason={r.code}>
            <input type="radio" name={name} value={r.code} checked={value === r.code} onChange={() => onChange(r.code)} />
            <span className="reason-label">{reasonWords(t, r.code, r.label)}</span>
            {(r.prescription || r.needsManager || r.added !== first) && (
              <span className="reason-meta">
                {r.prescription && <span className="tag tag-rx">℞ {t('common:prescription.badge')}</span>}
                {r.needsManager && <span className="tag tag-manager">{t('order:reasons.managerPin')}</span>}
                {r.added !== first && <span className="tag tag-new">{t('order:reasons.added', { date: r.added })}</span>}
              </span>
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
