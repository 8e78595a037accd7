/**
 * Renderer entry: finds the bridge the shell put on `window`, then starts the app. Without a
 * bridge there is no engine to talk to, so the packer sees why instead of a blank window.
 */
import { createRoot } from 'react-dom/client';
import { findBridge, setBridge } from './api';
import { App } from './App';
import { FullScreenMessage } from './components/FullScreenMessage';
import { startI18n } from './i18n';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/queue.css';
import './styles/order.css';
import './styles/panels.css';

// Marks for the benchmarks and for support: when the app's code began, and (in intents) when
// the first data arrived.
performance.mark('packdesk:script');

const container = document.getElementById('root');
// The words are bundled (no fetch), so starting i18next before the first render costs next to nothing.
if (container) void startI18n().then(() => render(container));

function render(container: HTMLElement): void {
  const root = createRoot(container);
  const api = findBridge(window);
  if (api) {
    setBridge(api);
    root.render(<App api={api} />);
  } else {
    root.render(
      <FullScreenMessage title="Packdesk cannot reach its engine">
        <p>This window was opened without the Packdesk terminal behind it, so no orders can be shown or changed.</p>
        <p>Close it and start Packdesk again. If this keeps happening, call support.</p>
      </FullScreenMessage>,
    );
  }
}
