/** First start: the manager chooses the PIN that guards settings, discards and fraud cancels. */
import { useState } from 'react';
import { command } from '../../intents';
import { useStatus } from '../../store/status';
import { PIN_PATTERN, PinField } from '../PinField';

export function PinSetup({ onDone }: { onDone: (pin: string) => void }) {
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
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
    if (!reply.ok) setProblem(reply.problem.message);
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
      <h2>Choose a manager PIN</h2>
      <p>No PIN is set on this terminal yet. The PIN guards settings, discarding taps and fraud cancellations. Use 4 to 8 digits.</p>
      <PinField label="New PIN" value={pin} onChange={setPin} autoFocus testId="pin-new" />
      <PinField label="The same PIN again" value={again} onChange={setAgain} testId="pin-again" />
      {again.length > 0 && !same && <p className="inline-error">The two PINs are different.</p>}
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={!valid || !same || busy}>
        Set PIN
      </button>
    </form>
  );
}
