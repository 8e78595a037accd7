/**
 * Always visible: is the terminal reaching the order service, how many taps wait and for how
 * long, when something last got through, and whether the credentials work. Every state in
 * words as well as colour. Tapping it opens the outbox.
 */
import { useTranslation } from 'react-i18next';
import type { SyncStatus } from '../../../shared/ipc';
import { formatAge, formatClock } from '../format/time';
import { useNow } from '../hooks/useNow';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import { IntakeLine } from './intake/IntakeLine';

const CONNECTIVITY: Record<SyncStatus['connectivity'], { word: string; tone: string }> = {
  online: { word: 'Online', tone: 'ok' },
  offline: { word: 'Offline', tone: 'bad' },
  unknown: { word: 'Connecting…', tone: 'neutral' },
};

export function SyncBar() {
  const sync = useStatus((s) => s.sync);
  const show = useUi((s) => s.show);
  const now = useNow(1_000);
  const { t } = useTranslation('shift');

  if (!sync) return null;
  const link = CONNECTIVITY[sync.connectivity];
  const alarm = sync.backlogAlarm || sync.credentials !== 'ok' || sync.failed > 0 || sync.toCheck > 0;
  return (
    <button
      type="button"
      className={`sync-bar sync-${alarm ? 'alarm' : link.tone}`}
      onClick={() => show({ name: 'outbox' })}
      data-testid="sync-bar"
    >
      <span className={`sync-link sync-link-${link.tone}`} data-testid="sync-connectivity">
        <span className="dot" aria-hidden="true" />
        {link.word}
      </span>
      <span className="sync-item" data-testid="sync-waiting">
        {sync.waiting === 0 ? 'All taps sent' : `${sync.waiting} ${sync.waiting === 1 ? 'tap' : 'taps'} waiting to send`}
        {sync.waiting > 0 && sync.oldestWaitingAt !== null && <> · oldest {formatAge(sync.oldestWaitingAt, now)}</>}
      </span>
      {sync.failed > 0 && (
        <span className="sync-item sync-problem" data-testid="sync-failed">
          ⚠ {sync.failed} refused
        </span>
      )}
      {sync.toCheck > 0 && (
        <span className="sync-item sync-problem" data-testid="sync-to-check">
          ⚠ {sync.toCheck} to check
        </span>
      )}
      {sync.credentials !== 'ok' && (
        <span className="sync-item sync-problem" data-testid="sync-credentials">
          ⚠ {sync.credentials === 'missing' ? 'No credentials' : 'Credentials rejected'}
        </span>
      )}
      {sync.backlogAlarm && (
        <span className="sync-item sync-problem" data-testid="sync-backlog">
          ⚠ Taps waiting too long
        </span>
      )}
      {/* The engine's one sentence on what matters most now; cut to one line here so the bar never
          grows and pushes the screen down under a finger (the outbox shows it whole). */}
      <span className="sync-message" data-testid="sync-message" title={sync.message ?? undefined}>
        {sync.message}
      </span>
      <IntakeLine now={now} />
      <span className="sync-item sync-last">
        {sync.lastSuccessAt === null ? 'Nothing sent yet' : `Last sent ${formatClock(sync.lastSuccessAt)} (${formatAge(sync.lastSuccessAt, now)})`}
      </span>
      {/* The button's name is its status, read whole; this says what pressing it does. */}
      <span className="visually-hidden">{t('syncBar.opensOutbox')}</span>
    </button>
  );
}
