/**
 * A live countdown to a promised time, in words and colour: "12 min" / "left to pack", or LATE.
 * The promise is on the order service's clock, so the countdown runs on it too: this computer's
 * clock less the difference the last token measured (a counter PC's clock is often minutes off).
 */
import { formatSpan, urgencyAt } from '../format';
import { useClockValue } from '../hooks/useNow';
import { useWords } from '../i18n/useWords';
import { useStatus } from '../store/status';

export function Countdown({ deadline }: { deadline: number }) {
  const { t } = useWords();
  const skew = useStatus((s) => s.sync?.clockSkewMs ?? 0);
  // Worked out every second, drawn again only when the words or the colour change (once a
  // minute, or every second in its last minute and first late one).
  const urgency = useClockValue(1_000, (now) => urgencyAt(deadline, now - skew));
  const span = useClockValue(1_000, (now) => formatSpan(deadline - (now - skew), t));
  return (
    <span className={`deadline deadline-${urgency}`} data-testid="countdown">
      {urgency === 'late' && <span className="deadline-flag">{t('common:countdown.lateFlag')}</span>}
      <span className="deadline-text">{span}</span>
      <span className="deadline-label">{urgency === 'late' ? t('common:countdown.lateToPack') : t('common:countdown.leftToPack')}</span>
    </span>
  );
}
