/**
 * A dialog opens clean (issue 40, item 5): a refusal said on the screen before a dialog opened is
 * not shown inside it; one said while it is open is. Before, "Which item is this?" opened with
 * "Too many: Savlon…" from the scan before, and the Take over confirm with a refusal from earlier.
 * Once the dialog closes, the refusal it left out is on the screen again until acknowledged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/protocol';
import { acceptOrder, afterRepeatWindow, openTerminal, orderPool, scannerKeys, scanUntilSeen, shot, tapStep, type Terminal } from './support';
import { PACK_REPEAT_WINDOW_MS } from '../../src/renderer/src/scanner/repeat';

/** An EAN-13 no seeded item has as its code: "Which item is this?". */
const NEW_BARCODE = '8901234567890';

describe('a dialog opens clean', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 20, viewport: { width: 1366, height: 768 }, settings: { scanToPack: true, undoWindowMs: 0 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows no refusal from before it opened, and one said while it is open', async () => {
    const { page, sandbox } = t;
    const order = orderPool(sandbox)((o) => o.items.some((i) => i.quantity.count === 1 && i.serviceProviderItemId !== undefined));
    const single = order.items.find((i) => i.quantity.count === 1 && i.serviceProviderItemId !== undefined) as Item;
    await acceptOrder(t, order);
    await tapStep(page, 'PACKING');
    await page.getByTestId('pack-checklist').waitFor();

    // One unit wanted: the first scan ticks it, the second (half a second on) is one too many.
    const row = (n: number) => page.locator(`[data-testid="pack-row"][data-item-id="${single.itemId}"][data-scanned="${n}"]`);
    await scanUntilSeen(page, single.serviceProviderItemId as string, row(1));
    await afterRepeatWindow(page, PACK_REPEAT_WINDOW_MS);
    await scanUntilSeen(page, single.serviceProviderItemId as string, page.getByTestId('notice-error').locator('.notice-text'));
    const tooMany = await page.getByTestId('notice-error').innerText();
    expect(tooMany).toContain('Too many');

    // A barcode new to the store: "Which item is this?" opens without the refusal from before.
    await scanUntilSeen(page, NEW_BARCODE, page.getByTestId('teach-dialog'));
    const dialog = page.getByTestId('teach-dialog');
    await shot(page, 'dialog-clean-teach');
    await expect(dialog.getByTestId('notice-error').innerText()).resolves.toBe('');
    await expect(page.locator('[data-testid="notice-error"]:visible').count()).resolves.toBe(0);

    // Something refused while it is open is said inside it.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await scannerKeys(page, 'ORD-9999999');
    await dialog.getByTestId('notice-error').locator('.notice-text').waitFor();
    await expect(dialog.getByTestId('notice-error').innerText()).resolves.toContain('open window');

    // Closed: the screen's refusal line shows what is current, the last refusal.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('notice-error').locator('.notice-text').waitFor();
    expect(t.problems).toEqual([]);
  }, 90_000);
});
