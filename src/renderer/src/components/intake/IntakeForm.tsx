/**
 * Order intake settings for a manager: the store's service provider id (from the marketplace's
 * e-mail, with the credentials), how often new orders are checked, and the new-order alert's
 * repeat and loudness (down to 20 %, never off). Intake's own word on access is shown here too.
 */
import { useId } from 'react';
import type { Settings } from '../../../../shared/ipc';
import { useSettingsDraft } from '../settings/useSettingsDraft';
import { useStatus } from '../../store/status';
import { useWords } from '../../i18n/useWords';
import { SaveResultLine } from '../settings/SaveResultLine';

type Editable = Pick<Settings, 'serviceProviderId' | 'intakeIntervalMs' | 'alertRepeatMs' | 'alertVolume'>;

const pickEditable = ({ serviceProviderId, intakeIntervalMs, alertRepeatMs, alertVolume }: Settings): Editable => ({
  serviceProviderId,
  intakeIntervalMs,
  alertRepeatMs,
  alertVolume,
});
const clamp = (n: number, min: number, max: number): number => (Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : min);

export function IntakeForm({ pin }: { pin: string }) {
  const { t } = useWords();
  const intake = useStatus((s) => s.intake);
  const { draft, change, save, busy, result } = useSettingsDraft(pin, pickEditable, (d) => ({ ...d, serviceProviderId: d.serviceProviderId.trim() }));
  const id = useId();
  if (!draft) return null;

  return (
    <form className="panel settings-form" onSubmit={(e) => void save(e)} aria-labelledby={`${id}-t`} data-testid="intake-form">
      <h2 id={`${id}-t`}>{t('intake:settings.title')}</h2>
      {intake?.message && (
        <p className="hint" role="status" data-testid="intake-settings-message">
          {intake.message}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-sp`}>{t('intake:settings.providerId')}</label>
        <input id={`${id}-sp`} className="text-input" value={draft.serviceProviderId} onChange={(e) => change({ serviceProviderId: e.target.value })} autoComplete="off" spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-every`}>{t('intake:settings.interval')}</label>
        <input
          id={`${id}-every`}
          className="text-input narrow"
          type="number"
          min={10}
          max={600}
          value={Math.round(draft.intakeIntervalMs / 1000)}
          onChange={(e) => change({ intakeIntervalMs: clamp(Number(e.target.value), 10, 600) * 1000 })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-repeat`}>{t('intake:settings.alertRepeat')}</label>
        <input
          id={`${id}-repeat`}
          className="text-input narrow"
          type="number"
          min={5}
          max={300}
          value={Math.round(draft.alertRepeatMs / 1000)}
          onChange={(e) => change({ alertRepeatMs: clamp(Number(e.target.value), 5, 300) * 1000 })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-vol`}>{t('intake:settings.alertVolume', { percent: Math.round(draft.alertVolume * 100) })}</label>
        <input
          id={`${id}-vol`}
          type="range"
          min={20}
          max={100}
          step={10}
          value={Math.round(draft.alertVolume * 100)}
          onChange={(e) => change({ alertVolume: clamp(Number(e.target.value), 20, 100) / 100 })}
        />
      </div>
      <div className="form-foot">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="intake-save">
          {t('intake:settings.save')}
        </button>
        <SaveResultLine result={result} saved={t('intake:settings.saved')} />
      </div>
    </form>
  );
}
