/** A manager PIN box: digits only, hidden as typed, never remembered by the browser. */
import { useId } from 'react';

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
  testId?: string;
}

export const PIN_PATTERN = /^\d{4,8}$/;

export function PinField({ label, value, onChange, autoFocus = false, testId }: Props) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="text-input pin-input"
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={8}
        value={value}
        // Only digits ever reach the state: gloves and scanners do hit other keys.
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
        autoFocus={autoFocus}
        data-testid={testId}
      />
    </div>
  );
}
