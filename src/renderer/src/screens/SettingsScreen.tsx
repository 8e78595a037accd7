/**
 * Settings, behind the manager PIN. The first time (no PIN set yet) the manager chooses one.
 * The PIN stays in this screen's memory only while it is open; every change sends it along,
 * so the engine checks it each time.
 */
import { useState } from 'react';
import { PinGate } from '../components/settings/PinGate';
import { PinSetup } from '../components/settings/PinSetup';
import { SettingsPanels } from '../components/settings/SettingsPanels';
import { useWords } from '../i18n/useWords';
import { useStatus } from '../store/status';

export function SettingsScreen() {
  const { t } = useWords();
  const pinSet = useStatus((s) => s.info?.pinSet ?? true);
  const [pin, setPin] = useState<string | null>(null);

  return (
    <main className="screen settings-screen" aria-labelledby="settings-title" data-testid="settings-screen">
      <h1 id="settings-title" className="screen-title">
        {t('common:nav.settings')}
      </h1>
      {pin !== null ? (
        <SettingsPanels pin={pin} onLock={() => setPin(null)} onPinChanged={setPin} />
      ) : pinSet ? (
        <PinGate onUnlock={setPin} />
      ) : (
        <PinSetup onDone={setPin} />
      )}
    </main>
  );
}
