/**
 * Choose one reason from a dated catalogue: big tiles, the date each code was added, and a
 * "manager PIN" tag where one is needed. The order given is kept (prescription reasons first
 * for prescription items comes from `reasonsFor`).
 */
import { useId } from 'react';
import type { Reason } from '../../../shared/protocol/reasons';

interface Props {
  legend: string;
  reasons: readonly Reason[];
  value: string | null;
  onChange: (code: string) => void;
}

export function ReasonPicker({ legend, reasons, value, onChange }: Props) {
  const name = useId();
  return (
    <fieldset className="reason-picker">
      <legend>{legend}</legend>
      <div className="reason-grid">
        {reasons.map((r) => (
          <label key={r.code} className={value === r.code ? 'reason-tile selected' : 'reason-tile'} data-reason={r.code}>
            <input type="radio" name={name} value={r.code} checked={value === r.code} onChange={() => onChange(r.code)} />
            <span className="reason-label">{r.label}</span>
            <span className="reason-meta">
              {r.prescription && <span className="tag tag-rx">℞ Prescription</span>}
              {r.needsManager && <span className="tag tag-manager">Manager PIN</span>}
              <span className="reason-date">listed since {r.added}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
