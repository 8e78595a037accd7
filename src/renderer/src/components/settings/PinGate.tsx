/** Asks for the manager PIN before settings open. */
import { useState } from 'react';
import { useWords } from '../../i18n/useWords';
import { type Said, saidNotOk, saidRefused } from '../../i18n/said';
import { command } from '../../intents';
import { PIN_PATTERN, PinField } from '../PinField';

export function PinGate({ onUnlock }: { onUnlock: (pin: string) => void }) {
  const { t, locale } = useWords();
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!PIN_PATTERN.test(pin) || busy) return;
    setBusy(true);
    const reply = await command('pin.verify', { pin });
    setBusy(false);
    if (!reply.ok) setProblem(saidRefused(reply.problem));
    else if (!reply.value.valid) {
      setProblem(saidNotOk((t) => t('settings:pin.wrong')));
      setPin('');
    } else onUnlock(pin);
  };

  return (
    <form
      className="panel pin-gate"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="pin-gate"
    >
      <p>{t('settings:pin.gate')}</p>
      <PinField label={t('common:pin.manager')} value={pin} onChange={setPin} autoFocus testId="settings-pin" />
      {problem && (
        <p className="inline-error" role="alert">
          {problem.words(t, locale)}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={!PIN_PATTERN.test(pin) || busy}>
        {t('settings:pin.open')}
      </button>
    </form>
  );
}
