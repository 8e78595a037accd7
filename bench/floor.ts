/**
 * The first render's floor: how long this machine's Chromium takes from navigation to the first
 * paint of a trivial page (a heading and a line of text, no script) served by the same harness
 * server (startWebServer: its headers, its CSP, 127.0.0.1), with the same probe of "painted" as
 * the queue's first render, fresh profile per load and one profile kept. What it takes is the
 * browser's own share of the queue's first render (navigation, a new renderer process, the
 * document's commit and the first frame); the rest is the app's. Its server runs in the bench's own
 * process (with --cores, on the bench's cores, not the app's: answering a trivial page is next to
 * nothing, and the app's host answering its page is the app's).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createLogger } from '../src/main/core/log/logger';
import { startWebServer } from '../src/web/server';
import { type Spread, spread } from './stats';

const FLOOR_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Packdesk floor</title></head>
  <body><h1>Queue</h1><p>A trivial page: what the browser alone takes to show something.</p></body>
</html>
`;

/**
 * The tap's floor (bench/tap-floor.ts): a button whose click changes a line of text in its own
 * handler, nothing else; its script from a file, as the harness's CSP wants.
 */
const TAP_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Packdesk tap floor</title><script src="tap.js" defer></script></head>
  <body><h1>Order</h1><button id="tap" type="button">Start packing</button><p id="state">Not tapped</p></body>
</html>
`;
const TAP_SCRIPT = `let taps = 0;
document.getElementById('tap').addEventListener('click', () => {
  taps += 1;
  document.getElementById('state').textContent = 'Tapped ' + taps + ' times';
});
`;

/**
 * Makes the page's main thread `rate` times slower (Chromium's CPU throttling through CDP), to
 * read a measure as a slower terminal would see it: 1 leaves the page as it is. Only the page's
 * own thread is slowed; the browser process, the compositor, raster and font decoding are not,
 * so this is a rough stand-in for a slower PC, not a model of one.
 */
export async function slowPageThread(page: Page, rate: number): Promise<void> {
  if (rate <= 1) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/**
 * In-page: resolves, after the next paint, with `{ at, frameAt, frameTime }`: `performance.now()`
 * then, when that frame's callbacks ran, and its frame time (the display tick it was begun for, the
 * timestamp requestAnimationFrame hands its callbacks). Each call's own: two probes in flight do not
 * share them. Painted: the frame's rAF has run and a task queued from it has started. The one probe
 * of "painted" for the queue's first render, a tap, and their floors.
 */
export const AFTER_PAINT = `() => new Promise((resolve) => requestAnimationFrame((frameTime) => { const frameAt = performance.now(); setTimeout(() => resolve({ at: performance.now(), frameAt, frameTime }), 0); }))`;

/**
 * In-page: resolves once the expression `ready` is true (checked every 20 ms), or fails after
 * `timeoutMs`. For waiting on a load being measured: page.waitForFunction has Playwright install
 * its selector engine in the page first, a large script whose evaluation (20-45 ms of one core in
 * a trace) ran while the queue's first frame was still being drawn and rastered, and held its
 * paint back; one page.evaluate of this needs only Playwright's small evaluation helper.
 */
export function whenInPage(ready: string, timeoutMs = 60_000): string {
  return `new Promise((resolve, reject) => {
    const since = performance.now();
    const check = () => {
      try {
        if (${ready}) resolve(true);
        else if (performance.now() - since > ${timeoutMs}) reject(new Error('not ready after ${timeoutMs} ms: ' + ${JSON.stringify(ready)}));
        else setTimeout(check, 20);
      } catch (error) {
        reject(error);
      }
    };
    check();
  })`;
}

/** Painted as the queue's probe has it (AFTER_PAINT), once the document's content is in. */
const PAINT_PROBE = `(() => {
  window.__floor = {};
  document.addEventListener('DOMContentLoaded', () => {
    window.__floor.domAt = performance.now();
    (${AFTER_PAINT})().then((p) => { window.__floor.paintedAt = p.at; });
  });
})()`;

type Profile = 'cold' | 'kept';

export interface Floor {
  profile: Profile;
  painted: Spread;
  /** The document's response start (navigation to the HTML arriving), median. */
  responseMedian: number;
}

/** Loads the trivial page `loads` times (after one warm-up load not counted) in each kind of profile. */
/** The trivial page, served by the harness's own server (its headers, its CSP) on 127.0.0.1. */
export interface FloorServer {
  readonly url: string;
  /** The tap floor's page. */
  readonly tapUrl: string;
  close(): Promise<void>;
}

export async function startFloorServer(): Promise<FloorServer> {
  const root = mkdtempSync(join(tmpdir(), 'packdesk-bench-floor-'));
  // /floor.html, not index.html: the harness gives index.html the bridge and the contract's preload.
  writeFileSync(join(root, 'floor.html'), FLOOR_PAGE);
  writeFileSync(join(root, 'tap.html'), TAP_PAGE);
  writeFileSync(join(root, 'tap.js'), TAP_SCRIPT);
  try {
    const server = await startWebServer({
      rendererDir: root,
      handle: () => Promise.resolve({ ok: false, problem: { kind: 'invalid', message: 'The floor page asks for nothing' } }),
      subscribe: () => () => undefined,
      bridge: () => Promise.resolve(''),
      log: createLogger([]),
    });
    return {
      url: `${server.origin}/floor.html`,
      tapUrl: `${server.origin}/tap.html`,
      async close() {
        await server.close();
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

export async function measureFloor(
  browser: Browser,
  launch: Parameters<typeof chromium.launchPersistentContext>[1],
  loads: number,
  slowdown = 1,
): Promise<Floor[]> {
  const server = await startFloorServer();
  const url = server.url;
  try {
    const out: Floor[] = [];
    for (const profile of ['cold', 'kept'] as const) {
      const profileDir = profile === 'kept' ? mkdtempSync(join(tmpdir(), 'packdesk-bench-floor-profile-')) : null;
      const context = profileDir ? await chromium.launchPersistentContext(profileDir, { ...launch, viewport: { width: 1366, height: 768 } }) : null;
      try {
        const open = (): Promise<Page> => (context ? context.newPage() : browser.newPage({ viewport: { width: 1366, height: 768 } }));
        const painted: number[] = [];
        const response: number[] = [];
        for (let i = 0; i < loads + 1; i++) {
          const page = await open();
          await slowPageThread(page, slowdown);
          await page.addInitScript({ content: PAINT_PROBE });
          await page.goto(url);
          await page.evaluate(whenInPage('window.__floor.paintedAt !== undefined'));
          const at = (await page.evaluate(
            `({ painted: window.__floor.paintedAt, response: performance.getEntriesByType('navigation')[0]?.responseStart ?? NaN })`,
          )) as { painted: number; response: number };
          if (i > 0) {
            painted.push(at.painted);
            response.push(at.response);
          }
          await page.close();
        }
        out.push({ profile, painted: spread(painted), responseMedian: spread(response).median });
      } finally {
        await context?.close();
        if (profileDir) rmSync(profileDir, { recursive: true, force: true });
      }
    }
    return out;
  } finally {
    await server.close();
  }
}

/** One line per profile, apart from the measure against the bound. */
export function floorReport(floors: Floor[], slowdown = 1): string {
  const slowed = slowdown > 1 ? `, the page's thread slowed ${slowdown}x` : '';
  return floors
    .map(
      (f) =>
        `Floor (not the measure): a trivial page from the same harness server, navigation to painted, ${f.profile === 'kept' ? 'profile kept' : 'fresh profile each load'}${slowed} (n=${f.painted.n}): ` +
        `median ${f.painted.median.toFixed(1)} ms  p95 ${f.painted.p95.toFixed(1)} ms; the HTML's first byte at ${f.responseMedian.toFixed(1)} ms (median)`,
    )
    .join('\n');
}
