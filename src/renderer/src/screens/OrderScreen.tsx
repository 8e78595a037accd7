/**
 * One order: who it is for, the ONE big next-step button, its items, its fulfilments, the
 * invoice and cancelling. Everything shown is the engine's projected order (queued taps
 * already applied), so the screen changes the moment a tap is taken.
 */
import { useState } from 'react';
import type { OrderView } from '../../../shared/ipc';
import type { Order } from '../../../shared/protocol/schemas';
import { AlarmPanel } from '../components/OrderAlarm';
import { ClaimBanner, claimedElsewhere, ElsewhereLines, HeldNote, PackedElsewhere, useTakeOverFirst } from '../components/hub/ClaimBanner';
import { ConflictPanel } from '../components/hub/ConflictPanel';
import { OrderMarks } from '../components/OrderMarks';
import { PrescriptionBadge } from '../components/PrescriptionBadge';
import { CancelDialog } from '../components/order/CancelDialog';
import { FulfilmentList } from '../components/order/FulfilmentList';
import { InvoiceForm } from '../components/order/InvoiceForm';
import { ItemList } from '../components/order/ItemList';
import { NextStepButton } from '../components/order/NextStepButton';
import { PackChecklist } from '../components/order/PackChecklist';
import { packsByScan } from '../packing/intents';
import { RemoveOrder } from '../components/order/RemoveOrder';
import { Countdown } from '../components/Countdown';
import { PrintSlipButton } from '../components/print/PrintSlipButton';
import { OrderHistoryButton } from '../components/order/OrderHistory';
import { RejectButton } from '../components/intake/RejectButton';
import { useNewOrders } from '../store/newOrders';
import { customerName, invoiceOf, itemSummary, orderStateWord } from '../orderFacts';
import { factsOf } from '../../../shared/orders';
import { orderPhase } from '../../../shared/fulfilment/states';
import { useIsPredicted, useOrderView } from '../hooks/useOrderView';
import { useWords } from '../i18n/useWords';
import { useOrders } from '../store/orders';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';

export function OrderScreen({ orderId }: { orderId: string }) {
  const { t } = useWords();
  const view = useOrderView(orderId);
  const predicted = useIsPredicted(orderId);
  // On the terminal, its body on its way from the engine (a newer list dropped the whole view).
  const listed = useOrders((s) => s.byId.has(orderId));
  const back = useUi((s) => s.back);
  // Opening a new order does not stop its alert (a tap meant for another row must not silence
  // it): Accept, Reject or "I have seen it" do.
  const isNew = useNewOrders((s) => s.ids.includes(orderId));
  // Re-drawn when the setting changes; packsByScan reads it from the store.
  useStatus((s) => s.settings?.scanToPack);
  const packs = packsByScan(view);

  if (!view && listed)
    return (
      <main className="screen order-screen" aria-labelledby="order-title" aria-busy="true">
        <div className="order-header">
          <BackButton onBack={back} />
          <div className="order-heading">
            <h1 id="order-title" className="order-title">
              {t('common:order.title', { orderId })}
            </h1>
          </div>
        </div>
      </main>
    );

  if (!view)
    return (
      <main className="screen order-screen">
        <BackButton onBack={back} />
        <div className="empty-state">
          <p className="empty-title">{t('order:notHere.title', { orderId })}</p>
          <p>{t('order:notHere.how')}</p>
        </div>
      </main>
    );

  return (
    <main className="screen order-screen" aria-labelledby="order-title" data-testid="order-screen" data-order-id={orderId} data-predicted={predicted}>
      <OrderHeader view={view} onBack={back} />
      {view.alarm && <AlarmPanel orderId={view.id} alarm={view.alarm} order={view.order} />}
      {view.conflict && <ConflictPanel orderId={view.id} conflict={view.conflict} order={view.order} />}
      <HeldWarning view={view} />
      <ElsewhereLines view={view} />
      <PackedElsewhere view={view} />
      <div className="next-step-row">
        {/* Packed twice: who keeps it is settled (or its items put back) before anyone goes on with it. */}
        {view.conflict ? null : claimedElsewhere(view) ? <ClaimBanner view={view} /> : <NextStepButton view={view} key={view.id} />}
        {view.nextStep?.key === 'ACCEPT' && view.order !== null && <RejectButton order={view.order} />}
        {isNew && <SeenButton orderId={orderId} />}
      </div>
      {view.nextStep === null && view.order !== null && <FinishedPanel cancelled={orderPhase(view.order) === 'CANCELLED'} />}
      {view.order && packs && <PackChecklist view={view} order={view.order} />}
      {view.order ? <OrderBody view={view} order={view.order} /> : <AwaitingServiceCard view={view} />}
    </main>
  );
}

/** Stops the new-order chime for this order without accepting it: it stays in the queue to accept. */
function SeenButton({ orderId }: { orderId: string }) {
  const { t } = useWords();
  return (
    <button type="button" className="button seen-button" onClick={() => useNewOrders.getState().seen(orderId)} title={t('intake:newOrders.seenHint')} data-testid="new-order-seen">
      {t('intake:newOrders.seen')}
    </button>
  );
}

function BackButton({ onBack }: { onBack: () => void }) {
  const { t } = useWords();
  return (
    <button type="button" className="button back-button" onClick={onBack} aria-keyshortcuts="Escape">
      ← {t('common:nav.orders')}
    </button>
  );
}

function OrderHeader({ view, onBack }: { view: OrderView; onBack: () => void }) {
  const { t } = useWords();
  const packing = view.nextStep && ['ACCEPT', 'PACKING', 'PACKED'].includes(view.nextStep.key);
  const facts = view.order ? factsOf(view.order) : null;
  return (
    <div className="order-header">
      <BackButton onBack={onBack} />
      <div className="order-heading">
        <h1 id="order-title" className="order-title">
          {t('common:order.title', { orderId: view.id })}
        </h1>
        <div className="order-sub">
          <span className="order-customer">{customerName(t, facts)}</span>
          <span className="order-state" data-testid="order-state">
            {orderStateWord(t, facts)}
          </span>
          <span>{itemSummary(t, facts)}</span>
        </div>
        {/* Always one line tall, marks or none, so a tap that adds or clears "Waiting to sync"
            never moves the big button under the packer's finger. The time left to pack leads it:
            in a box of its own beside Print it made the header three buttons tall at 1024 px, and
            no item was in view (docs/ui.md, "Who it is for"). */}
        <div className="order-marks" data-testid="order-marks">
          {packing && view.promisedPackedAt !== null && (
            <div className="order-deadline">
              <Countdown deadline={view.promisedPackedAt} />
            </div>
          )}
          {facts?.prescription && <PrescriptionBadge />}
          <OrderMarks view={view} />
        </div>
      </div>
      {/* One row at every width: the heading keeps the width its title, state and marks need on one line each. */}
      <div className="order-aside">
        {view.order && <PrintSlipButton orderId={view.id} />}
        <OrderHistoryButton orderId={view.id} order={view.order} />
      </div>
    </div>
  );
}

/** A refused tap holds this order's later taps: say so next to the button, with the way out. */
function HeldWarning({ view }: { view: OrderView }) {
  const { t } = useWords();
  const show = useUi((s) => s.show);
  if (view.failed === 0) return null;
  return (
    <div className="held-warning" role="alert">
      <span>{t('order:held.text')}</span>
      <button type="button" className="button" onClick={() => show({ name: 'outbox' })}>
        {t('order:held.open')}
      </button>
    </div>
  );
}

/** Nothing left to tap: done (green), or cancelled, which is never a green tick. */
function FinishedPanel({ cancelled }: { cancelled: boolean }) {
  const { t } = useWords();
  if (cancelled)
    return (
      <div className="finished-panel finished-cancelled" data-testid="finished-panel" data-cancelled="true">
        <span aria-hidden="true">✖</span> {t('order:cancelled')}
      </div>
    );
  return (
    <div className="finished-panel" data-testid="finished-panel">
      <span aria-hidden="true">✓</span> {t('order:finished')}
    </div>
  );
}

/** New to the terminal: the service's answer to Accept brings its items. */
function AwaitingServiceCard({ view }: { view: OrderView }) {
  const { t } = useWords();
  const offline = useStatus((s) => s.sync?.connectivity === 'offline');
  const paused = useStatus((s) => (s.sync?.credentials ?? 'ok') !== 'ok');
  return (
    <section className="panel awaiting-card" data-testid="awaiting-card">
      <h2>{t('order:awaiting.title')}</h2>
      {view.failed > 0 ? (
        <p>{t('order:awaiting.refused')}</p>
      ) : view.waiting > 0 && paused ? null : view.waiting > 0 ? (
        <p>{t('order:awaiting.onItsWay')}</p>
      ) : (
        <p data-testid="awaiting-items">{offline ? t('intake:awaiting.offline') : t('intake:awaiting.online')}</p>
      )}
      {paused && view.failed === 0 && (
        <p className="awaiting-offline">
          <strong>{t('order:awaiting.pausedTitle')}</strong> {t('order:awaiting.paused')}
        </p>
      )}
      <RemoveOrder view={view} />
      {offline && !paused && view.failed === 0 && (
        <p className="awaiting-offline">
          <strong>{t('order:awaiting.offlineTitle')}</strong> {t('order:awaiting.offline')}
        </p>
      )}
    </section>
  );
}

/**
 * Items and fulfilments; changeable while the order still has steps. On an order another counter
 * holds, Change units, Cancel and the invoice say why they wait, and ask Take over before any
 * dialog opens (ClaimBanner.tsx useTakeOverFirst).
 */
function OrderBody({ view, order }: { view: OrderView; order: Order }) {
  const { t } = useWords();
  const open = view.nextStep !== null;
  const [cancelling, setCancelling] = useState(false);
  const units = useTakeOverFirst(view, t('hub:claim.whyChangeUnits'));
  const cancel = useTakeOverFirst(view, t('hub:claim.whyCancel'));
  return (
    <div className="order-body">
      <ItemList order={order} editable={open} cuts={view.cuts} beforeEdit={units.guard} held={open ? <HeldNote view={view} what={t('hub:claim.toChangeUnits')} /> : null} />
      {units.dialog}
      <div className="order-side">
        <FulfilmentList fulfilments={order.fulfillments} />
        <InvoiceForm view={view} orderId={order.id} current={invoiceOf(order)} />
        {open && (
          <div className="panel danger-zone">
            <HeldNote view={view} what={t('hub:claim.toCancel')} />
            <button type="button" className="button button-danger-outline" onClick={() => cancel.guard(() => setCancelling(true))} data-testid="cancel-order">
              {t('order:cancel.open')}
            </button>
          </div>
        )}
      </div>
      {cancel.dialog}
      {cancelling && <CancelDialog order={order} onClose={() => setCancelling(false)} />}
    </div>
  );
}
