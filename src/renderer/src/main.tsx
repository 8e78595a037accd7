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
import './styles/intake.css';

// Marks for the benchmarks and for support: when the app's code began, and (in intents) when
// the first data arrived.
performance.mark('packdesk:script');

const container = document.getElementById('root');
if (container) {
  const root = createRoot(container);
  const api = findBridge(window);
  if (api) {
    setBridge(api);
    // The words load from bundled files (no network), so this is quick; render once they are ready.
    void startI18n().finally(() => root.render(<App api={api} />));
  } else {
    root.render(
      <FullScreenMessage title="Packdesk cannot reach its engine">
        <p>This window was opened without the Packdesk terminal behind it, so no orders can be shown or changed.</p>
        <p>Close it and start Packdesk again. If this keeps happening, call support.</p>
      </FullScreenMessage>,
    );
  }
}
