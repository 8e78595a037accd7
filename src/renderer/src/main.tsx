/**
 * Renderer entry: finds the bridge the shell put on `window`, then starts the app. Without a
 * bridge there is no engine to talk to, so the packer sees why instead of a blank window.
 */
import { createRoot } from 'react-dom/client';
import { findBridge, setBridge } from './api';
import { App } from './App';
import { FullScreenMessage } from './components/FullScreenMessage';
import { PrintRoot } from './components/print/PrintRoot';
import { startI18n } from './i18n';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/queue.css';
import './styles/order.css';
import './styles/panels.css';
import './styles/print.css';
import './styles/intake.css';

// Marks for the benchmarks and for support: when the app's code began, and (in intents) when
// the first data arrived.
performance.mark('packdesk:script');

const container = document.getElementById('root');
// Components read their words synchronously, so i18next is ready before the first render.
if (container) void startI18n().finally(() => render(container));

function render(container: HTMLElement): void {
  const root = createRoot(container);
  const api = findBridge(window);
  if (api) {
    setBridge(api);
    root.render(<App api={api} />);
    // The print root lives beside #root, so print.css can hide the whole app and show only paper.
    const paper = document.body.appendChild(document.createElement('div'));
    createRoot(paper).render(<PrintRoot />);
  } else {
    root.render(
      <FullScreenMessage title="Packdesk cannot reach its engine">
        <p>This window was opened without the Packdesk terminal behind it, so no orders can be shown or changed.</p>
        <p>Close it and start Packdesk again. If this keeps happening, call support.</p>
      </FullScreenMessage>,
    );
  }
}
