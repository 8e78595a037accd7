/** How this terminal behaves: undo window, sending, kiosk, sounds, scanner, update channel. */
import { useId } from 'react';
import type { Settings } from '../../../../shared/ipc';
import { LANGUAGES } from '../../../../shared/languages';
import { useWords } from '../../i18n/useWords';
import { useSettingsDraft } from './useSettingsDraft';
import { SaveResultLine } from './SaveResultLine';

type Editable = Pick<
  Settings,
  'undoWindowMs' | 'concurrency' | 'kiosk' | 'autoLaunch' | 'sounds' | 'updateChannel' | 'scannerPrefix' | 'orderIdPattern' | 'quietHour' | 'language'
>;

function editable(s: Settings): Editable {
  const { undoWindowMs, concurrency, kiosk, autoLaunch, sounds, updateChannel, scannerPrefix, orderIdPattern, quietHour, language } = s;
  return { undoWindowMs, concurrency, kiosk, autoLaunch, sounds, updateChannel, scannerPrefix, orderIdPattern, quietHour, language };
}

export function TerminalForm({ pin }: { pin: string }) {
  const { t } = useWords();
  const { draft, change, save, busy, result } = useSettingsDraft(pin, editable);
  const id = useId();

  if (!draft) return <p className="panel">{t('settings:form.notLoaded')}</p>;

  return (
    <form className="panel settings-form" onSubmit={(e) => void save(e)} aria-labelledby={`${id}-t`} data-testid="terminal-form">
      <h2 id={`${id}-t`}>{t('settings:form.title')}</h2>
      <div className="field">
        <label htmlFor={`${id}-lang`}>{t('settings:form.language')}</label>
        <select
          id={`${id}-lang`}
          className="text-input narrow"
          value={draft.language}
          onChange={(e) => {
            const chosen = LANGUAGES.find((l) => l.code === e.target.value);
            if (chosen) change({ language: chosen.code });
          }}
          data-testid="settings-language"
        >
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.locale}>
              {l.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-undo`}>{t('settings:form.undo')}</label>
        <input
          id={`${id}-undo`}
          className="text-input narrow"
          type="number"
          min={0}
          max={60}
          step={1}
          value={Math.round(draft.undoWindowMs / 1000)}
          onChange={(e) => change({ undoWindowMs: clamp(Number(e.target.value), 0, 60) * 1000 })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-conc`}>{t('settings:form.concurrency')}</label>
        <input
          id={`${id}-conc`}
          className="text-input narrow"
          type="number"
          min={1}
          max={16}
          value={draft.concurrency}
          onChange={(e) => change({ concurrency: clamp(Number(e.target.value), 1, 16) })}
        />
      </div>
      <Toggle label={t('settings:form.sounds')} checked={draft.sounds} onChange={(sounds) => change({ sounds })} />
      <Toggle label={t('settings:form.kiosk')} checked={draft.kiosk} onChange={(kiosk) => change({ kiosk })} />
      <Toggle label={t('settings:form.autoLaunch')} checked={draft.autoLaunch} onChange={(autoLaunch) => change({ autoLaunch })} />
      <div className="field">
        <label htmlFor={`${id}-prefix`}>{t('settings:form.prefix')}</label>
        <input
          id={`${id}-prefix`}
          className="text-input narrow"
          value={draft.scannerPrefix}
          maxLength={8}
          autoComplete="off"
          onChange={(e) => change({ scannerPrefix: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-order-pattern`}>{t('shift:settings.orderIdPattern')}</label>
        <input
          id={`${id}-order-pattern`}
          className="text-input"
          value={draft.orderIdPattern}
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-order-pattern-help`}
          onChange={(e) => change({ orderIdPattern: e.target.value })}
          data-testid="order-id-pattern"
        />
        <p id={`${id}-order-pattern-help`} className="field-help">
          {t('shift:settings.orderIdPatternHelp', { example: 'OD2401121901140533863584' })}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-channel`}>{t('settings:form.channel')}</label>
        <select
          id={`${id}-channel`}
          className="text-input narrow"
          value={draft.updateChannel}
          onChange={(e) => change({ updateChannel: e.target.value === 'beta' ? 'beta' : 'stable' })}
        >
          <option value="stable">{t('settings:form.stable')}</option>
          <option value="beta">{t('settings:form.beta')}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-quiet`}>{t('settings:form.quietHour')}</label>
        <select
          id={`${id}-quiet`}
          className="text-input narrow"
          value={draft.quietHour ?? ''}
          onChange={(e) => change({ quietHour: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">{t('settings:form.quietNone')}</option>
          {Array.from({ length: 24 }, (_, h) => (
            <option key={h} value={h}>
              {String(h).padStart(2, '0')}:00
            </option>
          ))}
        </select>
      </div>
      <div className="form-foot">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="settings-save">
          {t('settings:form.save')}
        </button>
        <SaveResultLine result={result} saved={t('settings:form.saved')} />
      </div>
    </form>
  );
}

function clamp(n: number, lo: number, hi: number): number {
  if (!Number.isFinite(n)) return lo;
  return Math.max(lo, Math.min(hi, Math.round(n)));
}

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="toggle">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span className="toggle-box" aria-hidden="true" />
      <span>{label}</span>
    </label>
  );
}
