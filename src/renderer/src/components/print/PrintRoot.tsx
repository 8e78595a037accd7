/**
 * The print root: its own React root beside the app's (#root), holding the document laid out for
 * print. On screen it is laid out but invisible (its height is measured for the thermal roll); in
 * print, print.css hides the app and shows only this. It also runs the auto-print watcher.
 */
import { lazy, Suspense, useEffect } from 'react';
import { printPackingSlip, usePrint, watchPackedTaps } from '../../print';
import { useStatus } from '../../store/status';
import { PackingSlip } from './PackingSlip';
import { PickList } from './PickList';
import { JoinSlip } from '../hub/JoinSlip';

// With its chart library, loaded on the first summary printed (printShiftSummary loads it first).
const ShiftSummary = lazy(() => import('./ShiftSummary'));
import { BadgeSheet } from '../staff/BadgeSheet';

export function PrintRoot({ now = Date.now }: { now?: () => number }) {
  const job = usePrint((s) => s.job);
  const heightMm = usePrint((s) => s.heightMm);
  const paper = useStatus((s) => s.settings?.paper ?? 'thermal80');

  useEffect(() => watchPackedTaps((orderId) => void printPackingSlip(orderId, now), now()), [now]);

  return (
    <div
      className={`print-root paper-${paper}`}
      aria-hidden="true"
      data-testid="print-root"
      data-paper={paper}
      data-document={job?.document ?? ''}
      data-height-mm={heightMm ?? ''}
    >
      {job?.document === 'packingSlip' && <PackingSlip slip={job.slip} barcode={job.barcode} />}
      {job?.document === 'pickList' && <PickList list={job.list} at={job.at} />}
      {job?.document === 'joinSlip' && <JoinSlip code={job.code} barcodeSvg={job.barcodeSvg} at={job.at} />}
      {job?.document === 'shiftSummary' && (
        <Suspense fallback={null}>
          <ShiftSummary report={job.report} at={job.at} />
        </Suspense>
      )}
      {job?.document === 'badges' && <BadgeSheet badges={job.badges} />}
    </div>
  );
}
