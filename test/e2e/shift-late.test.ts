/**
 * "Packed late" is red only when something was packed late (issue 40, item 11): a day with none
 * shows its 0 in the ink of the other counts; once an order is marked packed after its promised
 * time the count turns red. Before, "Packed late 0" was red, as if something were wrong.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFromTopBar, openTerminal, shot, tapStep, typeOrderId, type Terminal } from './support';

const lateColour = (page: Page) => page.getByTestId('count-late').locator('dd').evaluate((dd) => getComputedStyle(dd).color);
const inkOf = (page: Page) => page.getByTestId('count-packed').locator('dd').evaluate((dd) => getComputedStyle(dd).color);

describe('the shift screen\'s "packed late"', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 30, viewport: { width: 1366, height: 768 }, settings: { undoWindowMs: 0 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is red only above 0', async () => {
    const { page } = t;
    await openFromTopBar(page, 'shift');
    await page.locator('[data-testid="count-late"][data-value="0"]').waitFor();
    await expect(lateColour(page)).resolves.toBe(await inkOf(page));
    await shot(page, 'shift-late-none');

    // An order already past its promised PACKED time, packed now.
    await page.keyboard.press('Escape');
    const late = page.locator('[data-testid="order-row"]:has(.deadline-late)').filter({ hasText: /Accept/ }).first();
    const orderId = (await late.getAttribute('data-order-id')) as string;
    await typeOrderId(page, orderId);
    for (const step of ['ACCEPT', 'PACKING', 'PACKED']) await tapStep(page, step);
    await page.locator('[data-testid="next-step"][data-step="OUT_FOR_DELIVERY"]').waitFor({ timeout: 15_000 });
    await openFromTopBar(page, 'shift');
    await page.locator('[data-testid="count-late"][data-value="1"]').waitFor({ timeout: 15_000 });
    await expect(lateColour(page)).resolves.toBe('rgb(179, 38, 30)');
    await shot(page, 'shift-late-one');
  }, 60_000);
});
