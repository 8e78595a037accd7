/**
 * The packer UI in Debian's Chromium with 5,000 orders on the terminal: the browser harness (the
 * real host and engine, bundled as the app's main process is, in a process of its own:
 * bench/host-process.ts) against the sandbox order service in another (as a store's order service
 * is another computer), the built renderer from out/renderer:
 * 1. tap to screen: from a real click on the big button (the click event's timestamp) until the
 *    order's new state is in the DOM and painted; bound: one frame, 16 ms (p95). The page draws the
 *    state the tap leaves the order in at once (foreseen with the engine's rules, shared/orders
 *    predictTap), and the engine's own view replaces it when it arrives: both are printed, with
 *    where the engine's round trip goes (Chromium hands the page no message before it has drawn
 *    the frame after a click, so the engine's view is always at least a frame later);
 * 2. first render of the queue: from navigation start until the first screenful of rows is
 *    painted (rows down to the list's bottom edge, or every order when fewer), page by page (fresh
 *    tabs), twice: each tab in a fresh browser profile (nothing kept: a terminal's first start after
 *    an install), and all tabs in one profile (the browser's cache and V8's code cache kept, as
 *    Electron keeps them on disk: every later start); bound: 400 ms at p95 (issue 21), both printed
 *    against it, with where the time went: the page's own steps (HTML
 *    and scripts, the app's script, commands sent, the queue's head and settings answered, in the
 *    store, rows in the DOM, painted) and the host's answer to orders.head;
 * 3. scroll frame times: the queue flung through its 5,000 rows (three rows a frame, about
 *    17,000 px/s) and the interval of each frame; bound: 16.7 ms (60 Hz).
 * A frame is taken as painted once the frame's requestAnimationFrame has run and a task queued
 * from it has started (the paint happens in between).
 * Each measure runs once per language (the terminal's language set in settings, so the page loads
 * in it): English and Hindi by default, one with --language en|hi. Hindi draws Devanagari with the
 * font shipped with the app, its words are longer, and its numbers go through Intl's hi-IN.
 * With --floor, the floor is printed too, on lines of its own (bench/floor.ts: a trivial page from
 * the same harness server, navigation to painted: the browser's own share); --only floor prints
 * only that.
 * With --slowdown N, the first render and the floor are measured with the page's main thread N
 * times slower (Chromium's CPU throttling): how much room the bound leaves on a slower terminal.
 * Only the page's thread is slowed (not the browser process, raster or font decoding), so read it
 * as a rough margin, and always beside the floor measured with the same slowdown.
 * With --cores N (bench/cores.ts), the host and Chromium run pinned to the first N cores with taskset
 * (a counter PC with one core or two), the bench's own driver (Playwright) and the sandbox on the
 * cores left when there are any, the floor measured the same way, and each first render is also
 * read against the floor: its p95 at most the floor's p95 + 150 ms (issue 41), printed as a ratio.
 * With the floor (--floor, --cores), the tap's floor too (bench/tap-floor.ts: a trivial page's button,
 * click to painted, the same probe), printed beside all taps: the browser's own share of a tap.
 * Run: npm run build && npx tsx bench/ui-packer.ts [--cores N] [--orders 5000] [--taps 100] [--loads 8, 48 with --cores] [--frames 600] [--language en|hi] [--only first-render|floor] [--floor] [--slowdown N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium';
import { appCores, coresWanted, pinnedLaunch, pinningReport, runPinned } from './cores';
import { AFTER_PAINT, type Floor, floorReport, measureFloor, slowPageThread, whenInPage } from './floor';
import { FIRST_SCREEN_PROBE } from './first-screen-probe';
import type { HeadTiming } from './host-process';
import { type HostProcess, type SandboxProcess, startHostProcess, startSandboxProcess } from './processes';
import { measureTapFloor, type TapFloor, tapFloorReport } from './tap-floor';
import { spread } from './stats';
import { type FirstRender, firstRenderReport, line, type Profile, type TapSample, tapReport } from './ui-packer-report';

const PIN = '2468';
/**
 * Debian's Chromium, headless, quiet. Without the browser's own hidden pages: headless Chromium
 * runs the whole browser, and each new window (every fresh-profile load is one) made and compiled
 * the omnibox popup's and other top-of-window WebUI pages on the same two cores while the page
 * loaded (seen in a trace). An Electron window has no browser UI; with them, a fresh-profile load's
 * first contentful paint was 632 / 1,296 ms against 396 / 620 without (12 loads each, alternating).
 */
export const LAUNCH = {
  executablePath: CHROMIUM_PATH,
  // CHROMIUM_ARGS has the page's gc, as Electron's main process gives its renderers (src/main/index.ts, renderer memory/rest.ts).
  args: [...CHROMIUM_ARGS, '--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup'],
};
const FRAME_MS = 1000 / 60;

/** The languages to measure: --language en|hi, else both. */
function languagesWanted(): string[] {
  const i = process.argv.indexOf('--language');
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  return v === 'en' || v === 'hi' ? [v] : ['en', 'hi'];
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * The terminal measured: the sandbox order service and the host (the harness: engine, server and
 * the page's renderer), each a process of its own, as the app and a store's order service are; with
 * --cores the host runs on the app's cores (bench/cores.ts), the sandbox on the bench's.
 */
interface Terminal {
  readonly host: HostProcess;
  readonly sandbox: SandboxProcess;
}

async function startTerminal(workDir: string, orderCount: number): Promise<Terminal> {
  const sandbox = await startSandboxProcess(orderCount);
  try {
    return { sandbox, host: await startHostProcess(workDir, sandbox.url, undefined, [], appCores() ?? undefined) };
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
}

/** A GET of the sandbox's admin API (sandbox/admin.ts). */
async function admin<T>(terminal: Terminal, path: string): Promise<T> {
  const res = await fetch(`${terminal.sandbox.adminUrl}/__sandbox/${path}`);
  if (!res.ok) throw new Error(`the sandbox's ${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/**
 * Waits for intake's first pass: the host reads the sandbox's orders after the engine starts and
 * the queue fills in as they arrive; the measures are of a terminal with all of them in.
 */
async function allOrdersIn(terminal: Terminal): Promise<number> {
  const started = Date.now();
  for (;;) {
    const status = await terminal.host.handle<{ lastCompleteAt: number | null; condition: string }>('intake.status', {});
    if (status.lastCompleteAt !== null) return Date.now() - started;
    if (Date.now() - started > 600_000) throw new Error(`intake's first pass did not complete (${status.condition})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Accepts `ids` at the service so the terminal has their details (items, fulfilments). */
async function acceptAtService(terminal: Terminal, ids: readonly string[]): Promise<void> {
  for (const orderId of ids) await terminal.host.handle('taps.submit', { orderId, input: { kind: 'orderState', state: 'ACCEPTED' } });
  const want = new Set(ids);
  const end = Date.now() + 120_000;
  for (;;) {
    const applied = (await admin<{ orderId: string }[]>(terminal, 'log')).filter((e) => want.has(e.orderId)).length;
    const status = await terminal.host.handle<{ waiting: number }>('sync.status', {});
    if (applied >= ids.length && status.waiting === 0) return;
    if (Date.now() > end) throw new Error(`only ${applied} of ${ids.length} acceptances arrived`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- in-page probes (run through CDP, so the page's strict CSP does not apply) ---------------

// In-page code is written as strings: tsx names functions with a helper (__name) that does not
// exist in the page.

/** Flings the queue `count` frames, three rows a frame, and returns each frame's interval. */
const SCROLL_RUN = (count: number) => `new Promise((resolve) => {
  const list = document.querySelector('[data-testid="queue-list"]');
  list.scrollTop = 0;
  const intervals = [];
  let last = -1;
  const step = (t) => {
    if (last >= 0) intervals.push(t - last);
    last = t;
    // Back to the top at the end, so the run never stalls at the bottom.
    if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) list.scrollTop = 0;
    else list.scrollTop += 288;
    if (intervals.length >= ${count}) resolve(intervals);
    else requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

/**
 * Notes when the page sends a command and when an orders.changed event arrives, to split the
 * tap time between the engine's round trip and the page's own work. Wraps the WebSocket class
 * the harness bridge uses (Electron's IPC has no such hook; the split is for the harness).
 */
const WS_PROBE = `(() => {
  window.__sentAt = [];
  window.__ordersAt = [];
  const Base = window.WebSocket;
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (m) => {
        if (typeof m.data === 'string' && m.data.startsWith('{"type":"event","event":"orders.changed"')) window.__ordersAt.push(performance.now());
      });
    }
    send(data) {
      window.__sentAt.push(performance.now());
      super.send(data);
    }
  };
})()`;

/** Frame intervals with nothing happening: the display clock the others are judged against. */
const IDLE_RUN = `new Promise((resolve) => {
  const t = [];
  const step = (now) => {
    t.push(now);
    if (t.length > 60) resolve(t.slice(1).map((v, i) => v - t[i]));
    else requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

/** Launch options, with the executable pinned to the app's cores under --cores (bench/cores.ts). */
type Launch = typeof LAUNCH;

async function measureFirstRender(browser: Browser, launch: Launch, host: HostProcess, loads: number, profile: Profile, slowdown: number): Promise<FirstRender[]> {
  // A profile on disk, as Electron's: Chromium keeps no compiled code for an in-memory one.
  const profileDir = profile === 'kept' ? mkdtempSync(join(tmpdir(), 'packdesk-bench-profile-')) : null;
  const context = profileDir ? await chromium.launchPersistentContext(profileDir, { ...launch, viewport: { width: 1366, height: 768 } }) : null;
  try {
    const open = () => (context ? context.newPage() : browser.newPage({ viewport: { width: 1366, height: 768 } }));
    const slowed = async () => {
      const page = await open();
      await slowPageThread(page, slowdown);
      return page;
    };
    return await loadPages(slowed, host, loads);
  } finally {
    await context?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  }
}

async function loadPages(open: () => Promise<Page>, host: HostProcess, loads: number): Promise<FirstRender[]> {
  const samples: FirstRender[] = [];
  // How the host answered each load's orders.head: the page's is the last of a load (the host's own
  // drawing of the first screen asks first).
  const heads = async (): Promise<HeadTiming | undefined> => ((await host.request({ kind: 'headTimes' })) as HeadTiming[]).at(-1);
  await heads();
  // One load first, not counted: it warms the host (the queue's kept listing) and, for `kept`,
  // leaves the browser's caches as a terminal that was opened before.
  for (let i = 0; i < loads + 1; i++) {
    const page = await open();
    await page.addInitScript({ content: FIRST_SCREEN_PROBE });
    await page.goto(host.url);
    await page.evaluate(whenInPage('window.__first.frameTaskAt !== undefined && window.__first.livePaintedAt !== undefined'));
    const at = (await page.evaluate(
      `((navigation = performance.getEntriesByType('navigation')[0], sheet = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.css'))) => ({ rows: window.__first.contentfulAt >= window.__first.domAt ? window.__first.contentfulAt : window.__first.frameTaskAt, frameTask: window.__first.frameTaskAt, dom: window.__first.domAt, drawn: window.__first.drawn, live: window.__first.liveAt, livePainted: window.__first.livePaintedAt,
          rowCount: window.__first.rowCount, asked: window.__first.askedAt ?? NaN, answered: window.__first.answerAt ?? NaN,
          script: performance.getEntriesByName('packdesk:script')[0]?.startTime ?? NaN, data: performance.getEntriesByName('packdesk:data')[0]?.startTime ?? NaN,
          htmlStart: navigation?.responseStart ?? NaN, htmlEnd: navigation?.responseEnd ?? NaN, sheetAsked: sheet?.fetchStart ?? NaN, sheetIn: sheet?.responseEnd ?? NaN,
          fontsIn: window.__first.fontsAts.filter((t) => t <= window.__first.livePaintedAt).at(-1) ?? NaN }))()`,
    )) as Omit<FirstRender, 'hostList' | 'hostListCpu'>;
    const head = await heads();
    if (i > 0) samples.push({ ...at, hostList: head?.wall ?? Number.NaN, hostListCpu: head?.cpu ?? Number.NaN });
    // The page reads the whole list once its first screen is painted: the next load starts after
    // that is in, as it would on a terminal (nothing else loading), not beside it.
    if (Number.isFinite(at.answered))
      await page.waitForFunction(() => performance.getEntriesByName('packdesk:queue-complete').length > 0, null, { timeout: 60_000 });
    await page.close();
  }
  return samples;
}

async function measureScroll(page: Page, frames: number): Promise<number[]> {
  await page.getByTestId('filter-ALL').click();
  await page.getByTestId('queue-list').waitFor();
  return (await page.evaluate(SCROLL_RUN(frames))) as number[];
}


/**
 * Opens each order by typing its number, taps the big button with a real click, and measures
 * from the click event to the painted new state: the "waiting to sync" mark the engine's
 * projected view brings (the same update carries the new fulfilment or order state).
 */
async function measureTaps(page: Page, ids: readonly string[], step: string): Promise<TapSample[]> {
  const samples: TapSample[] = [];
  for (const id of ids) {
    await page.keyboard.press('F2');
    // Filled: typed at a scanner's pace, a page busy 250 ms after "O" (one core) made the rest a scan.
    await page.locator('#order-id-entry').fill(id);
    await page.keyboard.press('Enter');
    const button = page.locator(`[data-testid="order-screen"][data-order-id="${id}"] [data-testid="next-step"][data-step="${step}"]`);
    await button.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      // What the packer would have seen instead, for whoever reads the failure.
      const shot = join(tmpdir(), `packdesk-ui-packer-${id}.png`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      const screen = await page.locator('[data-testid="order-screen"]').first().innerText({ timeout: 1_000 }).catch(() => '(no order screen)');
      throw new Error(`${id}: no "${step}" button after 30 s; the screen showed: ${screen.replace(/\s+/g, ' ').slice(0, 400)} (screenshot ${shot})`, { cause: error });
    });
    await page.evaluate(`(() => {
      window.__sentAt.length = 0;
      window.__ordersAt.length = 0;
      window.__tap = new Promise((resolve) => {
        const screen = document.querySelector('[data-testid="order-screen"]');
        let clickAt = null;
        let ackPainted = null;
        let first = null;
        document.addEventListener('click', (e) => { clickAt = e.timeStamp; }, { capture: true, once: true });
        const painted = ${AFTER_PAINT};
        const observer = new MutationObserver(() => {
          if (clickAt === null) return;
          // The tap acknowledged by the page itself: the big button resting ("Starting packing…").
          if (ackPainted === null && screen.querySelector('[data-testid="next-step"][data-step="resting"]')) ackPainted = painted().then((p) => p.at);
          if (!screen.querySelector('[data-testid="order-marks"] [data-testid="mark-waiting"]')) return;
          const foreseen = screen.getAttribute('data-predicted') === 'true';
          // The new state on screen, the page's foreseen view or the engine's, whichever came first.
          if (first === null) {
            const domAt = performance.now();
            first = { domAt, foreseen, painted: painted().then((p) => ({ at: p.at, render: p.at - p.frameAt, tick: p.frameTime - clickAt })) };
          }
          if (foreseen) return;
          // The engine's own view of the order in the DOM: the tap confirmed.
          observer.disconnect();
          const confirmedDomAt = performance.now();
          const shown = first;
          painted().then(async ({ at: confirmedAt }) => {
            const { at: paintedAt, render, tick } = await shown.painted;
            const sentAt = window.__sentAt.find((t) => t >= clickAt) ?? clickAt;
            const eventAt = window.__ordersAt.find((t) => t >= sentAt) ?? confirmedDomAt;
            const ackAt = ackPainted ? await ackPainted : paintedAt;
            resolve({
              total: paintedAt - clickAt, foreseen: shown.foreseen, ack: ackAt - clickAt, frame: paintedAt - shown.domAt, render, tick,
              confirmed: confirmedAt - clickAt, toSend: sentAt - clickAt, engine: eventAt - sentAt, page: confirmedDomAt - eventAt,
            });
          });
        });
        observer.observe(screen, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['data-predicted', 'data-step'] });
      });
    })()`);
    await button.click();
    samples.push((await page.evaluate('window.__tap')) as TapSample);
  }
  return samples;
}

async function main(): Promise<void> {
  const orderCount = flag('orders', 5000);
  const tapCount = flag('taps', 100);
  const cores = coresWanted();
  // Against the floor (--cores) the p95 is the bound: of 16 loads it is the slowest, of 48 the third slowest.
  const loads = flag('loads', cores !== null ? 48 : 8);
  const frames = flag('frames', 600);
  const slowdown = flag('slowdown', 1);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const firstRenderOnly = only === 'first-render';
  if (cores !== null) console.log(`On ${cores} core${cores > 1 ? 's' : ''} (cores ${appCores()}): the host and Chromium pinned there with taskset, the bench's driver and the sandbox on the cores left (bench/cores.ts), the floor measured the same way`);
  const launch = pinnedLaunch(LAUNCH);
  const work = mkdtempSync(join(tmpdir(), 'packdesk-bench-ui-'));
  let terminal: Terminal | undefined;
  let browser: Browser | undefined;
  try {
    terminal = await startTerminal(work, orderCount);
    const { host } = terminal;
    await host.handle('pin.set', { newPin: PIN });
    // Taps sent at once and many at a time while the orders to tap are accepted at the service.
    await host.handle('settings.update', { pin: PIN, patch: { undoWindowMs: 0, concurrency: 8 } });
    const intakeMs = await allOrdersIn(terminal);
    console.error(`intake's first pass brought the sandbox's orders in ${intakeMs} ms after the engine started`);
    // With --cores the floor is always measured: the first render is read against it (issue 41).
    // Measured with the host up and idle, as it is when the app's pages load.
    let floors: Floor[] = [];
    let tapFloor: TapFloor | undefined;
    if (only === 'floor' || process.argv.includes('--floor') || cores !== null) {
      const floorBrowser = await chromium.launch(launch);
      try {
        floors = await measureFloor(floorBrowser, launch, loads, slowdown);
        if (!firstRenderOnly) tapFloor = await measureTapFloor(floorBrowser, tapCount);
        console.error(pinningReport(host.pid));
        console.log(floorReport(floors, slowdown));
        if (tapFloor) console.log(tapFloorReport(tapFloor));
      } finally {
        await floorBrowser.close();
      }
      if (only === 'floor') return;
    }
    const floorOf = (profile: Profile): Floor | undefined => floors.find((f) => f.profile === profile);
    const fresh = (await admin<{ id: string; orderState: string }[]>(terminal, 'orders'))
      .filter((o) => o.orderState.toLowerCase() === 'created')
      .map((o) => o.id);
    const languages = languagesWanted();
    // Each language taps its own orders: half known to the terminal (Start packing), half new to it (Accept).
    const per = tapCount + Math.ceil(tapCount / 2);
    if (fresh.length < per * languages.length) throw new Error(`need ${per * languages.length} new orders, have ${fresh.length}: raise --orders`);
    const pools = languages.map((_, i) => {
      const mine = fresh.slice(i * per, (i + 1) * per);
      return { known: mine.slice(0, tapCount), unknown: mine.slice(tapCount) };
    });
    // Accepting the known groups happens before measuring.
    await acceptAtService(terminal, pools.flatMap((p) => p.known));
    await host.handle('settings.update', { pin: PIN, patch: { undoWindowMs: 5000, concurrency: 4 } });
    const onTerminal = (await host.handle<unknown[]>('orders.list', {})).length;

    browser = await chromium.launch(launch);
    console.error(pinningReport(host.pid));
    for (const [i, language] of languages.entries()) {
      const { known, unknown } = pools[i]!;
      await host.handle('settings.update', { pin: PIN, patch: { language } });
      console.error(`[${language}] first render, ${loads} loads in a fresh profile each, then ${loads} in one profile…`);
      const firstRender = await measureFirstRender(browser, launch, host, loads, 'cold', slowdown);
      const firstRenderKept = await measureFirstRender(browser, launch, host, loads, 'kept', slowdown);
      const slowed = slowdown > 1 ? `, the page's thread slowed ${slowdown}x` : '';
      const about = `(${process.platform}, ${onTerminal} orders on the terminal, viewport 1366x768, software rendering${slowed})`;
      if (firstRenderOnly) {
        console.log(`Packer UI in Chromium, language ${language} ${about}`);
        console.log(firstRenderReport(firstRender, 'cold', floorOf('cold')));
        console.log(firstRenderReport(firstRenderKept, 'kept', floorOf('kept')));
        continue;
      }

      const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      await page.addInitScript({ content: WS_PROBE });
      await page.goto(host.url);
      await page.getByTestId('order-row').first().waitFor({ timeout: 60_000 });
      const shown = await page.evaluate(() => document.documentElement.lang);
      console.error(`[${language}] scrolling and tapping…`);
      const scroll = await measureScroll(page, frames);
      const idle = (await page.evaluate(IDLE_RUN)) as number[];

      const packing = await measureTaps(page, known, 'PACKING');
      const accept = await measureTaps(page, unknown, 'ACCEPT');
      await page.close();

      console.log(`Packer UI in Chromium, language ${language} (page lang ${shown}) ${about}`);
      console.log(tapReport('Tap to screen, Start packing on a known order', packing));
      console.log(tapReport('Tap to screen, Accept on an order new to the terminal', accept));
      console.log(tapReport('Tap to screen, all taps', [...packing, ...accept], tapFloor, spread(idle).median));
      console.log(firstRenderReport(firstRender, 'cold', floorOf('cold')));
      console.log(firstRenderReport(firstRenderKept, 'kept', floorOf('kept')));
      console.log(line(`Scroll frame intervals, fling through ${onTerminal} rows`, spread(scroll), FRAME_MS, 'a 60 Hz frame', 0.02));
      const long = scroll.filter((v) => v > FRAME_MS * 1.5).length;
      console.log(`  frames over 1.5x the frame time: ${long} of ${scroll.length}; idle frame interval here (the clock): median ${spread(idle).median.toFixed(1)} ms`);
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await terminal?.host.stop().catch(() => undefined);
    await terminal?.sandbox.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('ui-packer.ts')) {
  // --cores N: this run again under taskset, and nothing more here.
  const pinned = runPinned();
  if (pinned !== null) process.exitCode = pinned;
  else main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
