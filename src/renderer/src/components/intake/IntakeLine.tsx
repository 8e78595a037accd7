/** The sync bar's word on intake: when orders were last checked, and plainly when they cannot be. */
import { useTranslation } from 'react-i18next';
import { formatAge, formatClock } from '../../format/time';
import { useStatus } from '../../store/status';

export function IntakeLine({ now }: { now: number }) {
  const { t } = useTranslation('intake');
  const intake = useStatus((s) => s.intake);
  const offline = useStatus((s) => s.sync?.connectivity === 'offline');
  if (!intake) return null;
  const last = intake.lastCompleteAt;
  const clock = last === null ? '' : formatClock(last);
  let text: string;
  let problem = true;
  if (intake.condition === 'noAccess') text = t('syncBar.noAccess');
  else if (intake.condition === 'notConfigured') text = t('syncBar.notConfigured');
  else if (offline || intake.condition === 'offline') text = last === null ? t('syncBar.offlineNever') : t('syncBar.offline', { clock });
  else if (intake.condition === 'retrying' && last !== null) text = t('syncBar.retrying', { clock });
  else {
    problem = false;
    text = last === null ? t('syncBar.neverChecked') : t('syncBar.checked', { clock, age: formatAge(last, now) });
  }
  return (
    <span className={problem ? 'sync-item sync-problem' : 'sync-item'} data-testid="sync-intake" title={intake.message ?? undefined}>
      {text}
    </span>
  );
}
