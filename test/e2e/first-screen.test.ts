/**
 * The queue before the app's script has run: the host draws the first screen into the page's HTML
 * (core/ui/firstScreen, renderer firstScreen/), so a packer sees the orders as soon as the page
 * and its style sheet are in. Here the app's script is held back at the network: the queue, the
 * sync bar and the filters are on screen in the terminal's language, with no script of the app's
 * run and nothing refused by the page's CSP. A row tapped then opens once the script is let
 * through and the app's own queue has replaced the drawing; from then on a tap opens an order at
 * once. A customer's name that looks like HTML is shown as the text it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { afterNextFrame, axe, openTerminal, shot, until, type AxeFinding, type Terminal } from './support';

const serious = (v: AxeFinding[]) => v.filter((f) => f.impact === 'serious' || f.impact === 'critical');

/**
 * Holds back every request whose address matches `pattern` until the function it answers is
 * called; from then on they go through.
 */
async function holdRequests(page: Page, pattern: RegExp): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let release = false;
  await page.route(pattern, (route) => (release ? route.continue() : void held.push(route)));
  return async () => {
    release = true;
    // A request the page gave up on (it was reloaded) cannot be continued: nothing waits for it.
    for (const route of held.splice(0)) await route.continue().catch(() => undefined);
  };
}

/**
 * The app's own script (start.tsx's chunk: React, the stores, the words), held until released.
 * The page's small entry (main.tsx) runs as it would: it waits for the first frame, then asks for it.
 */
const holdAppScript = (page: Page) => holdRequests(page, /\/assets\/start-[^/]+\.js$/);

/** The bold Devanagari face (the language button's "हिन्दी"), held until released. */
const holdBoldFace = (page: Page) => holdRequests(page, /devanagari-devanagari-700-[^/]*\.woff2$/);

/** Where each button of the drawn top bar is: its left edge and width. */
const topBarButtons = (page: Page) =>
  page.locator('.first-screen .top-bar button').evaluateAll((buttons) => buttons.map((b) => `${b.textContent}: ${b.getBoundingClientRect().left} + ${b.getBoundingClientRect().width}`));

/**
 * Where the first row and its parts are: its width, and the left edges of its id and of its step
 * button. In the drawing before the app is up, in the app's queue after.
 */
const firstRowGeometry = (page: Page) =>
  page.locator('[data-testid="order-row"]').first().evaluate((row) => {
    const left = (selector: string) => row.querySelector(selector)?.getBoundingClientRect().left ?? NaN;
    const box = row.getBoundingClientRect();
    return { top: box.top, width: box.width, id: left('.row-id'), step: left('.step-pill') };
  });

/** The left edges of the first step filters, in the drawing and in the app's queue. */
const filtersAt = (page: Page) =>
  page.locator('.step-filters .filter-chip').evaluateAll((chips) => chips.slice(0, 3).map((c) => `${c.getAttribute('data-testid')}: ${c.getBoundingClientRect().left}`));

/** Whether any of the app's code has run in the page (main.tsx marks its start). */
const appRan = (page: Page) => page.evaluate(() => performance.getEntriesByName('packdesk:script').length > 0);

/** The ids of the rows on screen, top to bottom. */
const rowIds = (page: Page) => page.locator('[data-testid="order-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')));

let terminal: Terminal | undefined;
afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
});

describe('the queue drawn into the page', () => {
  it('shows the queue before the app has run; a row tapped then opens once the app is up (English, 1024)', async () => {
    let release: (() => Promise<void>) | undefined;
    let releaseFace: (() => Promise<void>) | undefined;
    terminal = await openTerminal({
      viewport: { width: 1024, height: 768 },
      // As on a terminal: the app's list shows a scrollbar, the drawing's (which does not scroll) none.
      scrollbars: true,
      waitForApp: false,
      // What is tested is the drawing, not how quickly a busy test machine draws it.
      firstScreenBudgetMs: 10_000,
      beforeOpen: async (page) => {
        release = await holdAppScript(page);
        releaseFace = await holdBoldFace(page);
      },
    });
    const { page, harness } = terminal;
    // openTerminal has waited for the first row: it came with the HTML.
    expect(await appRan(page)).toBe(false);
    await expect(page.locator('.first-screen').count()).resolves.toBe(1);
    const head = await harness.host.handle('orders.head', { rows: 6 });
    if (!head.ok) throw new Error(head.problem.message);
    const firstIds = (head.value as { rows: { id: string }[] }).rows.map((r) => r.id);
    expect((await rowIds(page)).slice(0, 6)).toEqual(firstIds);
    // Each row as the app draws it: the customer, the items, the next step.
    const firstRow = page.locator('[data-testid="order-row"]').first();
    await expect(firstRow.locator('.row-customer').textContent()).resolves.toMatch(/\S/);
    await expect(firstRow.locator('.step-pill').textContent()).resolves.toMatch(/\S/);
    // The rows sit one under the other at the app's row height, inside the list's box, not piled up.
    const boxes = await page.locator('[data-testid="order-row"]').evaluateAll((rows) => rows.slice(0, 3).map((r) => r.getBoundingClientRect().top));
    expect(boxes[1]! - boxes[0]!).toBe(80);
    expect(boxes[2]! - boxes[1]!).toBe(80);
    const drawnRow = await firstRowGeometry(page);
    const drawnFilters = await filtersAt(page);
    await expect(page.getByTestId('sync-connectivity').textContent()).resolves.toContain('Online');
    await expect(page.getByTestId('filter-ALL').textContent()).resolves.toContain('40');
    // No other Devanagari on this screen than the language button's "हिन्दी": the page preloads
    // no font (Chromium holds the first paint for a preloaded one, up to 50 ms), and the bold face
    // "हिन्दी" is drawn in is asked for at the first layout.
    await expect(page.locator('link[rel="preload"][as="font"]').count()).resolves.toBe(0);
    // However late that face comes (held back here until the drawing is on screen), no top-bar
    // button moves when it does: "हिन्दी" is as wide before it as after (topbar.css). Without that,
    // the button shrank by 31 px and every other one moved.
    await afterNextFrame(page);
    const boldFaceIn = () => page.evaluate(() => document.fonts.check('700 16px "Noto Sans Devanagari"', 'हिन्दी'));
    expect(await boldFaceIn()).toBe(false);
    const before = await topBarButtons(page);
    await releaseFace!();
    // "हिन्दी" on its button is drawn in its font, not left as the boxes of the first layout (no
    // system font here has Devanagari): once the font is in, the drawn button looks exactly as a
    // new copy of it put in its place.
    const languageButton = page.locator('.first-screen .language-button');
    await until('the Devanagari font in', boldFaceIn);
    await afterNextFrame(page);
    expect(await topBarButtons(page)).toEqual(before);
    // That width is the name's own in its face (topbar.css's 2.05em): not cut, no gap beside it.
    const fit = await page.locator('.first-screen .language-name').evaluate((name) => {
      const text = document.createRange();
      text.selectNodeContents(name);
      return name.getBoundingClientRect().width - text.getBoundingClientRect().width;
    });
    expect(fit).toBeGreaterThanOrEqual(0);
    expect(fit).toBeLessThan(1);
    const clip = (await languageButton.boundingBox())!;
    const drawn = await page.screenshot({ clip });
    // The reference: a copy in its place, set in the Devanagari font alone.
    await languageButton.evaluate((button) => {
      const copy = button.cloneNode(true) as HTMLElement;
      copy.style.fontFamily = '"Noto Sans Devanagari"';
      button.replaceWith(copy);
    });
    await afterNextFrame(page);
    expect(drawn.equals(await page.screenshot({ clip }))).toBe(true);
    await shot(page, 'first-screen-before-script-en-1024');
    expect(serious(await axe(page))).toEqual([]);

    // A packer taps the second order while the app is not up yet: the tap is kept, and the order
    // opens once the app has replaced the drawing.
    await page.locator(`.first-screen [data-order-id="${firstIds[1]}"]`).click();
    expect(await appRan(page)).toBe(false);
    await release!();
    await page.locator(`[data-testid="order-screen"][data-order-id="${firstIds[1]}"]`).waitFor({ timeout: 20_000 });
    await expect(page.locator('.first-screen').count()).resolves.toBe(0);
    expect(await appRan(page)).toBe(true);
    // The app's script was asked for only once the drawing was on screen (its first contentful
    // paint presented), or at the entry's limit for a page that presents nothing: compiled beside
    // the frame's raster, it put the rows on screen later.
    const asked = await page.evaluate(() => {
      const start = performance.getEntriesByType('resource').find((e) => /\/assets\/start-[^/]+\.js$/.test(e.name));
      const entry = performance.getEntriesByType('resource').find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name)) as PerformanceResourceTiming | undefined;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return { start: start?.startTime ?? NaN, fcp: fcp?.startTime ?? NaN, entryIn: entry?.responseEnd ?? NaN };
    });
    expect(asked.start >= asked.fcp || asked.start >= asked.entryIn + 450, JSON.stringify(asked)).toBe(true);
    // Back on the app's own queue, the same order of rows, and a tap opens an order at once.
    await page.getByRole('button', { name: /^Orders/ }).first().click();
    expect((await rowIds(page)).slice(0, 6)).toEqual(firstIds);
    // Its rows are where the drawing's were: the drawing's list left room for the scrollbar the
    // app's list shows, so nothing moves sideways when the app takes over.
    const scrollbar = await page.locator('.queue-scroll').evaluate((list: HTMLElement) => list.offsetWidth - list.clientWidth - 2 * list.clientLeft);
    expect(scrollbar).toBeGreaterThan(0);
    expect(await firstRowGeometry(page)).toEqual(drawnRow);
    // At 1024 the filters do not fit: the drawing shows none of the app's arrows (it cannot measure
    // the row), and the app's arrow over the row's end moves no filter when it appears.
    await page.getByTestId('filters-more').waitFor();
    expect(await filtersAt(page)).toEqual(drawnFilters);
    await page.locator(`[data-testid="order-row"][data-order-id="${firstIds[0]}"]`).click();
    await page.locator(`[data-testid="order-screen"][data-order-id="${firstIds[0]}"]`).waitFor();
    // Nothing refused by the CSP (an inline style would be), no page error.
    expect(terminal.problems).toEqual([]);
  });

  it('is drawn in the terminal language and shows a name that looks like HTML as text (Hindi, 1920)', async () => {
    let release: (() => Promise<void>) | undefined;
    terminal = await openTerminal({
      orderCount: 3,
      settings: { language: 'hi', intakeIntervalMs: 1_000 },
      viewport: { width: 1920, height: 1080 },
      waitForApp: false,
      // What is tested is the drawing, not how quickly a busy test machine draws it.
      firstScreenBudgetMs: 10_000,
      beforeOpen: async (page) => void (release = await holdAppScript(page)),
    });
    const { page, sandbox } = terminal;
    // A new order whose customer's name is markup.
    const placed = sandbox.placeOrder();
    if (!placed.billing) throw new Error('a placed order has billing details');
    const odd = '<img id="injected" src="x"> & "Asha"';
    sandbox.serveOrder({ ...placed, billing: { ...placed.billing, name: odd } } as unknown as Parameters<typeof sandbox.serveOrder>[0]);
    // The order arrives with the next intake pass; the page drawn after it shows it.
    const end = Date.now() + 20_000;
    for (;;) {
      const found = await terminal.harness.host.handle('orders.head', { rows: 10 });
      if (found.ok && (found.value as { rows: { id: string; facts: unknown }[] }).rows.some((r) => r.id === placed.id && r.facts)) break;
      if (Date.now() > end) throw new Error('the served order did not arrive');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The regular Devanagari face is held back until the drawing is laid out, as on a busy PC
    // where it comes in after the first layout: the text must then be drawn in it, not kept as
    // the boxes of a layout without it.
    const releaseFont = await holdRequests(page, /devanagari-400-normal[^/]*\.woff2$/);
    await page.reload({ waitUntil: 'commit' });
    await page.locator(`[data-order-id="${placed.id}"]`).waitFor();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await releaseFont();
    await until('the regular Devanagari face in', () => page.evaluate(() => document.fonts.check('400 20px "Noto Sans Devanagari"', 'ऑर्डर')));
    await afterNextFrame(page);
    // The search's caption and the sync bar's "all sent" look exactly as new copies of them laid out
    // now that the face is in.
    for (const selector of ['.first-screen .id-entry-label', '.first-screen [data-testid="sync-waiting"]']) {
      const drawnText = page.locator(selector);
      const box = (await drawnText.boundingBox())!;
      const drawn = await page.screenshot({ clip: box });
      await drawnText.evaluate((element) => element.replaceWith(element.cloneNode(true)));
      await afterNextFrame(page);
      expect(drawn.equals(await page.screenshot({ clip: box })), selector).toBe(true);
    }
    expect(await appRan(page)).toBe(false);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('hi-IN');
    await expect(page.locator(`[data-order-id="${placed.id}"] .row-customer`).textContent()).resolves.toBe(odd);
    await expect(page.locator('#injected').count()).resolves.toBe(0);
    // Hindi words: the sync bar and the "All" filter as the app says them in Hindi.
    await expect(page.getByTestId('sync-connectivity').textContent()).resolves.not.toContain('Online');
    await expect(page.getByTestId('filter-ALL').textContent()).resolves.toMatch(/[\u0900-\u097F]/);
    // Its words are Devanagari: the fonts are preloaded, so the first paint has them.
    await expect(page.locator('link[rel="preload"][as="font"]').count()).resolves.toBe(2);
    await shot(page, 'first-screen-before-script-hi-1920');

    await release!();
    await page.locator('.first-screen').waitFor({ state: 'detached', timeout: 20_000 });
    await expect(page.locator(`[data-order-id="${placed.id}"] .row-customer`).textContent()).resolves.toBe(odd);
    expect(terminal.problems).toEqual([]);
  });
});
