/**
 * One order: who it is for, the ONE big next-step button, its items, its fulfilments, the
 * invoice and cancelling. Everything shown is the engine's projected order (queued taps
 * already applied), so the screen changes the moment a tap is taken.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderView } from '../../../shared/ipc';
import type { Order } from '../../../shared/protocol/schemas';
import { OrderMarks } from '../components/OrderMarks';
import { PrescriptionBadge } from '../components/PrescriptionBadge';
import { CancelDialog } from '../components/order/CancelDialog';
import { FulfilmentList } from '../components/order/FulfilmentList';
import { InvoiceForm } from '../components/order/InvoiceForm';
import { ItemList } from '../components/order/ItemList';
import { NextStepButton } from '../components/order/NextStepButton';
import { RemoveOrder } from '../components/order/RemoveOrder';
import { Countdown } from '../components/Countdown';
import { PrintSlipButton } from '../components/print/PrintSlipButton';
import { RejectButton } from '../components/intake/RejectButton';
import { useNewOrders } from '../store/newOrders';
import { customerName, hasPrescriptionItem, invoiceOf, itemSummary, orderStateWord } from '../orderFacts';
import { useOrders } from '../store/orders';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';

export function OrderScreen({ orderId }: { orderId: string }) {
  const view = useOrders((s) => s.byId.get(orderId));
  const back = useUi((s) => s.back);
  // Opening a new order is what stops its alert.
  const seenWhileOpen = useNewOrders((s) => s.ids.includes(orderId));
  useEffect(() => {
    if (seenWhileOpen) useNewOrders.getState().seen(orderId);
  }, [orderId, seenWhileOpen]);

  if (!view)
    return (
      <main className="screen order-screen">
        <BackButton onBack={back} />
        <div className="empty-state">
          <p className="empty-title">Order {orderId} is not on this terminal.</p>
          <p>Scan its barcode or type its number at the top to add it.</p>
        </div>
      </main>
    );

  return (
    <main className="screen order-screen" aria-labelledby="order-title" data-testid="order-screen" data-order-id={orderId}>
      <OrderHeader view={view} onBack={back} />
      <HeldWarning view={view} />
      <div className="next-step-row">
        <NextStepButton view={view} key={view.id} />
        {view.nextStep?.key === 'ACCEPT' && view.order !== null && <RejectButton order={view.order} />}
      </div>
      {view.nextStep === null && view.order !== null && <FinishedPanel />}
      {view.order ? <OrderBody order={view.order} open={view.nextStep !== null} /> : <AwaitingServiceCard view={view} />}
    </main>
  );
}

function BackButton({ onBack }: { onBack: () => void }) {
  return (
    <button type="button" className="button back-button" onClick={onBack} aria-keyshortcuts="Escape">
      ← Orders
    </button>
  );
}

function OrderHeader({ view, onBack }: { view: OrderView; onBack: () => void }) {
  const packing = view.nextStep && ['ACCEPT', 'PACKING', 'PACKED'].includes(view.nextStep.key);
  return (
    <div className="order-header">
      <BackButton onBack={onBack} />
      <div className="order-heading">
        <h1 id="order-title" className="order-title">
          Order {view.id}
        </h1>
        <div className="order-sub">
          <span className="order-customer">{customerName(view.order)}</span>
          <span className="order-state" data-testid="order-state">
            {orderStateWord(view.order)}
          </span>
          <span>{itemSummary(view.order)}</span>
          {hasPrescriptionItem(view.order) && <PrescriptionBadge />}
        </div>
        <div className="order-marks" data-testid="order-marks">
          <OrderMarks view={view} />
        </div>
      </div>
      {packing && view.promisedPackedAt !== null && (
        <div className="order-deadline">
          <Countdown deadline={view.promisedPackedAt} what="to pack" />
        </div>
      )}
      {view.order && <PrintSlipButton orderId={view.id} />}
    </div>
  );
}

/** A refused tap holds this order's later taps: say so next to the button, with the way out. */
function HeldWarning({ view }: { view: OrderView }) {
  const show = useUi((s) => s.show);
  if (view.failed === 0) return null;
  return (
    <div className="held-warning" role="alert">
      <span>
        The order service refused a change to this order. Later taps on it wait until someone retries or discards it.
      </span>
      <button type="button" className="button" onClick={() => show({ name: 'outbox' })}>
        Open the outbox
      </button>
    </div>
  );
}

function FinishedPanel() {
  return (
    <div className="finished-panel" data-testid="finished-panel">
      <span aria-hidden="true">✓</span> Nothing left to do on this order.
    </div>
  );
}

/** New to the terminal: the service's answer to Accept brings its items. */
function AwaitingServiceCard({ view }: { view: OrderView }) {
  const offline = useStatus((s) => s.sync?.connectivity === 'offline');
  const paused = useStatus((s) => (s.sync?.credentials ?? 'ok') !== 'ok');
  const { t } = useTranslation('intake');
  return (
    <section className="panel awaiting-card" data-testid="awaiting-card">
      <h2>Details not received yet</h2>
      {view.failed > 0 ? (
        <p>The order service did not take the acceptance; see the outbox for its answer.</p>
      ) : view.waiting > 0 && paused ? null : view.waiting > 0 ? (
        <p>Accept is on its way. The items and delivery details show as soon as the order service answers.</p>
      ) : (
        <p data-testid="awaiting-items">{offline ? t('awaiting.offline') : t('awaiting.online')}</p>
      )}
      {paused && view.failed === 0 && (
        <p className="awaiting-offline">
          <strong>Sending is paused:</strong> the order service does not accept this terminal's credentials. The acceptance is
          kept; a manager must enter the credentials in Settings.
        </p>
      )}
      <RemoveOrder view={view} />
      {offline && !paused && view.failed === 0 && (
        <p className="awaiting-offline">
          <strong>Offline:</strong> the acceptance is kept and sent when the connection is back; the details show then.
        </p>
      )}
    </section>
  );
}

/** Items and fulfilments; `open` when the order still has steps, so it can still change. */
function OrderBody({ order, open }: { order: Order; open: boolean }) {
  const [cancelling, setCancelling] = useState(false);
  return (
    <div className="order-body">
      <ItemList order={order} editable={open} />
      <div className="order-side">
        <FulfilmentList fulfilments={order.fulfillments} />
        <InvoiceForm orderId={order.id} current={invoiceOf(order)} />
        {open && (
          <div className="panel danger-zone">
            <button type="button" className="button button-danger-outline" onClick={() => setCancelling(true)} data-testid="cancel-order">
              Cancel order…
            </button>
          </div>
        )}
      </div>
      {cancelling && <CancelDialog orderId={order.id} prescription={hasPrescriptionItem(order)} onClose={() => setCancelling(false)} />}
    </div>
  );
}
