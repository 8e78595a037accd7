/**
 * Words that match (issue 40, item 6), scan to pack in Chromium, English and Hindi: the checklist
 * says to tap Start packing when that is the button's step (it said "Mark the order packed" under
 * Start packing); cutting the units Mark packed asked about finishes Mark packed without a second
 * tap; a product of another order is named, with the order it is for (it said "Not in this order:
 * PH-DIGENE"); the sign-in window is titled "Sign in" (it said "Start packing", as the amber step).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item, Order } from '../../src/shared/protocol';
import { acceptOrder, afterRepeatWindow, appliedTo, MANAGER_PIN, nextStep, openTerminal, orderPool, scanUntilSeen, shot, tapStep, until, type Terminal } from './support';
import { PACK_REPEAT_WINDOW_MS } from '../../src/renderer/src/scanner/repeat';

for (const run of [
  { language: 'en', scanFirst: 'Tap Start packing, then Mark packed.', scanned: 'Mark the order packed.', signIn: 'Sign in', notIn: 'is for order' },
  { language: 'hi', scanFirst: 'पहले “पैकिंग शुरू करें” दबाएँ', scanned: 'ऑर्डर को पैक हुआ चिह्नित करें', signIn: 'साइन इन करें', notIn: 'का है' },
] as const) {
  describe(`words that match (${run.language})`, () => {
    let t: Terminal;
    let take: (want?: (o: Order) => boolean) => Order;
    beforeAll(async () => {
      t = await openTerminal({ orderCount: 30, viewport: { width: 1366, height: 768 }, settings: { scanToPack: true, undoWindowMs: 0, language: run.language } });
      take = orderPool(t.sandbox);
    });
    afterAll(async () => {
      await t?.close();
    });

    const coded = (o: Order) => o.items.length >= 2 && o.items.every((i) => i.serviceProviderItemId !== undefined);
    const row = (item: Item, n: number) => t.page.locator(`[data-testid="pack-row"][data-item-id="${item.itemId}"][data-scanned="${n}"]`);
    /** Scans every unit of `items` (half a second apart, as a packer does). */
    async function scanAll(items: readonly Item[]): Promise<void> {
      for (const item of items)
        for (let n = 1; n <= item.quantity.count; n++) {
          await scanUntilSeen(t.page, item.serviceProviderItemId as string, row(item, n));
          await afterRepeatWindow(t.page, PACK_REPEAT_WINDOW_MS);
        }
    }

    it('says to tap Start packing when every unit is scanned before it, and Mark packed after', async () => {
      const { page } = t;
      const order = take((o) => coded(o) && o.items.reduce((n, i) => n + i.quantity.count, 0) <= 8);
      await acceptOrder(t, order);
      await nextStep(page, 'PACKING');
      await scanAll(order.items);
      await page.locator('[data-testid="pack-checklist"][data-left="0"]').waitFor();
      await expect(page.getByTestId('pack-checklist').locator('.hint').innerText()).resolves.toContain(run.scanFirst);
      await shot(page, `words-all-scanned-start-${run.language}`);
      await tapStep(page, 'PACKING');
      await nextStep(page, 'PACKED');
      await expect(page.getByTestId('pack-checklist').locator('.hint').innerText()).resolves.toContain(run.scanned);
    }, 90_000);

    it('finishes Mark packed once the units it asked about are cut, without a second tap', async () => {
      const { page, sandbox } = t;
      const order = take((o) => coded(o) && o.items.some((i) => i.quantity.count >= 2));
      const short = order.items.find((i) => i.quantity.count >= 2) as Item;
      await acceptOrder(t, order);
      await tapStep(page, 'PACKING');
      await page.getByTestId('pack-checklist').waitFor();
      await scanAll(order.items.map((i) => (i.itemId === short.itemId ? { ...i, quantity: { ...i.quantity, count: i.quantity.count - 1 } } : i)));
      await tapStep(page, 'PACKED');
      const dialog = page.getByTestId('unscanned-dialog');
      await dialog.getByTestId('unscanned-cut').click();
      const units = page.getByTestId('units-dialog');
      await units.locator('[data-reason="ITEM_UNAVAILABLE"]').click();
      await units.getByTestId('units-save').click();
      await until('PACKED at the service, with no second tap', () =>
        appliedTo(sandbox, order.id).some((a) => a.type === 'ORDER_FULFILMENT_STATE_UPDATE' && a.fulfillmentState === 'PACKED'),
      );
      expect(appliedTo(sandbox, order.id).some((a) => a.type === 'ITEM_UNIT_UPDATE' && a.itemId === short.itemId && a.itemUnits === short.quantity.count - 1)).toBe(true);
      await nextStep(page, 'OUT_FOR_DELIVERY');
      expect(await page.getByTestId('unscanned-dialog').count()).toBe(0);
    }, 90_000);

    it("names a product of another order, and the order it is for, not only its code", async () => {
      const { page, sandbox } = t;
      const order = take(coded);
      const codes = new Set(order.items.map((i) => i.serviceProviderItemId));
      // A product of another order on the terminal, none of whose items this order has.
      const other = sandbox.orders().find((o) => o.id !== order.id && o.items.some((i) => i.serviceProviderItemId !== undefined && !codes.has(i.serviceProviderItemId)));
      const stranger = other?.items.find((i) => i.serviceProviderItemId !== undefined && !codes.has(i.serviceProviderItemId)) as Item;
      await acceptOrder(t, order);
      await page.getByTestId('pack-checklist').waitFor();
      await scanUntilSeen(page, stranger.serviceProviderItemId as string, page.getByTestId('pack-stranger'));
      const words = await page.getByTestId('pack-stranger').innerText();
      expect(words).toContain(stranger.name as string);
      expect(words).toContain(stranger.serviceProviderItemId as string);
      expect(words).toContain(run.notIn);
      const holders = sandbox.orders().filter((o) => o.id !== order.id && o.items.some((i) => i.serviceProviderItemId === stranger.serviceProviderItemId));
      expect(holders.some((o) => words.includes(o.id))).toBe(true);
      await shot(page, `words-not-in-order-${run.language}`);
    }, 60_000);

    it('titles the sign-in window "Sign in", not as the amber step', async () => {
      const { page, harness } = t;
      const added = await harness.host.handle('staff.add', { pin: MANAGER_PIN, name: 'Ravi Kumar', packerPin: '5791' });
      if (!added.ok) throw new Error(added.problem.message);
      await page.keyboard.press('Escape');
      await page.getByTestId('packer-sign-in').click();
      const dialog = page.getByTestId('sign-in-dialog');
      await dialog.waitFor();
      await expect(dialog.locator('h2').innerText()).resolves.toBe(run.signIn);
      await shot(page, `words-sign-in-${run.language}`);
      await page.keyboard.press('Escape');
    }, 60_000);
  });
}
