/** The sync bar's word on intake: when orders were last checked, and plainly when they cannot be. */
import { formatClock } from '../../format/time';
import { useAge } from '../../hooks/useAge';
import { useStatus } from '../../store/status';
import { useWords } from '../../i18n/useWords';
import { useHub } from '../../store/hub';

export function IntakeLine() {
  const { t, locale } = useWords();
  const intake = useStatus((s) => s.intake);
  // To the minute: orders are checked every 30 s, so by the second this line would change all day.
  const checkedAt = intake?.lastCompleteAt ?? null;
  const age = useAge(checkedAt, t, 'minute');
  const offline = useStatus((s) => s.sync?.connectivity === 'offline');
  // With a store hub, another counter may take in orders for the store: this one's own checks then rest.
  const elsewhere = useHub((s) => (s.status?.mode === 'connected' && s.status.intakeHolder && s.status.intakeHolder.counterId !== s.status.counterId ? s.status.intakeHolder.counterName : null));
  // Whether that counter reaches the order service, as its presence says: every counter tells the same story.
  const holderAway = useHub((s) => {
    const holder = s.status?.intakeHolder;
    return holder ? s.status?.counters.find((c) => c.counterId === holder.counterId)?.online === false : false;
  });
  if (elsewhere !== null && (offline || holderAway))
    return (
      <span className="sync-item sync-problem" data-testid="sync-intake" data-hub="elsewhere-away">
        {t('hub:intakeElsewhereAway', { counter: elsewhere })}
      </span>
    );
  if (elsewhere !== null)
    return (
      <span className="sync-item" data-testid="sync-intake" data-hub="elsewhere">
        {t('hub:intakeElsewhere', { counter: elsewhere })}
      </span>
    );
  if (!intake) return null;
  const last = intake.lastCompleteAt;
  const clock = last === null ? '' : formatClock(last, locale);
  let text: string;
  let problem = true;
  if (intake.condition === 'noAccess') text = t('intake:syncBar.noAccess');
  else if (intake.condition === 'notConfigured') text = t('intake:syncBar.notConfigured');
  else if (intake.condition === 'storage') text = t('intake:syncBar.storage');
  else if (offline || intake.condition === 'offline') text = last === null ? t('intake:syncBar.offlineNever') : t('intake:syncBar.offline', { clock });
  else if (intake.condition === 'retrying' && intake.catchingUp) {
    // A backlog being read (back after a long outage): orders keep arriving, nothing is wrong.
    problem = false;
    text = t('intake:syncBar.catchingUp');
  } else if (intake.condition === 'retrying' && last !== null) text = t('intake:syncBar.retrying', { clock });
  else {
    problem = false;
    text = last === null ? t('intake:syncBar.neverChecked') : t('intake:syncBar.checked', { clock, age });
  }
  // Orders listed by the service but not stored yet: counted until they are, never passed over in silence.
  if (intake.stillToFetch > 0) {
    problem = true;
    text = `${text} · ${t('intake:syncBar.stillToFetch', { count: intake.stillToFetch })}`;
  }
  return (
    <span className={problem ? 'sync-item sync-problem' : 'sync-item'} data-testid="sync-intake" title={intake.message ?? undefined}>
      {text}
    </span>
  );
}
