/** Asks for the manager PIN before settings open. */
import { useState } from 'react';
import { command } from '../../intents';
import { PIN_PATTERN, PinField } from '../PinField';

export function PinGate({ onUnlock }: { onUnlock: (pin: string) => void }) {
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!PIN_PATTERN.test(pin) || busy) return;
    setBusy(true);
    const reply = await command('pin.verify', { pin });
    setBusy(false);
    if (!reply.ok) setProblem(reply.problem.message);
    else if (!reply.value.valid) {
      setProblem('That PIN is not right. Try again.');
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
      <p>Settings change how this terminal talks to the order service. Enter the manager PIN.</p>
      <PinField label="Manager PIN" value={pin} onChange={setPin} autoFocus testId="settings-pin" />
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={!PIN_PATTERN.test(pin) || busy}>
        Open settings
      </button>
    </form>
  );
}
