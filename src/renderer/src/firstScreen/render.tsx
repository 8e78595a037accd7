/**
 * The queue's first screen drawn by the host, into the page's HTML (the SSR build of this module:
 * build/first-screen.config.mts -> out/first-screen/render.cjs, loaded by main/core/ui/firstScreen.ts).
 * The browser paints it as soon as the HTML and the style sheet are in, before any of the app's
 * script has run; the app's first render then replaces it (main.tsx waits for its data, so what
 * replaces it is the same queue, live). Same components, same stores, same words as the app: the
 * host's answers to the commands the app asks first go into the stores, and the shell is drawn to
 * a string.
 *
 * Only the queue is drawn this way: a terminal without a manager PIN (the first-run screen) or an
 * engine that cannot answer gets the page as built, and the app draws as it always did.
 */
import { renderToString } from 'react-dom/server';
import type { PackdeskApi } from '../../../shared/ipc';
import { FALLBACK_LANGUAGE } from '../../../shared/languages';
import { ROW_HEIGHT } from '../queue/rows';
import { i18next, intlLocale, isLanguageCode, showLanguage, startI18n } from '../i18n';
import { needsScriptFonts } from '../i18n/fonts';
import { Shell } from '../Shell';
import { useHub } from '../store/hub';
import { useNewOrders } from '../store/newOrders';
import { useOrders } from '../store/orders';
import { useOutbox } from '../store/outbox';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import { usePacker } from '../staff/store';
import { readShellStatus } from '../intents';
import { usePickSelection } from '../print/selection';
import { windowHeight } from '../viewport';
import { FIRST_SCREEN_CLASS } from '../../../shared/firstScreen';

/** What the page's HTML gets: the shell's markup for inside #root, and the page's language. */
export interface FirstScreen {
  /** The markup, wrapped in `<div class="first-screen">` (styled by queue.css until the app replaces it). */
  readonly html: string;
  /** The Intl locale for `<html lang>`: the fonts and a screen reader follow it. */
  readonly lang: string;
  /** Whether its words need the shipped script fonts (i18n/fonts.ts), the language buttons aside. */
  readonly scriptFonts: boolean;
}

/** The host's command handler, as the page's bridge offers it. */
export type Ask = PackdeskApi['invoke'];

/** A store as far as putting it back to its start goes. */
interface Resettable {
  getInitialState(): unknown;
  setState(state: never, replace: true): void;
}

/** Every store the shell's first screen reads, each put back to its start before a drawing. */
const STORES: readonly Resettable[] = [useStatus, useHub, useOrders, useOutbox, useNewOrders, useUi, usePacker, usePickSelection];

/** One drawing at a time: the stores are this module's, shared by every call. */
let queue: Promise<unknown> = Promise.resolve();

export function renderFirstScreen(ask: Ask): Promise<FirstScreen | null> {
  const drawn = queue.then(() => draw(ask));
  queue = drawn.catch(() => undefined);
  return drawn;
}

async function draw(ask: Ask): Promise<FirstScreen | null> {
  // Drawings run one at a time (renderFirstScreen), so the stores are this drawing's until its string is made.
  for (const store of STORES) store.setState(store.getInitialState() as never, true);
  const shell = Promise.all(readShellStatus(ask));
  const [settings, head, info] = await Promise.all([
    ask('settings.get', {}),
    ask('orders.head', { rows: Math.ceil(windowHeight() / ROW_HEIGHT) }),
    ask('app.info', {}),
  ]);
  await shell;
  // The app shows a start problem or the first-run PIN screen itself; those are not the queue.
  if (!settings.ok || !head.ok || !info.ok || !info.value.pinSet) return null;
  const language = isLanguageCode(settings.value.language) ? settings.value.language : FALLBACK_LANGUAGE;
  await (i18next.isInitialized ? showLanguage(language) : startI18n(language));
  useStatus.getState().setSettings(settings.value);
  useStatus.getState().setInfo(info.value);
  useOrders.getState().replaceHead(head.value);

  const markup = renderToString(<Shell />);
  const html = withoutStyleAttributes(markup);
  return { html: `<div class="${FIRST_SCREEN_CLASS}" aria-busy="true">${html}</div>`, lang: intlLocale(language), scriptFonts: needsScriptFonts(withoutLanguageButtons(html)) };
}

/**
 * The markup without the language buttons (LanguageSwitch: each language's name in its own
 * script): they alone do not make a drawing need the shipped fonts preloaded. Their face is asked
 * for at the first layout and comes a moment after the queue (core/ui/firstScreen.ts).
 */
export function withoutLanguageButtons(markup: string): string {
  return markup.replace(/<button [^>]*class="[^"]*\blanguage-button\b[^"]*"[^>]*>[\s\S]*?<\/button>/g, '');
}

/**
 * The page's CSP allows no inline style, and a style attribute in HTML is one (React's own,
 * set from script, are not): the two the queue uses (a row's offset, the list's height) are
 * dropped, and queue.css lays the rows out one under the other instead. React escapes every
 * quote inside an attribute's value, so an attribute ends at its first quote.
 */
export function withoutStyleAttributes(markup: string): string {
  return markup.replace(/ style="[^"]*"/g, '');
}
