/** Debian's Chromium driven by playwright-core (never a downloaded browser). */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type BrowserServer, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * `--js-flags=--expose-gc` as Electron's main process gives its renderers (src/main/index.ts): the
 * page's one collection after a busy spell (renderer memory/rest.ts) needs it.
 */
export const PAGE_GC_FLAG = '--js-flags=--expose-gc';

/** The switches every Chromium of the tests and benchmarks starts with. */
export const CHROMIUM_ARGS: readonly string[] = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', PAGE_GC_FLAG];

const LAUNCH_OPTIONS = { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] };

/**
 * Starts the one Chromium of an e2e run as a Playwright browser server (test/support/global-setup.ts
 * starts it and closes it after the last file); every e2e file connects to it. Launching a browser
 * per file cost a few seconds of the two cores each time, 60-odd times a run.
 */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH_OPTIONS);
}

/**
 * Launches a Chromium of its own (benchmarks; e2e tests connect to the run's one browser instead,
 * see test/support/shared-chromium.ts). Playwright hides scrollbars by default; `scrollbars: true`
 * shows them, as a terminal's window does (classic ones, 15 px here), for a test of what they take up.
 */
export function launchChromium(options: { scrollbars?: boolean } = {}): Promise<Browser> {
  return chromium.launch({ ...LAUNCH_OPTIONS, ...(options.scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}) });
}

/** What `chromium --version` says, or why it could not be asked (Debian moves it under us). */
export function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch (err) {
    return `unknown (${(err as Error).message.split('\n')[0]})`;
  }
}

/**
 * Replaces the page's `window.print()` with a recorder, before any of the page's scripts run.
 * The browser's print dialog belongs to the person at the screen, not to a test: in Chromium 156
 * a headless `window.print()` leaves the page "being printed", and every later `page.pdf` fails.
 * Tests print the print layout to PDF themselves and check here that the app asked to print.
 */
export async function recordPrintRequests(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __printRequests: number };
    w.__printRequests = 0;
    window.print = () => {
      w.__printRequests++;
    };
  });
}

/** How many times the page has called `window.print()` since it opened (see recordPrintRequests). */
export function printRequests(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __printRequests?: number }).__printRequests ?? 0);
}

/** Waits until the page has called `window.print()` `count` times in all (see recordPrintRequests). */
export async function untilPrintRequests(page: Page, count: number, timeoutMs = 15_000): Promise<void> {
  await page.waitForFunction((n) => (window as unknown as { __printRequests?: number }).__printRequests === n, count, { timeout: timeoutMs });
}
