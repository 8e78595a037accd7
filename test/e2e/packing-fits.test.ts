/**
 * The packer sees the order while packing, on the screens stores have (issue 40, item 1): with a
 * packer signed in and the new-order badge showing, at 1024x768, 1366x768 and 1920x1080, in
 * English and Hindi, the big step button and the first three items (before Accept) or the first
 * three lines of the scan checklist (once accepted) are on screen without scrolling; the top bar
 * is one row from 1366 wide; the queue shows at least six whole orders. Before, at 1024x768 the
 * top bar took two rows and not one item was in view.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlRows, coveredControls, crowdedControls, enabledControlsInView, notWhollyInView, rowsInView, smallControls } from './geometry';
import type { Item } from '../../src/shared/protocol';
import { appliedTo, axe, MANAGER_PIN, openTerminal, orderPool, scanUntilSeen, shot, showLanguage, tapStep, typeOrderId, until, type Terminal } from './support';

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;
const LANGUAGES = ['en', 'hi'] as const;


describe('the packing screen on the screens stores have', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({
      orderCount: 30,
      viewport: { width: 1024, height: 768 },
      settings: { intakeIntervalMs: 1_000, scanToPack: true },
      engineOptions: { intakeMinIntervalMs: 500 },
      sandboxOptions: { arrivalEveryMs: 0, changesMinIntervalMs: 0 },
    });
    const added = await t.harness.host.handle('staff.add', { pin: MANAGER_PIN, name: 'Ravi Kumar', packerPin: '5791' });
    if (!added.ok) throw new Error(added.problem.message);
    const signedIn = await t.harness.host.handle('staff.signIn', { packerPin: '5791' });
    if (!signedIn.ok) throw new Error(signedIn.problem.message);
    await t.page.getByTestId('packer-sign-out').waitFor();
    t.sandbox.placeOrder();
    t.sandbox.placeOrder();
    await t.page.getByTestId('new-order-count').waitFor({ timeout: 15_000 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Everything wrong with one screen at every size and language, by `check`, with a screenshot each. */
  async function atEverySize(name: string, check: (size: (typeof SIZES)[number]) => Promise<string[]>): Promise<string[]> {
    const { page } = t;
    const problems: string[] = [];
    for (const language of LANGUAGES) {
      await showLanguage(page, language);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
        problems.push(...(await check(size)).map((p) => `${name}, ${language}, ${size.width}x${size.height}: ${p}`));
        await shot(page, `fits-${name}-${language}-${size.width}`);
      }
    }
    await page.setViewportSize(SIZES[0]);
    return problems;
  }

  /** The top bar: one row from 1366 wide, every control whole and apart at any width. */
  async function topBarProblems(page: Page, width: number): Promise<string[]> {
    const out = await crowdedControls(page, '.top-bar');
    const rows = await controlRows(page, '.top-bar');
    if (width >= 1366 && rows > 1) out.push(`the top bar takes ${rows} rows`);
    return out;
  }

  it('shows the big button and the first three items or checklist lines without scrolling, with a packer signed in and new orders waiting', async () => {
    const { page, sandbox } = t;
    await expect(page.getByTestId('new-order-count').isVisible()).resolves.toBe(true);
    const take = orderPool(sandbox);
    const order = take((o) => o.items.length >= 4);
    await typeOrderId(page, order.id);
    await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').waitFor();

    const orderProblems = (lines: string) => async (size: { width: number }) => [
      ...(await topBarProblems(page, size.width)),
      ...(await notWhollyInView(page, '[data-testid="next-step"]', 1)),
      ...(await notWhollyInView(page, lines, 3)),
    ];
    const problems = await atEverySize('accept', orderProblems('[data-testid="item-row"]'));

    await tapStep(page, 'ACCEPT');
    await until(`${order.id} accepted at the service`, () => appliedTo(sandbox, order.id).length >= 1);
    await page.locator('[data-testid="next-step"][data-step="PACKING"]').waitFor();
    await page.getByTestId('pack-row').first().waitFor();
    problems.push(...(await atEverySize('start-packing', orderProblems('[data-testid="pack-row"]'))));

    await tapStep(page, 'PACKING');
    await page.locator('[data-testid="next-step"][data-step="PACKED"]').waitFor();
    problems.push(...(await atEverySize('mark-packed', orderProblems('[data-testid="pack-row"]'))));
    expect(problems).toEqual([]);
    expect(t.problems).toEqual([]);
  }, 120_000);

  it('shows at least six whole orders in the queue and the top bar on one row from 1366 wide', async () => {
    const { page } = t;
    await page.keyboard.press('Escape');
    await page.getByTestId('queue-list').waitFor();
    await expect(page.getByTestId('new-order-count').isVisible()).resolves.toBe(true);
    const problems = await atEverySize('queue', async (size) => {
      const out = await topBarProblems(page, size.width);
      const rows = await rowsInView(page);
      if (rows < 6) out.push(`${rows} whole orders in view`);
      return out;
    });
    expect(problems).toEqual([]);
  }, 60_000);

  it('puts Outbox, Settings and Shift behind More up to 1400 px wide: each opens its screen, Escape closes it, axe finds nothing', async () => {
    const { page } = t;
    for (const language of LANGUAGES) {
      await showLanguage(page, language);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        const more = page.getByTestId('nav-more');
        if (size.width > 1400) {
          await expect(more.isVisible()).resolves.toBe(false);
          await expect(page.getByTestId('nav-outbox').isVisible()).resolves.toBe(true);
          continue;
        }
        await expect(page.getByTestId('nav-outbox').isVisible()).resolves.toBe(false);
        await more.click();
        const menu = page.getByTestId('nav-more-menu');
        await menu.waitFor();
        await shot(page, `fits-more-menu-${language}-${size.width}`);
        await expect(smallControls(page)).resolves.toEqual([]);
        await expect(coveredControls(page).then((c) => c.filter((x) => x.includes('nav-more-')))).resolves.toEqual([]);
        expect((await axe(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
        // Escape closes the menu and leaves the screen as it was.
        await page.getByTestId('order-screen').or(page.getByTestId('queue-list')).first().waitFor();
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'hidden' });
        await page.getByTestId('queue-list').waitFor();
        await more.click();
        await page.getByTestId('nav-more-outbox').click();
        await page.getByTestId('outbox-screen').waitFor();
        await menu.waitFor({ state: 'hidden' });
        await expect(more.getAttribute('aria-current')).resolves.toBe('page');
        await page.keyboard.press('Escape');
        await page.getByTestId('queue-list').waitFor();
      }
    }
    await page.setViewportSize(SIZES[0]);
  }, 60_000);
});

describe('the undo bar on the order screen', () => {
  let t: Terminal;
  beforeAll(async () => {
    // An undo window long enough to look under the bar at leisure; scan to pack, whose ticks are said in the dock.
    t = await openTerminal({ orderCount: 40, viewport: { width: 1366, height: 768 }, settings: { undoWindowMs: 6_000, scanToPack: true } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * Taps the big button at `step`, then scans a unit of `item` while the undo bar is up (its tick is
   * said in the dock), and says which controls in view before that now lie under the dock: a
   * finger on its way to one lands on the message or the bar.
   */
  async function tapThenScan(step: string, item: Item, scanned: number, tag: string): Promise<string[]> {
    const { page } = t;
    const button = page.locator(`[data-testid="next-step"][data-step="${step}"]`);
    await button.waitFor({ timeout: 15_000 });
    await button.click();
    await page.getByTestId('undo-bar').waitFor();
    await page.getByTestId('pack-checklist').waitFor();
    const dockBefore = await page.locator('footer.dock').boundingBox();
    const before = (await enabledControlsInView(page)).filter((c) => c.top < (dockBefore?.y ?? 0));
    await scanUntilSeen(page, item.serviceProviderItemId!, page.locator(`[data-testid="pack-row"][data-item-id="${item.itemId}"][data-scanned="${scanned}"]`));
    await page.getByTestId('notice-info').locator('.notice-text').waitFor();
    await expect(page.getByTestId('undo-bar').isVisible()).resolves.toBe(true);
    await shot(page, `undo-${tag}`);
    const dock = await page.locator('footer.dock').boundingBox();
    if (!dock) throw new Error('no dock');
    return before
      .filter((c) => c.bottom > dock.y + 0.5 && c.top < dock.y + dock.height - 0.5)
      .map((c) => `${tag}: ${c.what} (${Math.round(c.bottom - dock.y)} px under the dock)`);
  }

  it('covers no enabled control when a scan is said while the undo bar is up, after Accept and after Start packing, at every size and language', async () => {
    const { page, sandbox } = t;
    const take = orderPool(sandbox);
    const problems: string[] = [];
    for (const language of LANGUAGES) {
      await showLanguage(page, language);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        const tag = `${language}-${size.width}`;
        const order = take((o) => o.items.length >= 3 && o.items.every((i) => i.serviceProviderItemId !== undefined) && o.items[0]!.quantity.count >= 2);
        await typeOrderId(page, order.id);
        await page.getByTestId('undo-bar').waitFor({ state: 'detached', timeout: 15_000 });
        const first = order.items[0]!;
        problems.push(...(await tapThenScan('ACCEPT', first, 1, `accept-${tag}`)));
        await page.getByTestId('undo-bar').waitFor({ state: 'detached', timeout: 15_000 });
        // The next unit of the same product, half a second on: a second unit.
        problems.push(...(await tapThenScan('PACKING', first, 2, `start-packing-${tag}`)));
        await page.keyboard.press('Escape');
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);
});
