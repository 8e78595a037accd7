/**
 * With a store hub: "Being packed at Counter 1" in place of the big button when another counter
 * holds the order, with "Take over" (confirmed: the claim moves and that counter is told). When the
 * hub cannot be asked, a line says other counters cannot be checked, and the packer goes on.
 */
import { useState } from 'react';
import type { OrderView } from '../../../../shared/ipc';
import { formatClock } from '../../format';
import { useWords } from '../../i18n/useWords';
import { takeOver } from '../../intents';
import { cannotCheckCounters, useHub } from '../../store/hub';
import { Dialog } from '../Dialog';

/** Whether another counter holds the order: the screen offers Take over instead of the next step. */
export function claimedElsewhere(view: OrderView): boolean {
  return view.claim !== undefined && !view.claim.here && view.nextStep !== null;
}

export function ClaimBanner({ view }: { view: OrderView }) {
  const { t, locale } = useWords();
  const [asking, setAsking] = useState(false);
  const claim = view.claim;
  if (!claim || claim.here || view.nextStep === null) return null;
  const where = claim.packer ? t('hub:claim.byAt', { packer: claim.packer, counter: claim.counterName }) : t('hub:claim.at', { counter: claim.counterName });
  return (
    <div className="claim-banner" role="status" data-testid="claim-banner">
      <span className="claim-text">
        <strong>{where}</strong> {t('hub:claim.since', { time: formatClock(claim.claimedAt, locale) })}
      </span>
      <button type="button" className="button button-big claim-take-over" onClick={() => setAsking(true)} data-testid="take-over">
        {t('hub:claim.takeOver')}
      </button>
      {asking && (
        <Dialog
          title={t('hub:claim.confirmTitle', { orderId: view.id })}
          onClose={() => setAsking(false)}
          testId="take-over-dialog"
          actions={
            <>
              <button type="button" className="button" onClick={() => setAsking(false)}>
                {t('hub:claim.keep')}
              </button>
              <button
                type="button"
                className="button button-primary"
                data-testid="take-over-confirm"
                onClick={() => void takeOver(view.id).then((done) => done && setAsking(false))}
              >
                {t('hub:claim.confirm')}
              </button>
            </>
          }
        >
          <p>{t('hub:claim.explain', { counter: claim.counterName })}</p>
        </Dialog>
      )}
    </div>
  );
}

/** Other counters' taps on this order that are not sent yet, and a word when other counters cannot be checked. */
export function ElsewhereLines({ view }: { view: OrderView }) {
  const { t } = useWords();
  const unchecked = useHub((s) => cannotCheckCounters(s.status));
  const taps = view.elsewhere ?? [];
  if (taps.length === 0 && !(unchecked && view.nextStep !== null)) return null;
  return (
    <ul className="elsewhere-lines" data-testid="elsewhere-lines">
      {taps.map((tap) => (
        <li key={`${tap.counterName}-${tap.queuedAt}`} className={tap.state === 'failed' ? 'elsewhere-failed' : 'elsewhere-waiting'}>
          <span aria-hidden="true">{tap.state === 'failed' ? '⚠' : '⟳'}</span>{' '}
          {tap.state === 'failed'
            ? t('hub:elsewhere.refused', { counter: tap.counterName, summary: tap.summary })
            : t('hub:elsewhere.waiting', { counter: tap.counterName, summary: tap.summary })}
        </li>
      ))}
      {unchecked && view.nextStep !== null && (
        <li className="elsewhere-unchecked" data-testid="claims-unchecked">
          {t('hub:elsewhere.unchecked')}
        </li>
      )}
    </ul>
  );
}
