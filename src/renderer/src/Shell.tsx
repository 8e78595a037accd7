/**
 * The frame around every screen: training banner, top bar with the id field, the sync bar
 * (always visible), the current screen, the notice line and the undo bar; plus the listeners
 * that work everywhere (scanner, keyboard shortcuts).
 */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { ErrorBoundary } from './components/ErrorBoundary';
import { GlobalKeys } from './components/GlobalKeys';
import { NewOrderAlert } from './components/intake/NewOrderAlert';
import { NoticeLine } from './components/NoticeLine';
import { AlarmBanner, OrderAlarmSound } from './components/OrderAlarm';
import { ScannerListener } from './components/ScannerListener';
import { ScreenFocus } from './components/ScreenFocus';
import { SyncBar } from './components/SyncBar';
import { TopBar } from './components/TopBar';
import { TrainingBanner } from './components/TrainingBanner';
import { UndoBar } from './components/UndoBar';
import { InvoiceOfferDialog } from './components/order/InvoiceOfferDialog';
import { OrderScreen } from './screens/OrderScreen';
import { OutboxScreen } from './screens/OutboxScreen';
import { QueueScreen } from './screens/QueueScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { FirstRunPinScreen } from './screens/FirstRunPinScreen';
import { useStatus } from './store/status';
import { useUi } from './store/ui';

// The Shift screen and its chart library load after the queue's first render, when the page is
// idle (so the first open does not wait for 400 kB of script), never before it.
const loadShiftScreen = () => import('./screens/ShiftScreen');
const ShiftScreen = lazy(loadShiftScreen);
// The Orders search, on first use: most shifts never open it, so the queue's bundle does without it.
const SearchScreen = lazy(() => import('./screens/SearchScreen'));

export function Shell() {
  const buzzes = useUi((s) => s.buzzes);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || buzzes === 0) return;
    // Restart the shake on every refusal without re-mounting anything (forms keep their input).
    el.classList.remove('shake');
    void el.offsetWidth;
    el.classList.add('shake');
  }, [buzzes]);
  useEffect(() => {
    const idle = requestIdleCallback(() => void loadShiftScreen(), { timeout: 15_000 });
    return () => cancelIdleCallback(idle);
  }, []);
  return (
    <div className="shell" ref={ref}>
      <TrainingBanner />
      <TopBar />
      <SyncBar />
      <ErrorBoundary>
        <CurrentScreen />
      </ErrorBoundary>
      {/* Messages and the undo bar have their own strip under the screen: they never cover a control.
          A footer, so what it says between taps sits in a landmark like the rest of the page. */}
      <footer className="dock">
        <AlarmBanner />
        <NoticeLine />
        <UndoBar />
      </footer>
      <InvoiceOfferLayer />
      <ScreenFocus />
      <ScannerListener />
      <GlobalKeys />
      <NewOrderAlert />
      <OrderAlarmSound />
    </div>
  );
}

function CurrentScreen() {
  const screen = useUi((s) => s.screen);
  // No manager PIN yet: the manager sets one before the first shift, so a fraud cancel or a
  // discard never meets a terminal without one.
  const needsPin = useStatus((s) => s.info !== null && !s.info.pinSet);
  if (needsPin) return <FirstRunPinScreen />;
  switch (screen.name) {
    case 'queue':
      return <QueueScreen />;
    case 'order':
      return <OrderScreen orderId={screen.orderId} key={screen.orderId} />;
    case 'outbox':
      return <OutboxScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'shift':
      return (
        <Suspense fallback={null}>
          <ShiftScreen />
        </Suspense>
      );
    case 'search':
      return (
        <Suspense fallback={null}>
          <SearchScreen />
        </Suspense>
      );
  }
}

/** The scanned-invoice offer, while its order is the one on screen. */
function InvoiceOfferLayer() {
  const offer = useUi((s) => s.invoiceOffer);
  const screen = useUi((s) => s.screen);
  if (!offer || screen.name !== 'order' || screen.orderId !== offer.orderId) return null;
  return <InvoiceOfferDialog offer={offer} key={`${offer.orderId}:${offer.code}`} />;
}
