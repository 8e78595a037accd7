/**
 * Top bar: the app's name, the field to type (or scan) an order number, the way to the queue,
 * the outbox and settings, and the one-tap language switch for the packer's shift.
 */
import { useWords } from '../i18n/useWords';
import { LanguageSwitch } from './LanguageSwitch';
import { useUi } from '../store/ui';
import { NewOrdersBadge } from './intake/NewOrdersBadge';
import { OrderIdEntry } from './OrderIdEntry';
import { PackerChip } from './staff/PackerChip';

export function TopBar() {
  const { t } = useWords();
  const screen = useUi((s) => s.screen.name);
  const show = useUi((s) => s.show);
  return (
    <header className="top-bar">
      <div className="brand" aria-label="Packdesk">
        Packdesk
      </div>
      <OrderIdEntry />
      <NewOrdersBadge />
      <PackerChip />
      <nav className="top-nav" aria-label={t('common:nav.label')}>
        <button type="button" className="nav-button" aria-current={screen === 'queue' ? 'page' : undefined} onClick={() => show({ name: 'queue' })}>
          {t('common:nav.orders')}
        </button>
        <button type="button" className="nav-button" aria-current={screen === 'outbox' ? 'page' : undefined} onClick={() => show({ name: 'outbox' })} aria-keyshortcuts="F4">
          {t('common:nav.outbox')}
        </button>
        <button type="button" className="nav-button" aria-current={screen === 'settings' ? 'page' : undefined} onClick={() => show({ name: 'settings' })} aria-keyshortcuts="F9">
          {t('common:nav.settings')}
        </button>
        <button type="button" className="nav-button" aria-current={screen === 'shift' ? 'page' : undefined} onClick={() => show({ name: 'shift' })} data-testid="nav-shift">
          {t('shiftReport:nav')}
        </button>
      </nav>
      <LanguageSwitch />
    </header>
  );
}
