/** The unlocked settings: terminal behaviour, connection and credentials, updates, the terminal. */
import { useWords } from '../../i18n/useWords';
import { PrintingForm } from '../print/PrintingForm';
import { IntakeForm } from '../intake/IntakeForm';
import { ConnectionForm } from './ConnectionForm';
import { TerminalForm } from './TerminalForm';
import { TerminalPanel } from './TerminalPanel';
import { UpdatesPanel } from './UpdatesPanel';
import { CountersPanel } from '../hub/CountersPanel';
import { ChainPanel } from '../hub/ChainPanel';
import { StaffPanel } from './StaffPanel';

interface Props {
  pin: string;
  onLock: () => void;
  onPinChanged: (pin: string) => void;
}

export function SettingsPanels({ pin, onLock, onPinChanged }: Props) {
  const { t } = useWords();
  return (
    <div className="settings-panels">
      <div className="settings-lock">
        <button type="button" className="button" onClick={onLock}>
          {t('settings:lock')}
        </button>
      </div>
      <TerminalForm pin={pin} />
      <StaffPanel pin={pin} />
      <PrintingForm pin={pin} />
      <ConnectionForm pin={pin} />
      <IntakeForm pin={pin} />
      <CountersPanel pin={pin} />
      <ChainPanel pin={pin} />
      <UpdatesPanel pin={pin} />
      <TerminalPanel pin={pin} onPinChanged={onPinChanged} />
    </div>
  );
}
