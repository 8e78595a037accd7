/**
 * Top bar: the app's name, the field to type (or scan) an order number, and the way to the
 * queue, the outbox and settings.
 */
import { useUi } from '../store/ui';
import { NewOrdersBadge } from './intake/NewOrdersBadge';
import { OrderIdEntry } from './OrderIdEntry';

export function TopBar() {
  const screen = useUi((s) => s.screen.name);
  const show = useUi((s) => s.show);
  return (
    <header className="top-bar">
      <div className="brand" aria-label="Packdesk">
        Packdesk
      </div>
      <OrderIdEntry />
      <NewOrdersBadge />
      <nav className="top-nav" aria-label="Screens">
        <button type="button" className="nav-button" aria-current={screen === 'queue' ? 'page' : undefined} onClick={() => show({ name: 'queue' })}>
          Orders
        </button>
        <button type="button" className="nav-button" aria-current={screen === 'outbox' ? 'page' : undefined} onClick={() => show({ name: 'outbox' })} aria-keyshortcuts="F4">
          Outbox
        </button>
        <button type="button" className="nav-button" aria-current={screen === 'settings' ? 'page' : undefined} onClick={() => show({ name: 'settings' })} aria-keyshortcuts="F9">
          Settings
        </button>
      </nav>
    </header>
  );
}
