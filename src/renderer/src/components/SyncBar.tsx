/**
 * Always visible: is the terminal reaching the order service, how many taps wait and for how
 * long, when something last got through, and whether the credentials work. Every state in
 * words as well as colour. Tapping it opens the outbox.
 */
import type { SyncStatus } from '../../../shared/ipc';
import { formatClock } from '../format';
import { useAge } from '../hooks/useAge';
import { useWords } from '../i18n/useWords';
import { noticeWords } from '../i18n/words';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import { IntakeLine } from './intake/IntakeLine';
import { HubNotice } from './hub/HubNotice';
import { useHub } from '../store/hub';

const CONNECTIVITY: Record<SyncStatus['connectivity'], { key: string; tone: string }> = {
  online: { key: 'common:sync.online', tone: 'ok' },
  offline: { key: 'common:sync.offline', tone: 'bad' },
  unknown: { key: 'common:sync.connecting', tone: 'neutral' },
};

/**
 * The engine's notices about the data file: taps may not be saved, or some were lost. They need
 * support whatever the connection says, so the bar is in alarm beside "Online".
 */
const DATA_FILE_NOTICES: ReadonlySet<string> = new Set(['STORE_DAMAGED', 'STORE_REPLACED', 'STORAGE', 'SYNC_PROBLEM']);

export function SyncBar() {
  const { t, locale } = useWords();
  const sync = useStatus((s) => s.sync);
  const show = useUi((s) => s.show);
  // The ages change the bar's words only when they read differently: waiting taps' by the second,
  // the last send's by the minute (it stays on screen all day).
  const oldestAt = sync?.oldestWaitingAt ?? null;
  const lastSentAt = sync?.lastSuccessAt ?? null;
  const oldestAge = useAge(oldestAt, t, 'second');
  const lastSentAge = useAge(lastSentAt, t, 'minute');
  const hubMode = useHub((s) => (s.status && s.status.role !== 'none' ? s.status.mode : null));
  const hereName = useHub((s) => (s.status && s.status.role !== 'none' ? s.status.counterName : null));
  const hereIsHub = useHub((s) => s.status?.role === 'hub');

  if (!sync) return null;
  const link = CONNECTIVITY[sync.connectivity];
  const hubAway = hubMode === 'away';
  const dataFile = sync.notice != null && DATA_FILE_NOTICES.has(sync.notice.code);
  const alarm = sync.backlogAlarm || sync.credentials !== 'ok' || sync.failed > 0 || sync.toCheck > 0 || dataFile || hubAway;
  const message = noticeWords(t, sync.notice, sync.message);
  return (
    <button
      type="button"
      className={`sync-bar sync-${alarm ? 'alarm' : link.tone}`}
      onClick={() => show({ name: 'outbox' })}
      data-testid="sync-bar"
    >
      <span className={`sync-link sync-link-${link.tone}`} data-testid="sync-connectivity">
        <span className="dot" aria-hidden="true" />
        {t(link.key)}
      </span>
      <span className="sync-item" data-testid="sync-waiting">
        {sync.waiting === 0 ? t('common:sync.allSent') : t('common:sync.waiting', { count: sync.waiting })}
        {sync.waiting > 0 && sync.oldestWaitingAt !== null && <> · {t('common:sync.oldest', { age: oldestAge })}</>}
      </span>
      {sync.failed > 0 && (
        <span className="sync-item sync-problem" data-testid="sync-failed">
          ⚠ {t('common:sync.refused', { count: sync.failed })}
        </span>
      )}
      {sync.toCheck > 0 && (
        <span className="sync-item sync-problem" data-testid="sync-to-check">
          ⚠ {t('common:sync.toCheck', { count: sync.toCheck })}
        </span>
      )}
      {sync.credentials !== 'ok' && (
        <span className="sync-item sync-problem" data-testid="sync-credentials">
          ⚠ {sync.credentials === 'missing' ? t('common:sync.noCredentials') : t('common:sync.credentialsRejected')}
        </span>
      )}
      <HubNotice />
      {sync.backlogAlarm && (
        <span className="sync-item sync-problem" data-testid="sync-backlog">
          ⚠ {t('common:sync.backlog')}
        </span>
      )}
      {/* The engine's one sentence on what matters most now, in the staff's language: it wraps
          rather than being cut, so it is always read whole. */}
      <span className="sync-message" data-testid="sync-message">
        {message}
      </span>
      {/* Two lines always: what waits and what is wrong first, then when orders were checked and
          taps last sent. A tap that makes the first line longer then never pushes the second
          line's items down, which would move the whole screen under the packer's finger. */}
      <span className="sync-break" aria-hidden="true" />
      {/* Which counter this is, in a store of several: what other counters' screens call it. */}
      {hereName && (
        <span className="sync-item sync-counter" data-testid="sync-counter">
          {hereIsHub ? t('hub:thisCounter.hub', { name: hereName }) : t('hub:thisCounter.counter', { name: hereName })}
        </span>
      )}
      <IntakeLine />
      <span className="sync-item sync-last" data-testid="sync-last">
        {sync.lastSuccessAt === null
          ? t('common:sync.nothingSent')
          : t('common:sync.lastSent', { time: formatClock(sync.lastSuccessAt, locale), age: lastSentAge })}
      </span>
      {/* The button's name is its status, read whole; this says what pressing it does. */}
      <span className="visually-hidden">{t('shift:syncBar.opensOutbox')}</span>
    </button>
  );
}
