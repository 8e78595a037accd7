/**
 * End-to-end plumbing: the browser harness (real host, engine and in-process training sandbox)
 * with the built renderer in Debian's Chromium. One terminal per test file, on its own connection to
 * the run's one Chromium (test/support/chromium.ts); each file closes its pages, harness and
 * temporary folder.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Download, Page } from 'playwright-core';
import { TOKEN_PATH, UPDATE_PATH, type Sandbox, type SandboxOptions } from '../../sandbox';
import type { Action, Order } from '../../src/shared/protocol/schemas';
import type { Settings } from '../../src/shared/ipc';
import type { HostOptions } from '../../src/main/core/host';
import { DEFAULT_RENDERER_DIR, IPC_PATH, startWebHarness, type WebHarness } from '../../src/web';
import { DEFAULT_SCAN_OPTIONS } from '../../src/renderer/src/scanner/detector';
import { recordPrintRequests } from '../support/chromium';
import { connectChromium } from '../support/shared-chromium';
import { firstIntakePass } from '../support/intake';
import { afterNextFrame, countCalls } from './settled';
import { recordKeyTimes, scan } from './scanner';
import { until as waitUntil } from '../support/until';

export { afterNextFrame, untilSettled, untilTapsSettled } from './settled';
export { afterRepeatWindow, scan, scannerKeys, scanUntil, scanUntilSeen } from './scanner';

export const SCREENSHOT_DIR = resolve(__dirname, '..', '..', 'test-results', 'screenshots');
export const MANAGER_PIN = '2468';

export interface TerminalOptions {
  orderCount?: number;
  /** Runs on the new page before it opens the app (e.g. to route its WebSocket). */
  beforeOpen?: (page: Page) => Promise<void>;
  settings?: Partial<Settings>;
  viewport?: { width: number; height: number };
  /** Runs on the fresh data folder before the harness starts (e.g. to leave a damaged data file there). */
  prepare?: (dataDir: string) => void | Promise<void>;
  /** Outside training: the vaults to use, and the sandbox standing in for the service. */
  vaultFor?: HostOptions['vaultFor'];
  /** The updater controller the settings screen shows (the browser harness has none by default). */
  updates?: HostOptions['updates'];
  sandbox?: Sandbox;
  /** A touch screen (counter PCs with a touch panel): taps arrive as touch events too. */
  touch?: boolean;
  /** Open as a brand-new terminal with no manager PIN (the first-run screen); otherwise the PIN is set before the page opens. */
  firstRun?: boolean;
  /** Engine options over the quick-retry defaults (timeouts, backlog threshold). */
  engineOptions?: HostOptions['engineOptions'];
  /** Training sandbox options over the order count (arrivals, poll limits). */
  sandboxOptions?: Omit<SandboxOptions, 'orderCount' | 'now' | 'log'>;
  /** The training service's clock runs this far ahead of this computer's (negative: behind). */
  serviceClockAheadMs?: number;
  /**
   * false: return once the first row is on screen, even if it is still the host's drawing of the
   * queue (first-screen.test.ts). By default the app's own queue has replaced it, so a test's first
   * tap meets the live app.
   */
  waitForApp?: boolean;
  /** How long the page's HTML waits for the host's drawing of the queue (a busy test machine may need more than a terminal). */
  firstScreenBudgetMs?: number;
  /** Show scrollbars, as a terminal's window does (Playwright hides them by default). */
  scrollbars?: boolean;
}

export interface Terminal {
  readonly harness: WebHarness;
  readonly sandbox: Sandbox;
  readonly browser: Browser;
  readonly page: Page;
  /** The data folder the harness runs on (training's data file is under environments/training). */
  readonly dataDir: string;
  /** Console errors and page errors seen so far (item pictures that cannot load offline are left out). */
  readonly problems: string[];
  /** Calls the host has in hand, from the page or the test (settled.ts). */
  callsInFlight(): number;
  close(): Promise<void>;
}

export { printRequests, untilPrintRequests } from '../support/chromium';

/** Starts a terminal in training mode with a short undo window, opens it and waits for the queue. */
export async function openTerminal(options: TerminalOptions = {}): Promise<Terminal> {
  if (!existsSync(join(DEFAULT_RENDERER_DIR, 'index.html')))
    throw new Error(`${join(DEFAULT_RENDERER_DIR, 'index.html')} is missing: run \`npm run build\` first (npm test does).`);
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-'));
  let harness: WebHarness | undefined;
  let browser: Browser | undefined;
  try {
    await options.prepare?.(dataDir);
    harness = await startWebHarness({
      dataDir,
      ...(options.firstScreenBudgetMs !== undefined ? { firstScreenBudgetMs: options.firstScreenBudgetMs } : {}),
      host: {
        settingsOverride: { environment: 'training', undoWindowMs: 1500, sounds: true, ...options.settings },
        sandboxOptions: {
          orderCount: options.orderCount ?? 40,
          ...options.sandboxOptions,
          ...(options.serviceClockAheadMs !== undefined ? { now: () => Date.now() + (options.serviceClockAheadMs ?? 0) } : {}),
        },
        // Quick retries, so an outage that ends is noticed in about a second, not a minute.
        engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500, ...options.engineOptions },
        ...(options.vaultFor ? { vaultFor: options.vaultFor } : {}),
        ...(options.updates ? { updates: options.updates } : {}),
      },
    });
    const sandbox = harness.host.sandbox ?? options.sandbox;
    if (!sandbox) throw new Error('The harness did not start the training sandbox');
    const callsInFlight = countCalls(harness);
    // Training's seeded orders fill the queue in after the engine starts; a packer starts a
    // shift on a queue that has them all.
    if (harness.host.sandbox) await firstIntakePass(harness.host);
    browser = await connectChromium({ scrollbars: options.scrollbars ?? false });
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1366, height: 768 }, hasTouch: options.touch ?? false });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // Seeded item pictures live on the internet; this machine is offline, so they fail to load.
      if (m.type() === 'error' && !m.text().includes('net::ERR_')) problems.push(m.text());
    });
    await recordPrintRequests(page);
    await recordKeyTimes(page);
    await options.beforeOpen?.(page);
    if (!options.firstRun) {
      const pin = await harness.host.handle('pin.set', { newPin: MANAGER_PIN });
      if (!pin.ok) throw new Error(`pin.set refused: ${pin.problem.message}`);
    }
    // Without waiting for the app, not for the page's load either: that waits for the app's script.
    await page.goto(harness.url, options.waitForApp === false ? { waitUntil: 'commit' } : {});
    await page.getByTestId(options.firstRun ? 'first-run-pin' : 'order-row').first().waitFor({ timeout: 20_000 });
    if (options.waitForApp !== false) await untilAppLive(page);
    const h = harness;
    const b = browser;
    return {
      harness: h,
      sandbox,
      browser: b,
      page,
      dataDir,
      problems,
      callsInFlight,
      async close() {
        await b.close().catch(() => undefined);
        await h.close().catch(() => undefined);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await harness?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Waits until the app's own screen is up: the host draws the queue into the page's HTML
 * (core/ui/firstScreen), and until the app has replaced that drawing nothing in it answers.
 */
export async function untilAppLive(page: Page): Promise<void> {
  await page.locator('.first-screen').waitFor({ state: 'detached', timeout: 20_000 });
  // The drawing goes when React commits the app's first render; the app's key listeners (F9,
  // the scanner) are attached in effects that run just after. A key pressed between the two was
  // lost (CI: F9 in the chain test), so wait for the next frame and the task after it too.
  await afterNextFrame(page);
}


/** Loads the page again (a restart of the window) and waits for the app's own queue, not the host's drawing of it. */
export async function reloadTerminal(page: Page): Promise<void> {
  await page.reload();
  await page.getByTestId('order-row').first().waitFor({ timeout: 20_000 });
  await untilAppLive(page);
}

/**
 * Opens a counter's page (a harness's `url`) in `browser` at `width` (1080 px tall from 1920 wide,
 * else 768) and waits for the app's own queue. `beforeOpen` runs on the page first.
 */
export async function openCounterPage(browser: Browser, url: string, width = 1024, beforeOpen?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: width >= 1920 ? 1080 : 768 } });
  await recordKeyTimes(page);
  await beforeOpen?.(page);
  await page.goto(url);
  await page.getByTestId('order-row').first().waitFor({ timeout: 20_000 });
  await untilAppLive(page);
  return page;
}

/**
 * The text of a file the page downloaded, read through Playwright's stream: the browser is the
 * run's shared one, reached over a connection, so the file is not on a path this process may read.
 */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Saves a screenshot of the whole window to test-results/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/** `until` (support/until.ts) at a browser's pace: 15 s by default, asking every 50 ms. */
export function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  return waitUntil(what, check, timeoutMs, 50);
}

/** The invoice numbers the sandbox recorded for one order, in the order recorded. */
export function invoicesAt(sandbox: Sandbox, orderId: string): string[] {
  return appliedTo(sandbox, orderId).flatMap((a) => (a.type === 'CLIENT_ORDER_INFO_UPDATE' ? [a.clientOrderInfo.sellerInvoiceId] : []));
}

/** The actions the sandbox applied to one order, in the order applied. */
export function appliedTo(sandbox: Sandbox, orderId: string): Action[] {
  return sandbox
    .appliedLog()
    .filter((e) => e.orderId === orderId)
    .map((e) => e.action);
}

/** Seeded orders still new at the service, with a delivery fulfilment (so every step applies). */
export function freshOrders(sandbox: Sandbox): Order[] {
  return sandbox
    .orders()
    .filter((o) => o.orderState.toLowerCase() === 'created' && o.fulfillments.some((f) => f.type === 'DELIVERY'))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * A person's pace at the keyboard, ms between keys: twice the longest average gap the scanner
 * detector takes for a scan, so text a test types as a person is never read as a scanner's burst.
 * (30-40 ms passed on a slow machine, whose keys arrived later than sent, and read as scans on a
 * quicker one: a customer's phone or an order number's last digits was then taken as a scanned
 * code, not a find, and the order never opened.)
 */
export const PERSON_KEY_MS = DEFAULT_SCAN_OPTIONS.maxMeanGapMs * 2;

/**
 * Opens the Outbox, Settings or Shift screen from the top bar as a person would: its own button on a
 * wide screen, or "More" and then it up to 1400 px wide, where the three share one button.
 */
export async function openFromTopBar(page: Page, screen: 'outbox' | 'settings' | 'shift'): Promise<void> {
  const own = page.getByTestId(`nav-${screen}`);
  if (await own.isVisible()) return own.click();
  await page.getByTestId('nav-more').click();
  await page.getByTestId(`nav-more-${screen}`).click();
}

/** Shows `language` from the top bar, as a packer switches for the shift (it offers the other language only); resolves with its fonts in. */
export async function showLanguage(page: Page, language: 'en' | 'hi'): Promise<void> {
  const switchTo = page.getByTestId(`language-${language}`);
  if ((await switchTo.count()) > 0) await switchTo.click();
  await page.locator(`html[lang="${language}-IN"]`).waitFor({ state: 'attached' });
  await page.evaluate(() => document.fonts.ready);
}

/** Opens Settings as a manager would: F9, the manager PIN, Enter. */
export async function openSettings(page: Page): Promise<void> {
  await page.keyboard.press('F9');
  await page.getByTestId('settings-pin').fill(MANAGER_PIN);
  await page.getByTestId('settings-pin').press('Enter');
}

/** Types into the find field as a person would, then Enter. */
export async function typeInFind(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F2');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text, { delay: PERSON_KEY_MS });
  await page.keyboard.press('Enter');
}

/** Opens an order by typing its number in the top field (as a person would). */
export async function typeOrderId(page: Page, orderId: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.type(orderId, { delay: PERSON_KEY_MS });
  await page.keyboard.press('Enter');
  await page.locator(`[data-testid="order-screen"][data-order-id="${orderId}"]`).waitFor();
}

/** The big button, once it offers `step` (and is not resting after a tap). */
export async function nextStep(page: Page, step: string): Promise<void> {
  await page.locator(`[data-testid="next-step"][data-step="${step}"]`).waitFor({ timeout: 15_000 });
}

/** Taps the big button when it offers `step`. */
export async function tapStep(page: Page, step: string): Promise<void> {
  await nextStep(page, step);
  await page.locator(`[data-testid="next-step"][data-step="${step}"]`).click();
}

/** Hands out seeded orders one at a time, so tests in a file never share an order. */
export function orderPool(sandbox: Sandbox): (want?: (o: Order) => boolean) => Order {
  const left = freshOrders(sandbox);
  return (want = () => true) => {
    const i = left.findIndex(want);
    const [order] = i < 0 ? [] : left.splice(i, 1);
    if (!order) throw new Error('no seeded order left that fits');
    return order;
  };
}

/** True when an order has an item that needs a prescription. */
export const withPrescription = (o: Order): boolean => o.items.some((i) => i.prescriptionRequired === true);

/** Scans an order, accepts it and waits until the service's answer has filled in its items. */
export async function acceptOrder(terminal: Terminal, order: Order): Promise<void> {
  const { page, sandbox } = terminal;
  await scan(page, order.id); // resolves once the order's screen is up
  await tapStep(page, 'ACCEPT');
  await until(`${order.id} accepted at the service`, () => appliedTo(sandbox, order.id).length >= 1);
  await page.getByTestId('item-row').first().waitFor();
}

/** Sets the manager PIN directly on the host, unless it is set already (openTerminal sets it unless firstRun). */
export async function setPin(terminal: Terminal): Promise<void> {
  const info = await terminal.harness.host.handle('app.info', {});
  if (info.ok && (info.value as { pinSet: boolean }).pinSet) return;
  const reply = await terminal.harness.host.handle('pin.set', { newPin: MANAGER_PIN });
  if (!reply.ok) throw new Error(`pin.set refused: ${reply.problem.message}`);
}

/** Another terminal (its own token, its own requestId) sends one action straight to the service; answers the HTTP status. */
export async function otherTerminalSends(sandbox: Sandbox, orderId: string, action: Action): Promise<number> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'training', client_secret: 'training-secret' });
  const tokenRes = await fetch(`${sandbox.url}${TOKEN_PATH}`, { method: 'POST', body: form });
  if (tokenRes.status !== 200) throw new Error(`token request answered ${tokenRes.status}`);
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };
  const res = await fetch(`${sandbox.url}${UPDATE_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `O-Bearer ${token}` },
    body: JSON.stringify({ requestContext: { requestId: randomUUID(), transactionId: orderId, actionType: 'UPDATE' }, orderId, actions: [action] }),
  });
  await res.text();
  return res.status;
}

/** Counts every tone the page starts through Web Audio, before any app code runs (page.addInitScript). */
export const COUNT_TONES = `
  window.__tones = 0;
  window.__toneTimes = [];
  const original = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function (...args) {
    window.__tones += 1;
    window.__toneTimes.push(performance.now());
    return original.apply(this, args);
  };
`;
/** Tones started so far (COUNT_TONES). */
export const tones = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __tones: number }).__tones);
/** Tones started up to `at` on the page's own clock (performance.now; COUNT_TONES). */
export const tonesBy = (page: Page, at: number): Promise<number> => page.evaluate((t) => (window as unknown as { __toneTimes: number[] }).__toneTimes.filter((x) => x <= t).length, at);
/** Waits until the page's own clock (the one its timers run on) is past `at`. */
export async function untilPageClock(page: Page, at: number): Promise<void> {
  await page.waitForFunction((t) => performance.now() > t, at, { polling: 50, timeout: 30_000 });
}

/**
 * Pauses the page's installed clock (page.clock) at about "now". pauseAt only goes forward, and
 * the page's time runs on while the call travels: on a loaded machine a target a few
 * milliseconds ahead is already past when it lands ("Cannot fast-forward to the past"). So it
 * aims a little ahead and aims again, further, if it still arrived late (at most 6.4 s ahead:
 * a test that counts quiet seconds after it can allow for that).
 */
export async function pauseClockNow(page: Page): Promise<number> {
  for (let aim = 100; ; aim *= 4) {
    const at = await page.evaluate((ahead) => Date.now() + ahead, aim);
    try {
      await page.clock.pauseAt(at);
      return at;
    } catch (e) {
      if (aim >= 6_400 || !/to the past/.test(String(e))) throw e;
    }
  }
}

export { axe, type AxeFinding } from '../support/axe';

/**
 * Lets a test hold back the engine's events on their way to the page (a screen gone stale), let
 * them through again, or give the page an event of its own (a state that shows only for a moment).
 */
export function eventGate() {
  let holding = false;
  const held: string[] = [];
  let deliver: ((message: string) => void) | null = null;
  return {
    async install(page: Page): Promise<void> {
      await page.routeWebSocket(new RegExp(`${IPC_PATH}\\?`), (ws) => {
        const server = ws.connectToServer();
        deliver = (m) => ws.send(m);
        ws.onMessage((m) => server.send(m));
        server.onMessage((m) => {
          if (holding && typeof m === 'string' && m.includes('"type":"event"')) held.push(m);
          else ws.send(m);
        });
      });
    },
    hold(): void {
      holding = true;
    },
    release(): void {
      holding = false;
      for (const m of held.splice(0)) deliver?.(m);
    },
    send(event: string, body: unknown): void {
      if (!deliver) throw new Error('the page has no socket yet');
      deliver(JSON.stringify({ type: 'event', event, body }));
    },
  };
}
