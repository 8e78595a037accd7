/**
 * First start of a terminal: before any order is shown, the manager chooses the PIN that guards
 * settings, discards and fraud cancellations. Once set, the queue appears.
 */
import { useTranslation } from 'react-i18next';
import { PinSetup } from '../components/settings/PinSetup';

export function FirstRunPinScreen() {
  const { t } = useTranslation('shift');
  return (
    <main className="screen first-run-screen" aria-labelledby="first-run-title" data-testid="first-run-pin">
      <h1 id="first-run-title" className="screen-title">
        {t('firstRun.title')}
      </h1>
      <p className="screen-intro">{t('firstRun.intro')}</p>
      {/* PinSetup reads the app info again after saving; pinSet then turns true and the queue shows. */}
      <PinSetup onDone={() => undefined} />
    </main>
  );
}
