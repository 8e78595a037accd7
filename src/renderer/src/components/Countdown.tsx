/** A live countdown to a promised time, in words and colour: "12 min left", "5 min late". */
import { countdown } from '../format/time';
import { useNow } from '../hooks/useNow';

export function Countdown({ deadline, label }: { deadline: number; label: string }) {
  const now = useNow(1_000);
  const { text, urgency } = countdown(deadline, now);
  return (
    <span className={`deadline deadline-${urgency}`}>
      {urgency === 'late' && <span className="deadline-flag">LATE</span>}
      <span className="deadline-text">{text}</span>
      <span className="deadline-label">{label}</span>
    </span>
  );
}
