/** How this terminal behaves: undo window, sending, kiosk, sounds, scanner, update channel. */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../shared/ipc';
import { command } from '../../intents';
import { useStatus } from '../../store/status';

type Editable = Pick<
  Settings,
  'undoWindowMs' | 'concurrency' | 'kiosk' | 'autoLaunch' | 'sounds' | 'updateChannel' | 'scannerPrefix' | 'orderIdPattern' | 'quietHour'
>;

function editable(s: Settings): Editable {
  const { undoWindowMs, concurrency, kiosk, autoLaunch, sounds, updateChannel, scannerPrefix, orderIdPattern, quietHour } = s;
  return { undoWindowMs, concurrency, kiosk, autoLaunch, sounds, updateChannel, scannerPrefix, orderIdPattern, quietHour };
}

export function TerminalForm({ pin }: { pin: string }) {
  const settings = useStatus((s) => s.settings);
  const setSettings = useStatus((s) => s.setSettings);
  const [draft, setDraft] = useState<Editable | null>(settings ? editable(settings) : null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const { t } = useTranslation('shift');

  if (!draft) return <p className="panel">Settings could not be loaded.</p>;
  const change = (patch: Partial<Editable>) => {
    setDraft({ ...draft, ...patch });
    setResult(null);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    const reply = await command('settings.update', { pin, patch: draft });
    setBusy(false);
    if (reply.ok) {
      setSettings(reply.value);
      setDraft(editable(reply.value));
      setResult({ ok: true, text: 'Saved.' });
    } else setResult({ ok: false, text: reply.problem.message });
  };

  return (
    <form className="panel settings-form" onSubmit={(e) => void save(e)} aria-labelledby={`${id}-t`} data-testid="terminal-form">
      <h2 id={`${id}-t`}>This terminal</h2>
      <div className="field">
        <label htmlFor={`${id}-undo`}>Undo window (seconds a tap waits before it is sent)</label>
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
        <label htmlFor={`${id}-conc`}>Orders sent at the same time</label>
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
      <Toggle label="Sounds (confirm and refusal tones)" checked={draft.sounds} onChange={(sounds) => change({ sounds })} />
      <Toggle label="Kiosk mode (full screen, Packdesk only)" checked={draft.kiosk} onChange={(kiosk) => change({ kiosk })} />
      <Toggle label="Start Packdesk when the computer starts" checked={draft.autoLaunch} onChange={(autoLaunch) => change({ autoLaunch })} />
      <div className="field">
        <label htmlFor={`${id}-prefix`}>Scanner prefix (characters the scanner sends before each code; empty for none)</label>
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
        <label htmlFor={`${id}-order-pattern`}>{t('settings.orderIdPattern')}</label>
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
          {t('settings.orderIdPatternHelp', { example: 'OD2401121901140533863584' })}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-channel`}>Update channel</label>
        <select
          id={`${id}-channel`}
          className="text-input narrow"
          value={draft.updateChannel}
          onChange={(e) => change({ updateChannel: e.target.value === 'beta' ? 'beta' : 'stable' })}
        >
          <option value="stable">Stable (recommended)</option>
          <option value="beta">Beta (early versions)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-quiet`}>Install updates at this hour (when no taps wait)</label>
        <select
          id={`${id}-quiet`}
          className="text-input narrow"
          value={draft.quietHour ?? ''}
          onChange={(e) => change({ quietHour: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">Only when I press “Install now”</option>
          {Array.from({ length: 24 }, (_, h) => (
            <option key={h} value={h}>
              {String(h).padStart(2, '0')}:00
            </option>
          ))}
        </select>
      </div>
      <div className="form-foot">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="settings-save">
          Save
        </button>
        {result && (
          <span className={result.ok ? 'inline-ok' : 'inline-error'} role={result.ok ? 'status' : 'alert'}>
            {result.text}
          </span>
        )}
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
