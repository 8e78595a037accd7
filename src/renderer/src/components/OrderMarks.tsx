/** What is pending on an order: a change made elsewhere to acknowledge, taps waiting to sync, a refused tap holding it, a doubtful send. */
import type { OrderSummary } from '../../../shared/ipc';
import { useWords } from '../i18n/useWords';

export function OrderMarks({
  view,
  compact = false,
}: {
  view: Pick<OrderSummary, 'waiting' | 'failed' | 'mayBeApplied' | 'needsRefresh' | 'alarm' | 'claim' | 'elsewhere' | 'conflict'>;
  compact?: boolean;
}) {
  const { t } = useWords();
  // "Ravi · Counter 1": who and where, on every counter but the one that holds it.
  const claimedElsewhere = view.claim !== undefined && !view.claim.here ? (view.claim.packer ? t('hub:marks.claimedBy', { packer: view.claim.packer, counter: view.claim.counterName }) : t('hub:marks.claimed', { counter: view.claim.counterName })) : null;
  const waitingElsewhere = view.elsewhere?.find((e) => e.state === 'waiting')?.counterName ?? null;
  // A queue row has room for one of the two: "To sync at Counter 1" names the counter too.
  const showClaim = claimedElsewhere !== null && !(compact && waitingElsewhere !== null);
  return (
    <>
      {view.alarm && !compact && <AlarmMark alarm={view.alarm} />}
      {view.conflict && !compact && <ConflictMark conflict={view.conflict} />}
      {showClaim && (
        <span className="mark mark-claimed" data-testid="mark-claimed">
          <span aria-hidden="true">●</span> {claimedElsewhere}
        </span>
      )}
      {compact && waitingElsewhere !== null && (
        <span className="mark mark-waiting" data-testid="mark-waiting-elsewhere">
          <span aria-hidden="true">⟳</span> {t('hub:marks.waitingAt', { counter: waitingElsewhere })}
        </span>
      )}
      {view.waiting > 0 && (
        <span className="mark mark-waiting" data-testid="mark-waiting">
          <span aria-hidden="true">⟳</span> {view.waiting > 1 ? t('common:marks.waitingCount', { count: view.waiting }) : t('common:marks.waiting')}
        </span>
      )}
      {view.failed > 0 && (
        <span className="mark mark-failed" data-testid="mark-failed">
          <span aria-hidden="true">⚠</span> {compact ? t('common:marks.refusedShort') : t('common:marks.refused')}
        </span>
      )}
      {view.mayBeApplied && (
        <span className="mark mark-doubt" data-testid="mark-doubt">
          <span aria-hidden="true">?</span> {t('common:marks.doubt')}
        </span>
      )}
      {view.needsRefresh && !compact && (
        <span className="mark mark-doubt">
          <span aria-hidden="true">?</span> {t('common:marks.unreadable')}
        </span>
      )}
    </>
  );
}

/** An order cancelled or changed elsewhere, not yet acknowledged (the queue row shows it beside the id). */
export function AlarmMark({ alarm }: { alarm: NonNullable<OrderSummary['alarm']> }) {
  const { t } = useWords();
  return (
    <span className="mark mark-alarm" data-testid="mark-alarm">
      <span aria-hidden="true">⚠</span> {alarm.kind === 'cancelled' ? t('common:marks.alarmCancelled') : t('common:marks.alarmItems')}
    </span>
  );
}

/** Packed twice at two counters: until settled, then (where the order is not kept) until its items are back. */
export function ConflictMark({ conflict }: { conflict: NonNullable<OrderSummary['conflict']> }) {
  const { t } = useWords();
  return (
    <span className="mark mark-alarm" data-testid="mark-conflict">
      <span aria-hidden="true">⚠</span> {conflict.settled ? t('hub:conflict.markPutBack') : t('hub:conflict.mark')}
    </span>
  );
}
