/**
 * The undo offer for the latest tap, counting down the undo window. The engine holds the tap
 * until the window ends, so Undo inside it means nothing is sent. Between taps its strip says
 * where Undo will appear (the strip keeps its height, so nothing moves under a finger).
 */
import { useEffect } from 'react';
import { secondsLeft } from '../format';
import { useWords } from '../i18n/useWords';
import { actionSummary } from '../orderFacts';
import { useOrders } from '../store/orders';
import { useClockValue } from '../hooks/useNow';
import { undo } from '../intents';
import { type UndoOffer, useUi } from '../store/ui';

export function UndoBar() {
  const { t } = useWords();
  const offer = useUi((s) => s.undo);
  if (!offer) return <p className="dock-hint">{t('common:undo.hint')}</p>;
  // Keyed: a new offer starts its own count.
  return <OfferCountdown key={offer.entryId} offer={offer} />;
}

/**
 * The offer itself, on a clock read five times a second and drawn again only when the seconds shown
 * change. Mounted only while there is an offer: between taps no clock runs for it (an idle
 * terminal's page woke five times a second for nothing).
 */
function OfferCountdown({ offer }: { offer: UndoOffer }) {
  const { t } = useWords();
  const order = useOrders((s) => s.views.get(offer.orderId)?.order ?? null);
  const left = useClockValue(200, (now) => secondsLeft(offer.sendAfter, now));

  useEffect(() => {
    // Window over: the tap is on its way and can no longer be taken back here.
    if (left === 0) useUi.getState().offerUndo(null);
  }, [left]);

  if (left === 0) return <p className="dock-hint">{t('common:undo.hint')}</p>;
  return (
    <div className="undo-bar" data-testid="undo-bar" role="status">
      <span className="undo-text">
        <strong>{actionSummary(t, offer.action, order)}</strong> <span className="undo-order">· {offer.orderId}</span>
      </span>
      <button type="button" className="button undo-button" onClick={() => void undo(offer.entryId)} aria-keyshortcuts="Control+Z">
        {t('common:undo.button')} <span className="undo-seconds">{t('common:undo.seconds', { count: left })}</span>
      </button>
    </div>
  );
}
