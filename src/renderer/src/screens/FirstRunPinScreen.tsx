/**
 * First start of a terminal: before any order is shown, the manager chooses the PIN that guards
 * settings, discards and fraud cancellations. Once set, the queue appears.
 */
import { PinSetup } from '../components/settings/PinSetup';
import { useWords } from '../i18n/useWords';

export function FirstRunPinScreen() {
  const { t } = useWords();
  return (
    <main className="screen first-run-screen" aria-labelledby="first-run-title" data-testid="first-run-pin">
      <h1 id="first-run-title" className="screen-title">
        {t('shift:firstRun.title')}
      </h1>
      <p className="screen-intro">{t('shift:firstRun.intro')}</p>
      {/* PinSetup reads the app info again after saving; pinSet then turns true and the queue shows. */}
      <PinSetup onDone={() => undefined} />
    </main>
  );
}
