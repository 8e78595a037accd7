/**
 * What the packer sees is whole: at 1024 px the top bar keeps every control on screen once the
 * new-order badge shows, and the queue's customer names are not cut; before Accept at 1366x768 every item of the order is in view (or how many
 * there are, with a cue to scroll); the invoice field's placeholder is not cut; a cancelled order
 * offers no packing slip. In English and Hindi, with screenshots.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallControls } from './geometry';
import { openTerminal, shot, typeOrderId, type Terminal } from './support';

/** Whether an input is wide enough for its placeholder in the font it is drawn in. */
const placeholderFits = (page: Page, selector: string): Promise<{ fits: boolean; text: string }> =>
  page.locator(selector).evaluate((el) => {
    const input = el as HTMLInputElement;
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { fits: context.measureText(input.placeholder).width <= room, text: input.placeholder };
  });

/** Top-bar controls not wholly inside the window, and whether the page scrolls sideways. */
const topBarSpill = (page: Page): Promise<{ cut: string[]; sideways: boolean }> =>
  page.evaluate(() => {
    const cut: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('.top-bar button, .top-bar input, .top-bar [data-testid]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      const clipped = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible';
      if (r.left < -0.5 || r.right > window.innerWidth + 0.5 || clipped) cut.push((el.dataset.testid ?? el.textContent ?? el.tagName).trim().slice(0, 30));
    }
    return { cut, sideways: document.documentElement.scrollWidth > window.innerWidth };
  });

/** Customers' names cut short in the queue's rows in view. */
const cutNames = (page: Page): Promise<string[]> =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="order-row"] .row-customer')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > 0 && r.top < window.innerHeight && el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => el.textContent ?? ''),
  );

/** Item rows wholly in view above the big button, and the count the screen gives of them. */
const itemsBeforeAccept = (page: Page): Promise<{ rows: number; inView: number }> =>
  page.evaluate(() => {
    const button = document.querySelector('[data-testid="next-step"]')!.getBoundingClientRect();
    const rows = [...document.querySelectorAll('[data-testid="item-row"]')];
    const inView = rows.filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= Math.min(window.innerHeight, button.top > r.top ? window.innerHeight : button.top) + 0.5;
    }).length;
    return { rows: rows.length, inView };
  });

/** Switches the screens' language from the top bar (one tap), unless it is already that language. */
async function speak(page: Page, language: 'en' | 'hi'): Promise<void> {
  if ((await page.getByTestId(`language-${language}`).count()) > 0) await page.getByTestId(`language-${language}`).click();
  await page.waitForFunction((lang) => document.documentElement.lang === `${lang}-IN`, language);
}

describe("the packer's view", () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({
      settings: { intakeIntervalMs: 1_000 },
      engineOptions: { intakeMinIntervalMs: 500 },
      sandboxOptions: { arrivalEveryMs: 0, changesMinIntervalMs: 0 },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('at 1024 px the top bar keeps every control on screen with the new-order badge, in English and Hindi', async () => {
    const { page, sandbox } = t;
    await page.setViewportSize({ width: 1024, height: 768 });
    sandbox.placeOrder();
    await page.getByTestId('new-order-count').waitFor({ timeout: 15_000 });
    for (const language of ['en', 'hi'] as const) {
      await speak(page, language);
      await shot(page, `74-${language}-top-bar-1024-badge`);
      expect(await topBarSpill(page), language).toEqual({ cut: [], sideways: false });
      expect(await placeholderFits(page, '#order-id-entry'), language).toMatchObject({ fits: true });
      expect(await smallControls(page), language).toEqual([]);
      expect(await cutNames(page), language).toEqual([]);
    }
    await speak(page, 'en');
    await page.setViewportSize({ width: 1366, height: 768 });
  }, 60_000);

  it('before Accept at 1366x768 every item of the order is in view, or its count with a cue to scroll', async () => {
    const { page, sandbox } = t;
    // The new order with the most lines: the hardest to see whole.
    const fresh = sandbox.orders().filter((o) => o.orderState.toLowerCase() === 'created');
    const most = fresh.reduce((a, b) => (b.items.length > a.items.length ? b : a));
    for (const language of ['en', 'hi'] as const) {
      await speak(page, language);
      await typeOrderId(page, most.id);
      await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').waitFor();
      await page.getByTestId('item-row').first().waitFor();
      const seen = await itemsBeforeAccept(page);
      expect(seen.rows).toBe(most.items.length);
      // Not all fit at 768 px: in view, the screen says how many there are and how many are below.
      expect(seen.inView, language).toBeLessThan(seen.rows);
      await expect(page.getByTestId('items-count').textContent()).resolves.toContain(String(most.items.length));
      const cue = page.getByTestId('items-more');
      await cue.waitFor();
      const box = (await cue.boundingBox())!;
      expect(box.y + box.height, `${language}: the cue is in view`).toBeLessThanOrEqual(768);
      expect(box.height).toBeGreaterThanOrEqual(56);
      await expect(cue.textContent()).resolves.toContain(String(seen.rows - seen.inView));
      await expect(cue.textContent()).resolves.toContain(String(seen.rows));
      await shot(page, `75-${language}-before-accept-1366`);
      // One tap brings the last item into view, and the cue goes once nothing is below.
      await cue.click();
      const last = page.locator('[data-testid="item-row"]').last();
      await expect.poll(() => last.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight + 0.5)).toBe(true);
      await cue.waitFor({ state: 'detached' });
      await page.keyboard.press('Escape');
    }
    await speak(page, 'en');
  }, 60_000);

  it("the invoice field shows its whole placeholder; a cancelled order offers no packing slip", async () => {
    const { page, sandbox } = t;
    const open = sandbox.orders().find((o) => o.orderState === 'Accepted')!;
    for (const width of [1366, 1024]) {
      await page.setViewportSize({ width, height: 768 });
      for (const language of ['en', 'hi'] as const) {
        await speak(page, language);
        await typeOrderId(page, open.id);
        await page.getByTestId('invoice-input').waitFor();
        expect(await placeholderFits(page, '[data-testid="invoice-input"]'), `${language} at ${width}`).toMatchObject({ fits: true });
        await page.getByTestId('print-slip').waitFor();
        await page.keyboard.press('Escape');
      }
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    await speak(page, 'en');
    const cancelled = sandbox.orders().find((o) => o.orderState === 'Cancelled')!;
    await typeOrderId(page, cancelled.id);
    await page.getByTestId('order-state').filter({ hasText: 'Cancelled' }).waitFor();
    await shot(page, '76-en-cancelled-no-slip');
    await expect(page.getByTestId('print-slip').count()).resolves.toBe(0);
    expect(t.problems).toEqual([]);
  }, 60_000);
});
