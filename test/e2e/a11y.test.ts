/**
 * Accessibility in Chromium: axe-core finds no violation on any screen or dialog, and the keyboard
 * focus behaves (back to a dialog's opener, kept inside an open dialog, on the new screen after
 * navigation).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkEveryScreen } from './screens';
import { acceptOrder, axe, type AxeFinding, openTerminal, orderPool, shot, tapStep, typeOrderId, type Terminal } from './support';

/** What has the keyboard focus: its test id, or its tag and text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return 'nothing';
    return el.dataset.testid ?? `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim().slice(0, 30)}`;
  });
}

describe('accessibility', () => {
  it('axe finds no violation on any screen or dialog', async () => {
    const t = await openTerminal({ firstRun: true });
    try {
      const found: Record<string, AxeFinding[]> = {};
      await walkEveryScreen(
        t,
        async (name) => {
          const v = await axe(t.page);
          if (v.length > 0) found[name] = v;
        },
        { phantomId: 'ORD-0000073' },
      );
      expect(found).toEqual({});
    } finally {
      await t.close();
    }
  }, 180_000);

  describe('focus', () => {
    let t: Terminal;
    beforeAll(async () => {
      // A long undo window, so the undo bar is still up while axe looks at it.
      t = await openTerminal({ settings: { undoWindowMs: 8_000 } });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('lands on the new screen after navigation, returns to the opener after a dialog, and stays in an open dialog', async () => {
      const { page } = t;
      await page.keyboard.press('F4');
      await page.getByTestId('outbox-screen').waitFor();
      await expect(focused(page)).resolves.toBe('h1:Outbox');
      await page.keyboard.press('Escape');
      await page.getByTestId('queue-list').waitFor();
      await expect(focused(page)).resolves.toMatch(/^h1:Orders/);

      const order = orderPool(t.sandbox)((o) => o.items.some((i) => i.prescriptionRequired !== true));
      await acceptOrder(t, order);
      // Opened again by its number: the first action of an opened order is its big button. (The
      // button never grabs the focus by itself when it reappears: an Enter typed meanwhile would tap it.)
      await page.keyboard.press('Escape');
      await page.getByTestId('queue-list').waitFor();
      await typeOrderId(page, order.id);
      await expect(focused(page)).resolves.toBe('next-step');

      const plainItem = order.items.find((i) => i.prescriptionRequired !== true)!;
      const change = page.locator(`[data-testid="item-row"][data-item-id="${plainItem.itemId}"]`).getByTestId('change-units');
      await change.focus();
      await page.keyboard.press('Enter');
      const units = page.getByTestId('units-dialog');
      await units.waitFor();
      // The most common reason first, in the same place every time.
      await expect(units.locator('[data-reason]').first().getAttribute('data-reason')).resolves.toBe('ITEM_UNAVAILABLE');
      await page.keyboard.press('Escape');
      await units.waitFor({ state: 'detached' });
      await expect(change.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

      await page.getByTestId('cancel-order').click();
      const dialog = page.getByTestId('cancel-dialog');
      await dialog.waitFor();
      const stops = await dialog.evaluate((d) => d.querySelectorAll('button:not([disabled]), input, select, textarea').length);
      for (let i = 0; i < stops + 3; i++) {
        await page.keyboard.press('Tab');
        await expect(dialog.evaluate((d) => d.contains(document.activeElement))).resolves.toBe(true);
      }
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('Shift+Tab');
        await expect(dialog.evaluate((d) => d.contains(document.activeElement))).resolves.toBe(true);
      }
      await shot(page, '60-focus-in-dialog');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect(focused(page)).resolves.toBe('cancel-order');

      // The strip under the screen: the undo bar, then the notice that a tap was undone.
      await tapStep(page, 'PACKING');
      await page.getByTestId('undo-bar').waitFor();
      await expect(axe(page)).resolves.toEqual([]);
      await page.getByTestId('undo-bar').getByRole('button', { name: /Undo/ }).click();
      await page.getByTestId('notice-info').filter({ hasText: 'Undone' }).waitFor();
      await expect(axe(page)).resolves.toEqual([]);
      expect(t.problems).toEqual([]);
    }, 60_000);
  });
});
