/**
 * The queue's first screen in the page's HTML, for both shells (Electron's app:// handler and the
 * browser harness): the host draws it with the renderer's own components (out/first-screen, built
 * from src/renderer/src/firstScreen/render.tsx) from its own answers to the commands the page asks
 * first, and the page's index.html carries it inside #root. The browser paints it with the HTML
 * and the style sheet, before the app's script has been fetched, compiled or run (about half a
 * second on a counter PC); the app then draws the same queue over it, live.
 *
 * A drawing that fails or is late is left out, never waited for: the page is then as built and the
 * app draws its first screen itself, as it always did.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Reply } from '../../../shared/ipc';
import type { Logger } from '../log';
import { awaitWithin, systemTimers, type Timers } from '../time';

/** The drawn screen: markup for inside #root, and the page's language (an Intl locale). */
export interface FirstScreen {
  readonly html: string;
  readonly lang: string;
  /**
   * Whether its words need the fonts shipped for scripts a counter PC may lack, the language
   * buttons aside. False: of the page's preloads of those fonts only the language buttons' face
   * is kept (their names, each in its own script), since Chromium holds the first paint for a
   * preloaded font.
   */
  readonly scriptFonts?: boolean;
}

/** The host's command handler (AppHost.handle). */
export type HostAsk = (command: unknown, payload: unknown) => Promise<Reply<unknown>>;

interface FirstScreenModule {
  renderFirstScreen(ask: HostAsk): Promise<FirstScreen | null>;
}

/**
 * How long the page's HTML may wait for the drawing. Drawn warm it takes 5-15 ms (the queue's
 * head kept between listings; 50-150 ms when the host lists the queue first). Without it the rows
 * come with the app, about half a second after a drawing would, so waiting longer than this costs
 * the packer more than it saves: the page is then served without it.
 */
export const FIRST_SCREEN_BUDGET_MS = 400;

export interface FirstScreenDrawer {
  /** The screen as it is now, or null (no build, a failure, over budget, or not the queue). */
  draw(): Promise<FirstScreen | null>;
  /**
   * Loads the drawing code (a 2.6 MB file: about 200 ms, once) and draws once, so the page's own
   * request finds both ready. Call once the host has started; never throws.
   */
  warm(): Promise<void>;
}

/** A drawer over the built module `file`; `ask` is the host's handler; `timers` keep the budget. */
export function createFirstScreenDrawer(file: string, ask: HostAsk, log: Logger, budgetMs = FIRST_SCREEN_BUDGET_MS, timers: Timers = systemTimers): FirstScreenDrawer {
  let module: FirstScreenModule | null | undefined;
  const load = (): FirstScreenModule | null => {
    if (module !== undefined) return module;
    module = null;
    if (!existsSync(file)) {
      log.warn('the first screen is drawn by the page alone: its build is missing', { file });
      return null;
    }
    try {
      const loaded = createRequire(file)(file) as Partial<FirstScreenModule>;
      if (typeof loaded.renderFirstScreen === 'function') module = loaded as FirstScreenModule;
      else log.warn('the first screen is drawn by the page alone: its build has no renderFirstScreen', { file });
    } catch (err) {
      log.warn('the first screen is drawn by the page alone: its build could not be loaded', { error: messageOf(err) });
    }
    return module;
  };

  const draw = async (): Promise<FirstScreen | null> => {
    const drawing = load();
    if (!drawing) return null;
    try {
      const drawn = await awaitWithin(drawing.renderFirstScreen(ask), budgetMs, 'late' as const, timers, { keepAlive: true });
      if (drawn === 'late') {
        log.info('served the page without its first screen: drawing it took longer than the budget', { budgetMs });
        return null;
      }
      if (!drawn || typeof drawn.html !== 'string' || typeof drawn.lang !== 'string') return null;
      return { html: drawn.html, lang: drawn.lang, scriptFonts: drawn.scriptFonts !== false };
    } catch (err) {
      // The message only: a stack or a value could carry an order's customer details.
      log.warn('served the page without its first screen: drawing it failed', { error: messageOf(err) });
      return null;
    }
  };

  return {
    draw,
    async warm() {
      await draw();
    },
  };
}

/**
 * Loads the drawing's code into Node's module cache (about 200 ms of this thread, once), so a
 * drawer made later finds it loaded. For a shell that has idle time before its host exists
 * (Electron waiting for the app to be ready). Never throws: a drawer says what is wrong.
 */
export function loadFirstScreenBuild(file: string): void {
  try {
    if (existsSync(file)) createRequire(file)(file);
  } catch {
    // The drawer loads it again and logs why it cannot.
  }
}

/**
 * The page's HTML with the screen inside its empty `<div id="root"></div>` and its language on
 * `<html>`, without the shipped fonts' preloads when its words need none of them; as it was when
 * it has no such root (a build that changed its shape) or no screen.
 *
 * Chromium holds a page's first paint while a preloaded font is on its way (up to 50 ms). On an
 * English screen the only Devanagari is the language button's "हिन्दी": preloaded for it, the
 * queue's first render on one core came 8-34 ms later in the median (bench, three rounds of 16
 * loads in alternation). Without it the face is asked for at the first layout and "हिन्दी" shows
 * a moment after the queue (the face is `font-display: block`: never boxes); its button is as wide
 * before as after (`.language-name` in topbar.css), so nothing in the top bar moves when it comes.
 */
export function withFirstScreen(html: string, screen: FirstScreen | null): string {
  const root = '<div id="root"></div>';
  if (!screen || !html.includes(root)) return html;
  const lang = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(screen.lang) ? screen.lang : null;
  // The built page's own tags only, before the drawing is in.
  const page = screen.scriptFonts === false ? html.replace(FONT_PRELOAD, '') : html;
  const withRoot = page.replace(root, () => `<div id="root">${screen.html}</div>`);
  return lang ? withRoot.replace(/<html lang="[^"]*"/, `<html lang="${lang}"`) : withRoot;
}

/** A `<link rel="preload" as="font">` of the built page (electron.vite.config.ts), with the line's indent. */
const FONT_PRELOAD = /[ \t]*<link rel="preload"[^>]*\bas="font"[^>]*>\n?/g;

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Where `npm run build` writes the drawing code, beside the renderer's folder (out/renderer). */
export function firstScreenBuild(rendererDir: string): string {
  return join(rendererDir, '..', 'first-screen', 'render.cjs');
}
