/** About this terminal, changing the PIN, a support bundle, and leaving kiosk mode. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { command } from '../../intents';
import { useStatus } from '../../store/status';
import { PIN_PATTERN, PinField } from '../PinField';

export function TerminalPanel({ pin, onPinChanged }: { pin: string; onPinChanged: (pin: string) => void }) {
  const info = useStatus((s) => s.info);
  const kiosk = useStatus((s) => s.settings?.kiosk ?? false);
  const { t } = useTranslation('shift');
  const [newPin, setNewPin] = useState('');
  const [again, setAgain] = useState('');
  const ready = PIN_PATTERN.test(newPin) && newPin === again;
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const changePin = async () => {
    if (!ready) return;
    const reply = await command('pin.set', { currentPin: pin, newPin });
    if (reply.ok) {
      onPinChanged(newPin);
      setNewPin('');
      setAgain('');
      setMessage({ ok: true, text: 'PIN changed.' });
    } else setMessage({ ok: false, text: reply.problem.message });
  };

  const exportBundle = async () => {
    const reply = await command('support.exportBundle', { pin });
    setMessage(reply.ok ? { ok: true, text: `Support file saved: ${reply.value.path}` } : { ok: false, text: reply.problem.message });
  };

  const leaveKiosk = async () => {
    const reply = await command('kiosk.leave', { pin });
    setMessage(reply.ok ? { ok: true, text: 'Kiosk mode left for now.' } : { ok: false, text: reply.problem.message });
  };

  return (
    <section className="panel" aria-label="This terminal">
      <h2>About this terminal</h2>
      {info && (
        <dl className="facts">
          <dt>Terminal</dt>
          <dd>{info.terminalId}</dd>
          <dt>Version</dt>
          <dd>
            {info.version} ({info.shell === 'electron' ? 'desktop app' : 'browser'})
          </dd>
          <dt>Keychain</dt>
          <dd>{info.keychain.ok ? 'Working' : `Problem: ${info.keychain.message}`}</dd>
        </dl>
      )}
      <form
        className="field-row"
        onSubmit={(e) => {
          e.preventDefault();
          void changePin();
        }}
      >
        <PinField label="New manager PIN" value={newPin} onChange={setNewPin} testId="pin-change-new" />
        <PinField label={t('pin.again')} value={again} onChange={setAgain} testId="pin-change-again" />
        <button type="submit" className="button" disabled={!ready} data-testid="pin-change">
          Change PIN
        </button>
      </form>
      {again.length >= newPin.length && again.length > 0 && newPin !== again && (
        <p className="inline-error" role="alert">
          {t('pin.different')}
        </p>
      )}
      <div className="button-row">
        <button type="button" className="button" onClick={() => void exportBundle()}>
          Save a support file
        </button>
        {kiosk && (
          <button type="button" className="button" onClick={() => void leaveKiosk()}>
            Leave kiosk mode
          </button>
        )}
      </div>
      {message && (
        <p className={message.ok ? 'inline-ok' : 'inline-error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </section>
  );
}
