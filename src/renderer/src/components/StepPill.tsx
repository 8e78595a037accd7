/** An order's next step as a coloured pill with its words; colour is never the only signal. */
import type { StepKey } from '../../../shared/fulfilment/states';
import { useWords } from '../i18n/useWords';
import { STEP_LABEL_KEY } from '../i18n/words';

export const STEP_ICON: Record<StepKey, string> = {
  ACCEPT: '✔',
  PACKING: '▣',
  PACKED: '■',
  OUT_FOR_DELIVERY: '➜',
  DELIVERED: '⌂',
  COMPLETE: '★',
};

/**
 * `held`: another counter is packing the order, so its step is shown (how far it got) but is not
 * this counter's to take: greyed, and said so in words.
 */
export function StepPill({ step, waitingForDetails = false, held = false }: { step: StepKey | null; waitingForDetails?: boolean; held?: boolean }) {
  const { t } = useWords();
  if (waitingForDetails)
    return (
      <span className="step-pill step-DONE">
        <span className="step-pill-caption">{t('common:steps.next')}</span>
        {t('common:steps.waitForService')}
      </span>
    );
  if (step === null)
    return (
      <span className="step-pill step-DONE">
        <span className="step-pill-caption">{t('common:steps.next')}</span>
        {t('common:steps.nothingLeft')}
      </span>
    );
  return (
    <span className={held ? 'step-pill step-held' : `step-pill step-${step}`} data-held={held ? 'true' : undefined}>
      <span className="step-pill-caption">{held ? t('hub:claim.stepThere') : t('common:steps.next')}</span>
      <span>
        <span aria-hidden="true">{STEP_ICON[step]}</span> {t(STEP_LABEL_KEY[step])}
      </span>
    </span>
  );
}
