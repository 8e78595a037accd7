/**
 * The ONE big button: the order's next step as the engine says, in words, colour and a symbol.
 * After a tap it says what was done and takes no other tap for a moment, so a double tap with
 * gloves cannot run straight on into the following step.
 */
import { useEffect, useRef, useState } from 'react';
import type { OrderView } from '../../../../shared/ipc';
import type { ActionInput } from '../../../../shared/protocol/builders';
import type { NextStep } from '../../../../shared/fulfilment/states';
import { useWords } from '../../i18n/useWords';
import { STEP_LABEL_KEY } from '../../i18n/words';
import { refuse, tap } from '../../intents';
import { STEP_ICON } from '../StepPill';
import { useUi } from '../../store/ui';
import { loadPack, packsByScan, unscanned } from '../../packing/intents';
import { usePacking } from '../../packing/store';
import { textFieldOf } from '../../scanner/fieldScan';

/** How long the button rests after a tap: longer than any double tap, short enough not to annoy. */
export const REST_MS = 900;

/**
 * The last focus request (the order opened, or scanned again) a big button took the focus for. A
 * button drawn anew with no new request (the order's view read again: after the harness's socket
 * came back, every view is) is the same screen, not a new one.
 */
let focusTaken = 0;

type Phase = { name: 'ready' } | { name: 'sending'; step: NextStep['key'] } | { name: 'done'; step: NextStep['key'] };

/** The tap a next step stands for. */
function inputFor(step: NextStep): ActionInput | null {
  if (step.key === 'ACCEPT') return { kind: 'orderState', state: 'ACCEPTED' };
  if (step.key === 'COMPLETE') return { kind: 'orderState', state: 'COMPLETED' };
  if (!step.fulfilmentId) return null;
  return { kind: 'fulfilment', fulfilmentId: step.fulfilmentId, state: step.key };
}

const DONE_KEY: Record<NextStep['key'], string> = {
  ACCEPT: 'common:steps.done.ACCEPT',
  PACKING: 'common:steps.done.PACKING',
  PACKED: 'common:steps.done.PACKED',
  OUT_FOR_DELIVERY: 'common:steps.done.OUT_FOR_DELIVERY',
  DELIVERED: 'common:steps.done.DELIVERED',
  COMPLETE: 'common:steps.done.COMPLETE',
};

export function NextStepButton({ view }: { view: OrderView }) {
  const { t } = useWords();
  const [phase, setPhase] = useState<Phase>({ name: 'ready' });
  // A ref, not state: the second click of a double tap arrives before React re-renders.
  const busy = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const step = view.nextStep;
  const focusRequests = useUi((s) => s.focusRequests);

  useEffect(() => {
    // The order was just opened (or scanned again): Enter or Space does the next step; the
    // scanner's own Enter never does (the scan listener swallows it).
    const asked = focusRequests !== focusTaken;
    focusTaken = focusRequests;
    // Drawn again while someone types in a field (the find field): the rest of their keys stay
    // there; taken away, they would land outside it and be read as a scan.
    if (!asked && textFieldOf(document.activeElement)) return;
    button.current?.focus();
  }, [focusRequests]);

  // The units Mark packed asked about were all cut (UnscannedDialog): Mark packed goes on, once.
  const packAfterCut = usePacking((s) => (s.packAfterCut?.orderId === view.id ? s.packAfterCut.n : 0));
  const goOn = useRef(packAfterCut);
  useEffect(() => {
    if (packAfterCut === goOn.current) return;
    goOn.current = packAfterCut;
    if (step?.key === 'PACKED') void onTap();
  });

  useEffect(() => {
    if (phase.name !== 'done') return;
    const t = setTimeout(() => {
      busy.current = false;
      setPhase({ name: 'ready' });
    }, REST_MS);
    return () => clearTimeout(t);
  }, [phase]);

  if (!step) return null;

  const onTap = async () => {
    if (busy.current) return;
    const input = inputFor(step);
    if (!input) {
      refuse((t) => t('common:refusals.noFulfilment'));
      return;
    }
    // Scan to pack: Mark packed with units still unscanned asks first (scan the rest, or cut them).
    if (step.key === 'PACKED' && view.order && packsByScan(view)) {
      await loadPack(view.id);
      if (unscanned(view.order).length > 0) {
        usePacking.getState().ask({ kind: 'unscanned', orderId: view.id });
        return;
      }
    }
    busy.current = true;
    setPhase({ name: 'sending', step: step.key });
    const taken = await tap(view.id, input);
    if (taken) setPhase({ name: 'done', step: step.key });
    else {
      busy.current = false;
      setPhase({ name: 'ready' });
    }
  };

  const resting = phase.name !== 'ready';
  return (
    <button
      ref={button}
      type="button"
      className={resting ? 'next-step next-step-resting' : `next-step step-${step.key}`}
      onClick={() => void onTap()}
      aria-disabled={resting}
      data-testid="next-step"
      data-step={resting ? 'resting' : step.key}
    >
      {phase.name === 'ready' ? (
        <>
          <span className="next-step-icon" aria-hidden="true">
            {STEP_ICON[step.key]}
          </span>
          <span className="next-step-label">{t(STEP_LABEL_KEY[step.key])}</span>
        </>
      ) : (
        <>
          <span className="next-step-icon" aria-hidden="true">
            {phase.name === 'done' ? '✓' : '…'}
          </span>
          <span className="next-step-label">{phase.name === 'done' ? t(DONE_KEY[phase.step]) : `${t(STEP_LABEL_KEY[phase.step])}…`}</span>
        </>
      )}
    </button>
  );
}
