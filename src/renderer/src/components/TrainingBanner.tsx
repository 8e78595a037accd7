import { useWords } from '../i18n/useWords';
import { isTraining, useStatus } from '../store/status';

/** Training mode on every screen: nothing done here reaches a real customer. */
export function TrainingBanner() {
  const { t } = useWords();
  const training = useStatus(isTraining);
  if (!training) return null;
  // A labelled landmark of its own, so a screen reader finds it with the rest of the page's parts.
  return (
    <aside className="training-banner" data-testid="training-banner" aria-label={t('shift:training.landmark')}>
      {t('common:training')}
    </aside>
  );
}
