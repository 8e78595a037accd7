/**
 * An order's timeline, from this terminal's own records: when it arrived, each tap (what, who, at
 * which counter), when the service confirmed it, taps undone, retried or set aside, its alarm, its
 * prints, when it left. The slip and the pick list can be printed again from here.
 */
import { useEffect, useState } from 'react';
import type { OrderTimeline, TimelineEvent } from '../../../../shared/ipc';
import type { Order } from '../../../../shared/protocol/schemas';
import { formatDayClock } from '../../format';
import { type Said, saidRefused } from '../../i18n/said';
import { useWords } from '../../i18n/useWords';
import { command } from '../../intents';
import { actionSummary } from '../../orderFacts';
import { printPackingSlip, printPickList } from '../../print';
import { Dialog } from '../Dialog';
import { printableText } from '../../../../shared/protocol/orderId';
import { conflictWho } from '../hub/conflictWords';

/** The History button and its window. */
export function OrderHistoryButton({ orderId, order }: { orderId: string; order: Order | null }) {
  const { t } = useWords();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)} data-testid="order-history">
        {t('timeline:open')}
      </button>
      {open && <OrderHistory orderId={orderId} order={order} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The timeline's window (also opened from the Orders search, for an order no longer on the terminal). */
export function OrderHistory({ orderId, order, onClose }: { orderId: string; order: Order | null; onClose: () => void }) {
  const { t, locale } = useWords();
  const [timeline, setTimeline] = useState<OrderTimeline | null>(null);
  const [problem, setProblem] = useState<Said | null>(null);
  // Read again after a reprint, so the new print shows in the list.
  const [reads, setReads] = useState(0);

  useEffect(() => {
    let live = true;
    void command('orders.timeline', { orderId }).then((reply) => {
      if (!live) return;
      if (reply.ok) setTimeline(reply.value);
      else setProblem(saidRefused(reply.problem));
    });
    return () => {
      live = false;
    };
  }, [orderId, reads]);

  const reprint = async (document: 'packingSlip' | 'pickList') => {
    await (document === 'packingSlip' ? printPackingSlip(orderId) : printPickList([orderId]));
    setReads((n) => n + 1);
  };
  const reprintable = timeline?.reprintable ?? false;

  return (
    <Dialog
      title={t('timeline:title', { orderId })}
      onClose={onClose}
      testId="order-history-dialog"
      actions={
        <>
          <button type="button" className="button" disabled={!reprintable} onClick={() => void reprint('packingSlip')} data-testid="reprint-slip">
            {t('timeline:reprint.slip')}
          </button>
          <button type="button" className="button" disabled={!reprintable} onClick={() => void reprint('pickList')} data-testid="reprint-pick">
            {t('timeline:reprint.pickList')}
          </button>
        </>
      }
    >
      {problem && <p role="alert">{problem.words(t, locale)}</p>}
      {timeline && !reprintable && <p className="muted">{t('timeline:reprint.gone')}</p>}
      {timeline && (
        <ol className="timeline" data-testid="timeline">
          {timeline.events.map((e, i) => (
            <li key={i} className={`timeline-event timeline-${e.kind}`} data-kind={e.kind} data-state={e.state ?? ''}>
              <time dateTime={new Date(e.at).toISOString()}>{formatDayClock(e.at, locale)}</time>{' '}
              <span className="timeline-what">{eventWords(e, t, order, locale)}</span>
              {(e.packer || e.counter) && (
                <span className="timeline-who muted" data-testid="timeline-who">
                  {' '}
                  · {e.packer && e.counter ? t('timeline:who', { packer: e.packer, counter: e.counter }) : printableText(e.packer ?? e.counter ?? '')}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}

/** One moment in words. */
function eventWords(e: TimelineEvent, t: ReturnType<typeof useWords>['t'], order: Order | null, locale: string): string {
  const what = e.action ? actionSummary(t, e.action, order) : '';
  switch (e.kind) {
    case 'arrived':
      return t('timeline:event.arrived');
    case 'tap':
      return e.state === 'discarded' ? t('timeline:event.tapDiscarded', { what }) : e.state === 'failed' ? t('timeline:event.tapRefused', { what }) : e.state === 'sent' ? t('timeline:event.tap', { what }) : t('timeline:event.tapWaiting', { what });
    case 'confirmed':
      return t('timeline:event.confirmed', { what });
    case 'attempt':
      return t('timeline:event.attempt', { what, outcome: e.outcome ? t(`timeline:outcome.${e.outcome}`, { defaultValue: e.outcome }) : '' });
    case 'undo':
      return t('timeline:event.undo', { what });
    case 'retry':
      return t('timeline:event.retry', { what });
    case 'discard':
      return t('timeline:event.discard', { what });
    case 'recover':
      return t('timeline:event.recover', { what });
    case 'alarm':
      return e.outcome === 'cancelled' ? t('timeline:event.alarmCancelled') : t('timeline:event.alarmItems');
    case 'print':
      return e.document === 'pickList' ? t('timeline:event.printPickList') : t('timeline:event.printSlip');
    case 'left':
      return t('timeline:event.left');
    case 'conflict':
      return t('timeline:event.conflict', { who: conflictWho(t, locale, { parties: (e.parties ?? []).map((p) => ({ ...p, counterId: p.counterName, here: false })) }) });
    case 'settled':
      return t('timeline:event.settled', { keeper: e.keeper ?? '' });
    case 'putBack':
      return t('timeline:event.putBack');
  }
}
