/** What is pending on an order: taps waiting to sync, a refused tap holding it, a doubtful send. */
import type { OrderView } from '../../../shared/ipc';

export function OrderMarks({ view, compact = false }: { view: OrderView; compact?: boolean }) {
  return (
    <>
      {view.waiting > 0 && (
        <span className="mark mark-waiting" data-testid="mark-waiting">
          <span aria-hidden="true">⟳</span> Waiting to sync{view.waiting > 1 ? ` (${view.waiting})` : ''}
        </span>
      )}
      {view.failed > 0 && (
        <span className="mark mark-failed" data-testid="mark-failed">
          <span aria-hidden="true">⚠</span> {compact ? 'Refused — see outbox' : 'A change was refused; later taps are held — see the outbox'}
        </span>
      )}
      {view.mayBeApplied && (
        <span className="mark mark-doubt" data-testid="mark-doubt">
          <span aria-hidden="true">?</span> May already be applied — check
        </span>
      )}
      {view.needsRefresh && !compact && (
        <span className="mark mark-doubt">
          <span aria-hidden="true">?</span> The service's last answer was unreadable; shown as last known
        </span>
      )}
    </>
  );
}
