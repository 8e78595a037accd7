/**
 * The frame stays put (issue 40, item 2): scrolling past the end of a screen with the mouse wheel
 * scrolls only the screen, never the window, so the top bar, the sync bar and the big button stay
 * in view. Before, visually hidden elements made the document taller than the window, and the
 * wheel carried on scrolling it until only a grey screen was left.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettings, openTerminal, orderPool, shot, typeOrderId, type Terminal } from './support';

/** How far the window itself is scrolled, and where the frame's bars are. */
const frame = (page: Page) =>
  page.evaluate(() => ({
    windowScroll: Math.round((document.scrollingElement ?? document.documentElement).scrollTop),
    topBar: Math.round(document.querySelector('.top-bar')?.getBoundingClientRect().top ?? -1),
    syncBar: Math.round(document.querySelector('[data-testid="sync-bar"]')?.getBoundingClientRect().top ?? -1),
  }));

describe('the frame around every screen', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 20, viewport: { width: 1366, height: 768 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never scrolls away from its top bar, on Settings and on an order, however far the wheel goes', async () => {
    const { page } = t;
    const start = await frame(page);
    expect(start.windowScroll).toBe(0);
    const problems: string[] = [];
    const wheelPastTheEnd = async (where: string) => {
      // Over the screen, then over the top bar and the sync bar.
      for (const [x, y] of [
        [683, 500],
        [683, 40],
        [683, 120],
      ] as const) {
        await page.mouse.move(x, y);
        for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 1_500);
      }
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
      const now = await frame(page);
      if (JSON.stringify(now) !== JSON.stringify(start)) problems.push(`${where}: ${JSON.stringify(now)}, was ${JSON.stringify(start)}`);
      await shot(page, `frame-wheel-${where}`);
    };

    await openSettings(page);
    await page.getByTestId('terminal-form').waitFor();
    await wheelPastTheEnd('settings');

    await page.keyboard.press('Escape');
    const order = orderPool(t.sandbox)((o) => o.items.length >= 3);
    await typeOrderId(page, order.id);
    await wheelPastTheEnd('order');
    expect(problems).toEqual([]);
    await expect(page.getByTestId('next-step').isVisible()).resolves.toBe(true);
  }, 60_000);
});
