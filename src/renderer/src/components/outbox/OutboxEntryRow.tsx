/**
 * One outbox entry: what it does, for which order, where it stands, and what can be done. A
 * waiting tap reads as waiting, in words a packer knows; the service's own words, codes, HTTP
 * statuses and addresses are only under "details for support".
 */
import type { TFunction } from 'i18next';
import type { OutboxEntryView } from '../../../../shared/ipc';
import { formatAge, formatClock, formatSpan } from '../../format';
import { useNow } from '../../hooks/useNow';
import { useWords } from '../../i18n/useWords';
import { retry } from '../../intents';
import { actionSummary, CANCELLED_ELSEWHERE, DONE_ELSEWHERE, elsewhereWords } from '../../orderFacts';
import { useOrderView } from '../../hooks/useOrderView';
import { useUi } from '../../store/ui';
import { SupportDetails } from '../SupportDetails';
import { printableText } from '../../../../shared/protocol/orderId';

function stateWords(t: TFunction, e: OutboxEntryView, now: number, locale: string): { word: string; tone: string } {
  switch (e.state) {
    case 'queued':
      if (e.sendAfter > now) return { word: t('outbox:state.undoable'), tone: 'waiting' };
      if (e.nextAttemptAt !== null && e.nextAttemptAt > now)
        return { word: t('outbox:state.nextTry', { span: formatSpan(e.nextAttemptAt - now, t) }), tone: 'waiting' };
      return { word: t('outbox:state.waiting'), tone: 'waiting' };
    case 'sending':
      return { word: t('outbox:state.sending'), tone: 'waiting' };
    case 'sent':
      return { word: t('outbox:state.sent'), tone: 'ok' };
    case 'failed':
      // Refused after a try that got no answer: the first try may have landed, so it is a doubt
      // for a person to check, not a plain refusal.
      if (e.mayBeApplied) return { word: t('outbox:state.maybe'), tone: 'bad' };
      return { word: t('outbox:state.refused'), tone: 'bad' };
    case 'discarded':
      // Never "Sent ✓" nor a plain discard: someone else made the step, or the order was cancelled.
      if (e.lastError?.code === DONE_ELSEWHERE) return { word: elsewhereWords(t, e, locale), tone: 'bad' };
      if (e.lastError?.code === CANCELLED_ELSEWHERE) return { word: t('outbox:state.setAside'), tone: 'bad' };
      return { word: t('outbox:state.discarded'), tone: 'neutral' };
  }
}

/** Why a tap still waits, or why it was refused, in plain words; null when there is nothing to say. */
function whyWords(t: TFunction, e: OutboxEntryView, locale: string): string | null {
  const code = e.lastError?.code ?? '';
  if (!e.lastError) return null;
  if (e.state === 'queued' || e.state === 'sending') {
    if (code === 'NETWORK') return t('outbox:why.network');
    if (code === 'CREDENTIALS_REJECTED') return t('outbox:why.credentials');
    if (code === 'HTTP_429' || /^HTTP_5\d\d$/.test(code)) return t('outbox:why.busy');
    return t('outbox:why.retrying');
  }
  if (e.state === 'failed') {
    if (code === 'NOT_FOUND' || code === 'ORDER_NOT_FOUND') return t('outbox:refusal.notFound', { orderId: e.orderId });
    if (code === 'ALREADY_IN_STATE') return t('outbox:refusal.alreadyInState');
    if (code === 'BACKWARD_TRANSITION') return t('outbox:refusal.backward');
    if (code === 'ORDER_CANCELLED') return t('outbox:refusal.cancelled');
    return t('outbox:refusal.other');
  }
  if (e.state === 'sent' && code === 'UNREADABLE_ANSWER') return t('outbox:why.unreadable');
  if (e.state === 'discarded' && code === 'UNDONE') return t('outbox:why.undone');
  if (e.state === 'discarded' && code === DONE_ELSEWHERE) return t('outbox:why.elsewhere');
  if (e.state === 'discarded' && code === CANCELLED_ELSEWHERE)
    return t('outbox:why.cancelled', { time: formatClock(Number(e.lastError.values?.at ?? e.createdAt), locale) });
  return null;
}

export function OutboxEntryRow({ entry: e, onDiscard }: { entry: OutboxEntryView; onDiscard: (e: OutboxEntryView) => void }) {
  const { t, locale } = useWords();
  const now = useNow(1_000);
  const show = useUi((s) => s.show);
  // Only a unit cut names something of the order's body (the item); its whole view is read for that.
  const order = useOrderView(e.action.type === 'ITEM_UNIT_UPDATE' ? e.orderId : null)?.order ?? null;
  const { word, tone } = stateWords(t, e, now, locale);
  const why = whyWords(t, e, locale);
  const open = e.state === 'queued' || e.state === 'sending' || e.state === 'failed';
  const canRetry = e.state === 'failed' || (e.state === 'queued' && e.attempts > 0);
  return (
    <li className={`outbox-entry outbox-${tone}`} data-testid="outbox-entry" data-entry-id={e.id} data-order-id={e.orderId} data-state={e.state}>
      <div className="outbox-main">
        <div className="outbox-summary">{actionSummary(t, e.action, order)}</div>
        <div className="outbox-facts">
          <button type="button" className="link-button" onClick={() => show({ name: 'order', orderId: e.orderId })}>
            {t('common:order.title', { orderId: e.orderId })}
          </button>
          <span>{t('outbox:tapped', { time: formatClock(e.createdAt, locale), age: formatAge(e.createdAt, now, t) })}</span>
          <span>{t('outbox:tries', { count: e.attempts })}</span>
          {e.sentAt !== null && <span>{t('outbox:sentAt', { time: formatClock(e.sentAt, locale) })}</span>}
          {e.packer !== null && <span data-testid="outbox-packer">{t('staff:outbox.by', { name: e.packer })}</span>}
        </div>
        <div className={`outbox-state state-${tone}`} data-testid="outbox-state">
          {word}
        </div>
        {e.mayBeApplied && (
          <div className="mark mark-doubt" data-testid="outbox-maybe">
            <span aria-hidden="true">?</span> {t('outbox:maybe')}
          </div>
        )}
        {why && (
          <div className={e.state === 'failed' ? 'outbox-error' : 'outbox-why'} data-testid="outbox-why">
            {why}
          </div>
        )}
        {e.lastError && e.state !== 'sent' && (
          <SupportDetails testId="outbox-details">
            <p>{printableText(e.lastError.message)}</p>
            {e.lastError.code && <p>{e.lastError.code}</p>}
            <p>requestId {e.requestId}</p>
          </SupportDetails>
        )}
      </div>
      {open && (
        <div className="outbox-actions">
          {canRetry && (
            <button type="button" className="button button-primary" onClick={() => void retry(e.id)} data-testid="outbox-retry">
              {t('outbox:sendAgain')}
            </button>
          )}
          <button type="button" className="button button-danger-outline" onClick={() => onDiscard(e)} data-testid="outbox-discard">
            {t('outbox:discard')}
          </button>
        </div>
      )}
    </li>
  );
}
