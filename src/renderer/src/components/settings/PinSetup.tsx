/** First start: the manager chooses the PIN that guards settings, discards and fraud cancels. */
import { useState } from 'react';
import { useWords } from '../../i18n/useWords';
import { type Said, saidRefused } from '../../i18n/said';
import { command } from '../../intents';
import { useStatus } from '../../store/status';
import { PIN_PATTERN, PinField } from '../PinField';

export function PinSetup({ onDone }: { onDone: (pin: string) => void }) {
  const { t, locale } = useWords();
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const valid = PIN_PATTERN.test(pin);
  const same = pin === again;

  const submit = async () => {
    if (!valid || !same || busy) return;
    setBusy(true);
    const reply = await command('pin.set', { newPin: pin });
    if (reply.ok) {
      const info = await command('app.info', {});
      if (info.ok) useStatus.getState().setInfo(info.value);
    }
    setBusy(false);
    if (!reply.ok) setProblem(saidRefused(reply.problem));
    else onDone(pin);
  };

  return (
    <form
      className="panel pin-gate"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="pin-setup"
    >
      <h2>{t('settings:pin.chooseTitle')}</h2>
      <p>{t('settings:pin.chooseWhy')}</p>
      <PinField label={t('settings:pin.new')} value={pin} onChange={setPin} autoFocus testId="pin-new" />
      <PinField label={t('settings:pin.again')} value={again} onChange={setAgain} testId="pin-again" />
      {again.length > 0 && !same && <p className="inline-error">{t('settings:pin.different')}</p>}
      {problem && (
        <p className="inline-error" role="alert">
          {problem.words(t, locale)}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={!valid || !same || busy}>
        {t('settings:pin.set')}
      </button>
    </form>
  );
}
