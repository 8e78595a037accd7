/** One outbox entry: what it does, for which order, where it stands, and what can be done. */
import type { OutboxEntryView } from '../../../../shared/ipc';
import { formatAge, formatClock, formatSpan } from '../../format/time';
import { useNow } from '../../hooks/useNow';
import { retry } from '../../intents';
import { useUi } from '../../store/ui';

function stateWords(e: OutboxEntryView, now: number): { word: string; tone: string } {
  switch (e.state) {
    case 'queued':
      if (e.sendAfter > now) return { word: 'Can still be undone', tone: 'waiting' };
      if (e.nextAttemptAt !== null && e.nextAttemptAt > now)
        return { word: `Waiting — next try in ${formatSpan(e.nextAttemptAt - now)}`, tone: 'waiting' };
      return { word: 'Waiting to send', tone: 'waiting' };
    case 'sending':
      return { word: 'Sending…', tone: 'waiting' };
    case 'sent':
      return { word: 'Sent ✓', tone: 'ok' };
    case 'failed':
      // Refused after a try that got no answer: the first try may have landed, so it is a doubt
      // for a person to check, not a plain refusal.
      if (e.mayBeApplied) return { word: 'May already be applied — check the order', tone: 'bad' };
      return { word: 'Refused by the order service', tone: 'bad' };
    case 'discarded':
      return { word: 'Discarded — not sent', tone: 'neutral' };
  }
}

export function OutboxEntryRow({ entry: e, onDiscard }: { entry: OutboxEntryView; onDiscard: (e: OutboxEntryView) => void }) {
  const now = useNow(1_000);
  const show = useUi((s) => s.show);
  const { word, tone } = stateWords(e, now);
  const open = e.state === 'queued' || e.state === 'sending' || e.state === 'failed';
  const canRetry = e.state === 'failed' || (e.state === 'queued' && e.attempts > 0);
  return (
    <li className={`outbox-entry outbox-${tone}`} data-testid="outbox-entry" data-entry-id={e.id} data-order-id={e.orderId} data-state={e.state}>
      <div className="outbox-main">
        <div className="outbox-summary">{e.summary}</div>
        <div className="outbox-facts">
          <button type="button" className="link-button" onClick={() => show({ name: 'order', orderId: e.orderId })}>
            Order {e.orderId}
          </button>
          <span>tapped {formatClock(e.createdAt)} ({formatAge(e.createdAt, now)})</span>
          <span>
            {e.attempts} {e.attempts === 1 ? 'try' : 'tries'}
          </span>
          {e.sentAt !== null && <span>sent {formatClock(e.sentAt)}</span>}
        </div>
        <div className={`outbox-state state-${tone}`} data-testid="outbox-state">
          {word}
        </div>
        {e.mayBeApplied && (
          <div className="mark mark-doubt" data-testid="outbox-maybe">
            <span aria-hidden="true">?</span> An earlier try got no answer, so this may already be done. Check the order before sending again.
          </div>
        )}
        {e.lastError && e.state !== 'sent' && (
          <div className="outbox-error" data-testid="outbox-error">
            {e.lastError.message}
            {e.lastError.code && <span className="muted"> ({e.lastError.code})</span>}
          </div>
        )}
      </div>
      {open && (
        <div className="outbox-actions">
          {canRetry && (
            <button type="button" className="button button-primary" onClick={() => void retry(e.id)} data-testid="outbox-retry">
              Send again
            </button>
          )}
          <button type="button" className="button button-danger-outline" onClick={() => onDiscard(e)} data-testid="outbox-discard">
            Discard…
          </button>
        </div>
      )}
    </li>
  );
}
