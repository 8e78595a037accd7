/**
 * A live countdown to a promised time, in words and colour: "12 min" / "left to pack", or LATE.
 * The promise is on the order service's clock, so the countdown runs on it too: this computer's
 * clock less the difference the last token measured (a counter PC's clock is often minutes off).
 */
import { useCallback } from 'react';
import { countdownChangesAt, formatSpan, urgencyAt } from '../format';
import { useTimedValue } from '../hooks/useNow';
import { useWords } from '../i18n/useWords';
import { useStatus } from '../store/status';

export function Countdown({ deadline }: { deadline: number }) {
  const { t } = useWords();
  const skew = useStatus((s) => s.sync?.clockSkewMs ?? 0);
  // Looked at when the words or the colour change: once a minute, and every second in the two
  // minutes around the promise.
  const next = useCallback((now: number) => countdownChangesAt(deadline, now - skew) + skew, [deadline, skew]);
  const urgency = useTimedValue(next, (now) => urgencyAt(deadline, now - skew));
  const span = useTimedValue(next, (now) => formatSpan(deadline - (now - skew), t));
  return (
    <span className={`deadline deadline-${urgency}`} data-testid="countdown">
      {urgency === 'late' && <span className="deadline-flag">{t('common:countdown.lateFlag')}</span>}
      <span className="deadline-text">{span}</span>
      <span className="deadline-label">{urgency === 'late' ? t('common:countdown.lateToPack') : t('common:countdown.leftToPack')}</span>
    </span>
  );
}
