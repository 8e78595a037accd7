/** A packer signs in with their personal PIN (or scans their badge while this is open). */
import { useState } from 'react';
import { useWords } from '../../i18n/useWords';
import { signInByPin } from '../../staff/intents';
import { Dialog } from '../Dialog';
import { PIN_PATTERN, PinField } from '../PinField';

export function SignInDialog({ onClose }: { onClose: () => void }) {
  const { t } = useWords();
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    if (!PIN_PATTERN.test(pin) || busy) return;
    setBusy(true);
    const refused = await signInByPin(pin);
    setBusy(false);
    if (refused === null) onClose();
    else {
      setProblem(refused);
      setPin('');
    }
  };
  return (
    <Dialog
      title={t('staff:signIn.title')}
      onClose={onClose}
      testId="sign-in-dialog"
      actions={
        <button type="button" className="button button-primary" onClick={() => void go()} disabled={!PIN_PATTERN.test(pin) || busy} data-testid="sign-in-go">
          {t('staff:signIn.go')}
        </button>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void go();
        }}
      >
        <p className="hint">{t('staff:signIn.hint')}</p>
        <PinField label={t('staff:signIn.pin')} value={pin} onChange={setPin} autoFocus testId="sign-in-pin" />
        {problem && (
          <p className="inline-error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  );
}
