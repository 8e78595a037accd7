/** About this terminal, changing the PIN, a support bundle, and leaving kiosk mode. */
import { useState } from 'react';
import { useWords } from '../../i18n/useWords';
import { SaidLine } from '../SaidLine';
import { type Said, saidOk, saidRefused } from '../../i18n/said';
import { command } from '../../intents';
import { SupportDetails } from '../SupportDetails';
import { useStatus } from '../../store/status';
import { PIN_PATTERN, PinField } from '../PinField';

export function TerminalPanel({ pin, onPinChanged }: { pin: string; onPinChanged: (pin: string) => void }) {
  const { t } = useWords();
  const info = useStatus((s) => s.info);
  const kiosk = useStatus((s) => s.settings?.kiosk ?? false);
  const [newPin, setNewPin] = useState('');
  const [again, setAgain] = useState('');
  const ready = PIN_PATTERN.test(newPin) && newPin === again;
  const [message, setMessage] = useState<Said | null>(null);

  const changePin = async () => {
    if (!ready) return;
    const reply = await command('pin.set', { currentPin: pin, newPin });
    if (reply.ok) {
      onPinChanged(newPin);
      setNewPin('');
      setAgain('');
      setMessage(saidOk((t) => t('settings:terminal.pinChanged')));
    } else setMessage(saidRefused(reply.problem));
  };

  const exportBundle = async () => {
    const reply = await command('support.exportBundle', { pin });
    if (!reply.ok) return setMessage(saidRefused(reply.problem));
    const { path } = reply.value;
    setMessage(saidOk((t) => t('settings:terminal.bundleSaved', { path })));
  };

  const leaveKiosk = async () => {
    const reply = await command('kiosk.leave', { pin });
    setMessage(reply.ok ? saidOk((t) => t('settings:terminal.kioskLeft')) : saidRefused(reply.problem));
  };

  return (
    <section className="panel" aria-label={t('settings:terminal.about')}>
      <h2>{t('settings:terminal.about')}</h2>
      {info && (
        <dl className="facts">
          <dt>{t('settings:terminal.id')}</dt>
          <dd>{info.terminalId}</dd>
          <dt>{t('settings:updates.version')}</dt>
          <dd>
            {info.version} ({info.shell === 'electron' ? t('settings:terminal.desktop') : t('settings:terminal.browser')})
          </dd>
          <dt>{t('settings:terminal.keychain')}</dt>
          <dd data-testid="keychain-state">
            {info.keychain.ok ? (
              t('settings:terminal.keychainOk')
            ) : info.keychain.checking ? (
              t('settings:terminal.keychainChecking')
            ) : (
              <>
                {t('settings:terminal.keychainProblem')}
                <SupportDetails>
                  <p>{info.keychain.message}</p>
                </SupportDetails>
              </>
            )}
          </dd>
        </dl>
      )}
      <form
        className="field-row"
        onSubmit={(e) => {
          e.preventDefault();
          void changePin();
        }}
      >
        <PinField label={t('settings:terminal.newPin')} value={newPin} onChange={setNewPin} testId="pin-change-new" />
        <PinField label={t('shift:pin.again')} value={again} onChange={setAgain} testId="pin-change-again" />
        <button type="submit" className="button" disabled={!ready} data-testid="pin-change">
          {t('settings:terminal.changePin')}
        </button>
      </form>
      {again.length >= newPin.length && again.length > 0 && newPin !== again && (
        <p className="inline-error" role="alert">
          {t('shift:pin.different')}
        </p>
      )}
      <div className="button-row">
        <button type="button" className="button" onClick={() => void exportBundle()}>
          {t('settings:terminal.saveBundle')}
        </button>
        {kiosk && (
          <button type="button" className="button" onClick={() => void leaveKiosk()}>
            {t('settings:terminal.leaveKiosk')}
          </button>
        )}
      </div>
      {message && <SaidLine said={message} look="inline" />}
    </section>
  );
}
