import { useTranslation } from 'react-i18next';
import { isTraining, useStatus } from '../store/status';

/** Training mode on every screen: nothing done here reaches a real customer. */
export function TrainingBanner() {
  const training = useStatus(isTraining);
  const { t } = useTranslation('shift');
  if (!training) return null;
  // A labelled landmark of its own, so a screen reader finds it with the rest of the page's parts.
  return (
    <aside className="training-banner" data-testid="training-banner" aria-label={t('training.landmark')}>
      TRAINING — practice orders only, nothing reaches real customers
    </aside>
  );
}
