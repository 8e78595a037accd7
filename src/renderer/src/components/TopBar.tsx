/**
 * Top bar: the app's name, the field to type (or scan) an order number, the way to the queue,
 * the outbox and settings, and the one-tap language switch for the packer's shift.
 */
import { useRef } from 'react';
import { useWords } from '../i18n/useWords';
import { LanguageSwitch } from './LanguageSwitch';
import { useUi, type Screen } from '../store/ui';
import { NewOrdersBadge } from './intake/NewOrdersBadge';
import { OrderIdEntry } from './OrderIdEntry';
import { PackerChip } from './staff/PackerChip';

/** The screens a manager opens more than a packer does: in the bar on a wide screen, behind "More" up to 1400 px (topbar.css). */
const LESS_USED = [
  { name: 'outbox', words: 'common:nav.outbox', keys: 'F4' },
  { name: 'settings', words: 'common:nav.settings', keys: 'F9' },
  { name: 'shift', words: 'shiftReport:nav', keys: undefined },
] as const;

export const MORE_MENU_ID = 'nav-more-menu';

export function TopBar() {
  const { t } = useWords();
  const screen = useUi((s) => s.screen.name);
  const show = useUi((s) => s.show);
  const menu = useRef<HTMLDivElement>(null);
  const open = (name: (typeof LESS_USED)[number]['name']) => {
    menu.current?.hidePopover();
    show({ name } as Screen);
  };
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
        {LESS_USED.map((s) => (
          <ScreenButton key={s.name} screen={s} current={screen === s.name} className="nav-button nav-wide" testId={`nav-${s.name}`} onClick={() => show({ name: s.name })} />
        ))}
        {/* Up to 1400 px wide the three share one button, so the bar keeps one row with a packer
            signed in and new orders waiting (on a 1024 or 1366 px counter screen). */}
        <button
          type="button"
          className="nav-button nav-more"
          popoverTarget={MORE_MENU_ID}
          aria-current={LESS_USED.some((s) => s.name === screen) ? 'page' : undefined}
          data-testid="nav-more"
        >
          <span aria-hidden="true">☰</span> {t('common:nav.more')}
        </button>
        <div id={MORE_MENU_ID} popover="auto" className="nav-menu" ref={menu} data-testid="nav-more-menu">
          {LESS_USED.map((s) => (
            <ScreenButton key={s.name} screen={s} current={screen === s.name} className="nav-button" testId={`nav-more-${s.name}`} onClick={() => open(s.name)} />
          ))}
        </div>
      </nav>
      <LanguageSwitch />
    </header>
  );
}

/** One of the screens a manager opens: in the bar, or in the More menu. */
function ScreenButton({ screen, current, className, testId, onClick }: { screen: (typeof LESS_USED)[number]; current: boolean; className: string; testId: string; onClick: () => void }) {
  const { t } = useWords();
  return (
    <button type="button" className={className} aria-current={current ? 'page' : undefined} onClick={onClick} aria-keyshortcuts={screen.keys} data-testid={testId}>
      {t(screen.words)}
    </button>
  );
}
