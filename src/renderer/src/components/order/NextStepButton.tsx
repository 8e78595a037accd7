/**
 * The ONE big button: the order's next step as the engine says, in words, colour and a symbol.
 * After a tap it says what was done and takes no other tap for a moment, so a double tap with
 * gloves cannot run straight on into the following step.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderView } from '../../../../shared/ipc';
import type { ActionInput } from '../../../../shared/protocol/builders';
import { STEP_LABEL, type NextStep } from '../../../../shared/fulfilment/states';
import { refuse, tap } from '../../intents';
import { STEP_ICON } from '../StepPill';
import { useUi } from '../../store/ui';

/** How long the button rests after a tap: longer than any double tap, short enough not to annoy. */
export const REST_MS = 900;

type Phase = { name: 'ready' } | { name: 'sending'; label: string } | { name: 'done'; label: string };

/** The tap a next step stands for. */
function inputFor(step: NextStep): ActionInput | null {
  if (step.key === 'ACCEPT') return { kind: 'orderState', state: 'ACCEPTED' };
  if (step.key === 'COMPLETE') return { kind: 'orderState', state: 'COMPLETED' };
  if (!step.fulfilmentId) return null;
  return { kind: 'fulfilment', fulfilmentId: step.fulfilmentId, state: step.key };
}

const DONE_WORDS: Record<NextStep['key'], string> = {
  ACCEPT: 'Order accepted',
  PACKING: 'Packing started',
  PACKED: 'Marked packed',
  OUT_FOR_DELIVERY: 'Out for delivery',
  DELIVERED: 'Marked delivered',
  COMPLETE: 'Order completed', // shown through shift:step.completed
};

export function NextStepButton({ view }: { view: OrderView }) {
  const [phase, setPhase] = useState<Phase>({ name: 'ready' });
  // A ref, not state: the second click of a double tap arrives before React re-renders.
  const busy = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const step = view.nextStep;
  const focusRequests = useUi((s) => s.focusRequests);
  const { t } = useTranslation('shift');

  useEffect(() => {
    // The order was just opened (or scanned again): Enter or Space does the next step; the
    // scanner's own Enter never does (the scan listener swallows it).
    button.current?.focus();
  }, [focusRequests]);

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
      refuse('This order has no fulfilment for that step. Ask the manager to check the order.');
      return;
    }
    busy.current = true;
    setPhase({ name: 'sending', label: step.key === 'COMPLETE' ? t('step.complete') : STEP_LABEL[step.key] });
    const taken = await tap(view.id, input);
    if (taken) setPhase({ name: 'done', label: step.key === 'COMPLETE' ? t('step.completed') : DONE_WORDS[step.key] });
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
          <span className="next-step-label">{step.key === 'COMPLETE' ? t('step.complete') : step.label || STEP_LABEL[step.key]}</span>
        </>
      ) : (
        <>
          <span className="next-step-icon" aria-hidden="true">
            {phase.name === 'done' ? '✓' : '…'}
          </span>
          <span className="next-step-label">{phase.name === 'done' ? phase.label : `${phase.label}…`}</span>
        </>
      )}
    </button>
  );
}
