/** An order's next step as a coloured pill with its words; colour is never the only signal. */
import { useTranslation } from 'react-i18next';
import { STEP_LABEL, type StepKey } from '../../../shared/fulfilment/states';

export const STEP_ICON: Record<StepKey, string> = {
  ACCEPT: '✔',
  PACKING: '▣',
  PACKED: '■',
  OUT_FOR_DELIVERY: '➜',
  DELIVERED: '⌂',
  COMPLETE: '★',
};

export function StepPill({ step, waitingForDetails = false }: { step: StepKey | null; waitingForDetails?: boolean }) {
  const { t } = useTranslation('shift');
  if (waitingForDetails)
    return (
      <span className="step-pill step-DONE">
        <span className="step-pill-caption">Next</span>
        Wait for the service
      </span>
    );
  if (step === null)
    return (
      <span className="step-pill step-DONE">
        <span className="step-pill-caption">Next</span>
        Nothing left
      </span>
    );
  return (
    <span className={`step-pill step-${step}`}>
      <span className="step-pill-caption">Next</span>
      <span>
        <span aria-hidden="true">{STEP_ICON[step]}</span> {step === 'COMPLETE' ? t('step.complete') : STEP_LABEL[step]}
      </span>
    </span>
  );
}
