/**
 * The app's start, imported by main.tsx: finds the bridge the shell put on `window`, asks the engine
 * for its orders and settings at once, starts the words in the terminal's language (from those
 * settings) while the orders travel, then shows the app. Without a bridge there is no engine to talk
 * to, so the packer sees why instead of a blank window.
 */
import { createRoot } from 'react-dom/client';
import type { Settings } from '../../shared/ipc';
import type { Problem } from '../../shared/result';
import { FALLBACK_LANGUAGE, LANGUAGES } from '../../shared/languages';
import { findBridge, setBridge } from './api';
import { App } from './App';
import { FullScreenMessage } from './components/FullScreenMessage';
import { PrintRoot } from './components/print/PrintRoot';
import { warmFormats } from './format';
import { currentLocale, i18next, startI18n } from './i18n';
import { loadScriptFonts } from './i18n/fonts';
import { showOrder, start } from './intents';
import { followLanguage } from './store/language';
import { within } from './within';
import { FIRST_SCREEN } from '../../shared/firstScreen';

// Marks for the benchmarks and for support: when the app's code began, and (in intents) when
// the first data arrived.
performance.mark('packdesk:script');

/** How long the first screen waits for the terminal's language before starting in English. */
const LANGUAGE_WAIT_MS = 5_000;

/**
 * The terminal's language from its settings; English if the engine cannot say in time (the app
 * then says in words what is wrong, and switches language once the settings arrive).
 */
function terminalLanguage(settings: Promise<Settings | null>): Promise<string> {
  return within(settings.then((s) => s?.language ?? FALLBACK_LANGUAGE), LANGUAGE_WAIT_MS, FALLBACK_LANGUAGE);
}

/** Without an engine there are no settings: the browser's own language, if the terminal offers it. */
function browserLanguage(): string {
  const wanted = (navigator.language || '').slice(0, 2);
  return LANGUAGES.some((l) => l.code === wanted) ? wanted : FALLBACK_LANGUAGE;
}

async function main(options: StartOptions): Promise<void> {
  const container = document.getElementById('root');
  if (!container) return;
  const root = createRoot(container);
  const api = findBridge(window);
  if (api) {
    setBridge(api);
    // Everything at once: the orders and settings are asked for, and the script fonts load,
    // while the words wait only for the settings' language (the first paint is in it).
    void loadScriptFonts();
    const boot = start(api);
    const first: { boot: typeof boot; settled?: Problem | null } = { boot };
    void boot.ready.then(
      (problem) => (first.settled = problem),
      () => undefined,
    );
    await startI18n(await terminalLanguage(boot.settings));
    // The host drew the queue into the page (firstScreen/): the app's first render replaces it, so
    // it waits for the orders too, or a "Starting" screen would stand in for the queue a moment.
    if (container.querySelector(FIRST_SCREEN)) await within(boot.ready, LANGUAGE_WAIT_MS, null);
    followLanguage();
    // Usually the orders are still on their way: the formatters' first-use cost is paid now.
    warmFormats(currentLocale(), i18next.t, Date.now());
    root.render(<App api={api} first={first} />);
    // A row tapped in the drawing opens now, as if the app had been there.
    const tapped = options.tappedInDrawing?.();
    if (tapped)
      void boot.ready.then((problem) => {
        if (problem === null) void showOrder(tapped);
      });
    // The print root lives beside #root, so print.css can hide the whole app and show only paper.
    const paper = document.body.appendChild(document.createElement('div'));
    createRoot(paper).render(<PrintRoot />);
  } else {
    await startI18n(browserLanguage());
    const t = i18next.t;
    root.render(
      <FullScreenMessage title={t('common:app.noEngine.title')}>
        <p>{t('common:app.noEngine.why')}</p>
        <p>{t('common:app.noEngine.todo')}</p>
      </FullScreenMessage>,
    );
  }
}

/** What main.tsx hands the app as it starts it. */
export interface StartOptions {
  /** The order a packer tapped in the host's drawing of the queue before the app was up, if any (read once, at the first render). */
  readonly tappedInDrawing?: () => string | null;
}

/** Starts the app in the page (main.tsx calls it once). */
export function startApp(options: StartOptions = {}): void {
  void main(options);
}
