/**
 * The frame around every screen: training banner, top bar with the id field, the sync bar
 * (always visible), the current screen, the notice line and the undo bar; plus the listeners
 * that work everywhere (scanner, keyboard shortcuts).
 */
import { lazy, Suspense, useEffect, useReducer, useRef, useState, type ComponentType } from 'react';
import { ErrorBoundary } from './components/ErrorBoundary';
import { GlobalKeys } from './components/GlobalKeys';
import { NewOrderAlert } from './components/intake/NewOrderAlert';
import { NoticeLine } from './components/NoticeLine';
import { AlarmBanner, OrderAlarmSound } from './components/OrderAlarm';
import { StoreAlarmLines } from './components/hub/StoreAlarmLines';
import { ScannerListener } from './components/ScannerListener';
import { ScreenFocus } from './components/ScreenFocus';
import { SyncBar } from './components/SyncBar';
import { TopBar } from './components/TopBar';
import { TrainingBanner } from './components/TrainingBanner';
import { UndoBar } from './components/UndoBar';
import { InvoiceOfferDialog } from './components/order/InvoiceOfferDialog';
import { loadOtherLanguages } from './i18n';
import { QueueScreen } from './screens/QueueScreen';
import { useStatus } from './store/status';
import { useUi } from './store/ui';

// Only the queue is in the script the first screen waits for. Every other screen is a module of
// its own, loaded once the queue's first render is done, when the page is idle (so opening one
// does not wait for its script), never before it: the page parses and compiles less before its
// first rows. The Shift screen brings its chart library (400 kB).
const loadShiftScreen = () => import('./screens/ShiftScreen');
const ShiftScreen = lazy(loadShiftScreen);
// The Orders search, on first use: most shifts never open it, so neither the queue's bundle nor the idle loading brings it.
const SearchScreen = lazy(() => import('./screens/SearchScreen'));
const order = later(() => import('./screens/OrderScreen').then((m) => m.OrderScreen));
const outbox = later(() => import('./screens/OutboxScreen').then((m) => m.OutboxScreen));
const settings = later(() => import('./screens/SettingsScreen').then((m) => m.SettingsScreen));
const firstRunPin = later(() => import('./screens/FirstRunPinScreen').then((m) => m.FirstRunPinScreen));
const OrderScreen = order.Screen;
const OutboxScreen = outbox.Screen;
const SettingsScreen = settings.Screen;
const FirstRunPinScreen = firstRunPin.Screen;
/** The screens after the queue, the one a packer opens first (an order) first; then the other languages' words. */
const LATER_SCREENS = [order.load, outbox.load, settings.load, firstRunPin.load, loadShiftScreen, loadOtherLanguages];

/**
 * A screen in a module of its own. Once its module is in (loaded when the page is idle), it draws
 * at once, as if it were in the main script; one opened before that draws nothing until its module
 * is in, then itself, once (never swapped for another component later, which would mount it
 * again and lose its state). A module that cannot be loaded is said by the ErrorBoundary, and
 * asked for again at the next open.
 */
function later<P extends object>(importScreen: () => Promise<ComponentType<P>>): { load: () => Promise<unknown>; Screen: ComponentType<P> } {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const load = (): Promise<ComponentType<P>> =>
    (loading ??= importScreen().then(
      (screen) => (loaded = screen),
      (err: unknown) => {
        loading = null;
        throw err;
      },
    ));
  const Screen = (props: P) => {
    const [failed, setFailed] = useState<unknown>(null);
    const [, drawAgain] = useReducer((n: number) => n + 1, 0);
    useEffect(() => {
      if (!loaded) load().then(drawAgain, (err: unknown) => setFailed(() => err));
    }, []);
    if (failed) throw failed;
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : null;
  };
  return { load, Screen };
}

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
    const idle = requestIdleCallback(() => LATER_SCREENS.forEach((load) => void load().catch(() => undefined)), { timeout: 15_000 });
    return () => cancelIdleCallback(idle);
  }, []);
  return (
    <div className="shell" ref={ref}>
      <TrainingBanner />
      <TopBar />
      <SyncBar />
      <ErrorBoundary>
        <Suspense fallback={null}>
          <CurrentScreen />
        </Suspense>
      </ErrorBoundary>
      {/* Messages and the undo bar have their own strip under the screen: they never cover a control.
          A footer, so what it says between taps sits in a landmark like the rest of the page. */}
      <footer className="dock">
        <StoreAlarmLines />
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
      return <ShiftScreen />;
    case 'search':
      return <SearchScreen />;
  }
}

/** The scanned-invoice offer, while its order is the one on screen. */
function InvoiceOfferLayer() {
  const offer = useUi((s) => s.invoiceOffer);
  const screen = useUi((s) => s.screen);
  if (!offer || screen.name !== 'order' || screen.orderId !== offer.orderId) return null;
  return <InvoiceOfferDialog offer={offer} key={`${offer.orderId}:${offer.code}`} />;
}
