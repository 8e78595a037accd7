/** A live countdown to a promised time, in words and colour: "12 min" / "left to pack", or LATE. */
import { countdown, formatSpan } from '../format/time';
import { useNow } from '../hooks/useNow';

export function Countdown({ deadline, what }: { deadline: number; what: string }) {
  const now = useNow(1_000);
  const { urgency } = countdown(deadline, now);
  return (
    <span className={`deadline deadline-${urgency}`} data-testid="countdown">
      {urgency === 'late' && <span className="deadline-flag">LATE</span>}
      <span className="deadline-text">{formatSpan(deadline - now)}</span>
      <span className="deadline-label">{urgency === 'late' ? `late ${what}` : `left ${what}`}</span>
    </span>
  );
}
