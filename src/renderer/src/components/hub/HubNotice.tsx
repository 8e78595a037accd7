/**
 * In the sync bar: the store hub is away (this counter takes and alerts orders on its own, and
 * sends its own taps as always) or being joined. Nothing shows while all is well or without a hub.
 */
import { formatClock } from '../../format';
import { useWords } from '../../i18n/useWords';
import { useHub } from '../../store/hub';

export function HubNotice() {
  const { t, locale } = useWords();
  const status = useHub((s) => s.status);
  if (!status || status.role === 'none' || status.mode === 'connected' || status.mode === 'solo') return null;
  const since = status.since !== null ? formatClock(status.since, locale) : null;
  return (
    <span className="sync-item sync-problem" data-testid="hub-notice" data-mode={status.mode}>
      ⚠ {status.mode === 'away' ? t('hub:notice.away', { time: since ?? '—' }) : t('hub:notice.connecting')}
    </span>
  );
}
