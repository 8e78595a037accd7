/**
 * With a store hub: another counter's claim on an order. While it is being packed there, "Being
 * packed by Ravi at Counter 1" stands in place of the big button, with the step it is at shown but
 * not offered, and "Take over" (confirmed: the claim moves and that counter is told). Once packed
 * there, the hand-over steps are anyone's: the big button offers them, and a line says where it was
 * packed. Any other step on an order held elsewhere (change units, cancel, the invoice) asks Take
 * over first, before its dialog opens. When the hub cannot be asked, a line says other counters
 * cannot be checked, and the packer goes on.
 */
import { type ReactNode, useState } from 'react';
import type { OrderView } from '../../../../shared/ipc';
import type { StepKey } from '../../../../shared/fulfilment/states';
import { formatClock } from '../../format';
import { useWords } from '../../i18n/useWords';
import { takeOver } from '../../intents';
import { actionSummary } from '../../orderFacts';
import { cannotCheckCounters, useHub } from '../../store/hub';
import { Dialog } from '../Dialog';
import { StepPill } from '../StepPill';

/** Steps that hand a packed order over: anyone's at any counter, whoever packed it. */
const HAND_OVER: ReadonlySet<StepKey> = new Set<StepKey>(['OUT_FOR_DELIVERY', 'DELIVERED', 'COMPLETE']);

/** Whether the order's next step hands it over (not packing work). */
export function handOverStep(view: Pick<OrderView, 'nextStep'>): boolean {
  return view.nextStep !== null && HAND_OVER.has(view.nextStep.key);
}

/** Another counter holds the order (its claim, as last heard). */
export function heldElsewhere(view: Pick<OrderView, 'claim'>): boolean {
  return view.claim !== undefined && !view.claim.here;
}

/** Whether another counter is packing the order: the screen shows where, and offers Take over instead of the next step. */
export function claimedElsewhere(view: Pick<OrderView, 'claim' | 'nextStep'>): boolean {
  return heldElsewhere(view) && view.nextStep !== null && !handOverStep(view);
}

/** "Ravi at Counter 1" or "Counter 1". */
function whereWords(t: ReturnType<typeof useWords>['t'], claim: NonNullable<OrderView['claim']>, packed: boolean): string {
  if (packed) return claim.packer ? t('hub:claim.packedByAt', { packer: claim.packer, counter: claim.counterName }) : t('hub:claim.packedAt', { counter: claim.counterName });
  return claim.packer ? t('hub:claim.byAt', { packer: claim.packer, counter: claim.counterName }) : t('hub:claim.at', { counter: claim.counterName });
}

/** "Take order X over?": confirmed, the claim moves here; `onDone` runs once this counter holds it. */
function TakeOverDialog({ view, why, onDone, onClose }: { view: OrderView; why?: string | undefined; onDone: () => void; onClose: () => void }) {
  const { t } = useWords();
  const counter = view.claim?.counterName ?? '';
  return (
    <Dialog
      title={t('hub:claim.confirmTitle', { orderId: view.id })}
      onClose={onClose}
      testId="take-over-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('hub:claim.keep')}
          </button>
          <button type="button" className="button button-primary" data-testid="take-over-confirm" onClick={() => void takeOver(view.id).then((done) => done && onDone())}>
            {t('hub:claim.confirm')}
          </button>
        </>
      }
    >
      {why && <p data-testid="take-over-why">{why}</p>}
      <p>{t('hub:claim.explain', { counter })}</p>
    </Dialog>
  );
}

/**
 * A step on an order another counter holds asks Take over first: `guard(run)` runs `run` at once
 * when this counter may go on, else opens the Take over question and runs it once the order is
 * here. `dialog` is that question, to be rendered beside the control.
 */
export function useTakeOverFirst(view: OrderView, why: string): { guard: (run: () => void) => void; dialog: ReactNode } {
  const [pending, setPending] = useState<{ run: () => void } | null>(null);
  const guard = (run: () => void): void => (heldElsewhere(view) ? setPending({ run }) : run());
  const dialog = pending ? (
    <TakeOverDialog
      view={view}
      why={why}
      onClose={() => setPending(null)}
      onDone={() => {
        setPending(null);
        pending.run();
      }}
    />
  ) : null;
  return { guard, dialog };
}

/** Why a control waits on an order held elsewhere, beside it: "Ravi at Counter 1 holds this order: take it over to …". */
export function HeldNote({ view, what }: { view: OrderView; what: string }) {
  const { t } = useWords();
  const claim = view.claim;
  if (!claim || claim.here) return null;
  const holder = claim.packer ? t('hub:claim.holderByAt', { packer: claim.packer, counter: claim.counterName }) : claim.counterName;
  return (
    <p className="held-note" data-testid="held-note">
      {t('hub:claim.heldNote', { holder, what })}
    </p>
  );
}

export function ClaimBanner({ view }: { view: OrderView }) {
  const { t, locale } = useWords();
  const [asking, setAsking] = useState(false);
  const claim = view.claim;
  if (!claim || claim.here || view.nextStep === null) return null;
  return (
    <div className="claim-banner" role="status" data-testid="claim-banner">
      <span className="claim-text">
        <strong>{whereWords(t, claim, false)}</strong> {t('hub:claim.since', { time: formatClock(claim.claimedAt, locale) })}
      </span>
      {/* The step it is at there, shown so the packer knows how far it got, never offered here. */}
      <span className="claim-step" data-testid="claim-step" data-step={view.nextStep.key}>
        <StepPill step={view.nextStep.key} held />
      </span>
      <button type="button" className="button button-big claim-take-over" onClick={() => setAsking(true)} data-testid="take-over">
        {t('hub:claim.takeOver')}
      </button>
      {asking && <TakeOverDialog view={view} onClose={() => setAsking(false)} onDone={() => setAsking(false)} />}
    </div>
  );
}

/** Packed at another counter that still holds it: the hand-over step is offered here (the big button); this says where it was packed. */
export function PackedElsewhere({ view }: { view: OrderView }) {
  const { t } = useWords();
  const claim = view.claim;
  if (!claim || claim.here || !handOverStep(view)) return null;
  return (
    <p className="packed-elsewhere" role="status" data-testid="packed-elsewhere">
      {whereWords(t, claim, true)}
    </p>
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
            ? t('hub:elsewhere.refused', { counter: tap.counterName, summary: tap.action ? actionSummary(t, tap.action, view.order) : tap.summary })
            : t('hub:elsewhere.waiting', { counter: tap.counterName, summary: tap.action ? actionSummary(t, tap.action, view.order) : tap.summary })}
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
