/** A packer signs in with their personal PIN, or scans their badge while this is open. */
import { useEffect, useRef, useState } from 'react';
import { looksLikeBadge } from '../../../../shared/staff';
import { FIELD_SCAN_EVENT, type FieldScanEvent } from '../../scanner/fieldScan';
import { useWords } from '../../i18n/useWords';
import { problemWords } from '../../i18n/words';
import type { Problem } from '../../../../shared/result';
import { signInByBadge, signInByPin } from '../../staff/intents';
import { Dialog } from '../Dialog';
import { PIN_PATTERN, PinField } from '../PinField';

export function SignInDialog({ onClose }: { onClose: () => void }) {
  const { t } = useWords();
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // A scan lands in the PIN field (it has focus); the field's scan event does not bubble, so the
  // form hears it on the way down. A badge signs in and closes; anything else is left to the field.
  useEffect(() => {
    const el = form.current;
    if (!el) return;
    // The dialog (a child: its effect ran first) has opened and focused its first control; the PIN
    // field is where a scan is heard, so it takes the focus.
    el.querySelector('input')?.focus();
    const onScan = (e: Event): void => {
      const code = (e as FieldScanEvent).detail.code;
      if (!looksLikeBadge(code)) return;
      e.preventDefault();
      void signInByBadge(code).then((signedIn) => signedIn && onClose());
    };
    el.addEventListener(FIELD_SCAN_EVENT, onScan, { capture: true });
    return () => el.removeEventListener(FIELD_SCAN_EVENT, onScan, { capture: true });
  }, [onClose]);
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
        ref={form}
        onSubmit={(e) => {
          e.preventDefault();
          void go();
        }}
      >
        <p className="hint">{t('staff:signIn.hint')}</p>
        <PinField label={t('staff:signIn.pin')} value={pin} onChange={setPin} autoFocus testId="sign-in-pin" />
        {problem && (
          <p className="inline-error" role="alert">
            {problemWords(t, problem)}
          </p>
        )}
      </form>
    </Dialog>
  );
}
