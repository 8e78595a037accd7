import { useWords } from '../i18n/useWords';
import { isTraining, useStatus } from '../store/status';

/** Training mode on every screen: nothing done here reaches a real customer. */
export function TrainingBanner() {
  const { t } = useWords();
  const training = useStatus(isTraining);
  if (!training) return null;
  return (
    <div className="training-banner" data-testid="training-banner" role="note">
      {t('common:training')}
    </div>
  );
}
