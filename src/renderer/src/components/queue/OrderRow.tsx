/** One order in the queue: how long is left, who it is for, its next step and its marks. */
import { memo } from 'react';
import type { OrderSummary } from '../../../../shared/ipc';
import { useWords } from '../../i18n/useWords';
import { useNewOrders } from '../../store/newOrders';
import { useOrders } from '../../store/orders';
import { useStatus } from '../../store/status';
import { Countdown } from '../Countdown';
import { AlarmMark, ConflictMark, OrderMarks } from '../OrderMarks';
import { PickSelect } from '../print/PickSelect';
import { PrescriptionBadge } from '../PrescriptionBadge';
import { StepPill } from '../StepPill';
import { claimedElsewhere } from '../hub/ClaimBanner';
import { customerName, itemSummary, orderStateWord } from '../../orderFacts';
import { printableId } from '../../../../shared/protocol/orderId';

// 80 px: two lines of text and a 56 px pill, and six rows in the queue on a 768 px tall screen.
export const ROW_HEIGHT = 80;
/** Rows the list draws beyond those in view, on either side (smooth keyboard paging and flings). */
export const QUEUE_OVERSCAN = 8;

/** How many rows the queue's first screen draws in a window `height` px tall (at most; the list is shorter). */
export function firstScreenRows(height: number): number {
  return Math.max(1, Math.ceil(height / ROW_HEIGHT)) + QUEUE_OVERSCAN;
}

interface Props {
  id: string;
  domId: string;
  top: number;
  index: number;
  total: number;
  active: boolean;
  onOpen: () => void;
}

export const OrderRow = memo(function OrderRow({ id, domId, top, index, total, active, onOpen }: Props) {
  const { t } = useWords();
  const view = useOrders((s) => s.byId.get(id));
  const isNew = useNewOrders((s) => s.ids.includes(id));
  const offline = useStatus((s) => s.sync?.connectivity === 'offline');
  if (!view) return null;
  return (
    <div
      id={domId}
      role="option"
      aria-selected={active}
      aria-posinset={index + 1}
      aria-setsize={total}
      className={`order-row${active ? ' active' : ''}${isNew ? ' new-order' : ''}${view.alarm || view.conflict ? ' alarm' : ''}`}
      data-new={isNew ? 'true' : undefined}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={onOpen}
      data-testid="order-row"
      data-order-id={id}
    >
      <PickSelect orderId={id} disabled={!view.facts} />
      <RowDeadline view={view} />
      <div className="row-main">
        <div className="row-title">
          <span className="row-id">{printableId(id)}</span>
          {isNew && <span className="row-new-mark">{t('intake:newOrders.rowMark')}</span>}
          {view.alarm && <AlarmMark alarm={view.alarm} />}
          {view.conflict && <ConflictMark conflict={view.conflict} />}
          {view.facts && <span className="row-customer">{customerName(t, view.facts)}</span>}
        </div>
        <div className="row-facts">
          {view.facts ? (
            <>
              <span>{itemSummary(t, view.facts)}</span>
              <span className="row-state">{orderStateWord(t, view.facts)}</span>
              {view.facts.prescription && <PrescriptionBadge />}
            </>
          ) : (
            <span>{view.unreadable ? t('common:queue.unreadableRow') : offline ? t('intake:row.offline') : t('intake:row.fetching')}</span>
          )}
          <OrderMarks view={view} compact />
        </div>
      </div>
      {!view.nextStep && !view.facts ? <StepPill step={null} waitingForDetails /> : <StepPill step={view.nextStep?.key ?? null} held={claimedElsewhere(view)} />}
    </div>
  );
});

/** The countdown matters only until the order is packed; after that the row says where it is. */
function RowDeadline({ view }: { view: OrderSummary }) {
  const { t } = useWords();
  const key = view.nextStep?.key;
  const packing = key === 'ACCEPT' || key === 'PACKING' || key === 'PACKED';
  return (
    <div className="row-deadline">
      {packing && view.promisedPackedAt !== null ? (
        <Countdown deadline={view.promisedPackedAt} />
      ) : (
        <span className="deadline deadline-none">{!view.facts
            ? t('common:order.new')
            : key === undefined
              ? t('common:queue.finished')
              : packing
                ? t('common:queue.noPromise')
                : t('common:queue.packed')}</span>
      )}
    </div>
  );
}
