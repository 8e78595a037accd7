import { isTraining, useStatus } from '../store/status';

/** Training mode on every screen: nothing done here reaches a real customer. */
export function TrainingBanner() {
  const training = useStatus(isTraining);
  if (!training) return null;
  return (
    <div className="training-banner" data-testid="training-banner" role="note">
      TRAINING — practice orders only, nothing reaches real customers
    </div>
  );
}
