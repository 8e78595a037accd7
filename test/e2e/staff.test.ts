/**
 * Packers by name and scan to pack (issue 24), in Chromium, in English at 1024x768 and in Hindi at
 * 1920x1080: a manager adds a packer in Settings -> Staff and prints the badge; the packer signs in
 * by scanning it; an accepted order is packed by scanning its items (a barcode new to the store is
 * taught once, a product of another order is "Not in this order", one short item is cut at Mark
 * packed); the printed slip, read back with pdftotext, says who packed it; no product scan ever
 * reaches an invoice; axe finds nothing serious or critical on the new screens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item, Order } from '../../src/shared/protocol';
import { pdfText, printToPdf } from './pdf';
import { acceptOrder, afterRepeatWindow, appliedTo, axe, invoicesAt, openSettings, openTerminal, orderPool, scannerKeys, scanUntilSeen, shot, tapStep, until, untilTapsSettled, type Terminal } from './support';
import { PACK_REPEAT_WINDOW_MS } from '../../src/renderer/src/scanner/repeat';

/** An EAN-13 with its check digit: a product barcode the terminal tells by its form. */
function ean13(twelve: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(twelve[i]) * (i % 2 === 0 ? 1 : 3);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

const NEW_BARCODE = ean13('890123456789');
const PACKER = 'Ravi Kumar';

/** Scans `code` outside any field until an element `selector` finds is on the page. */
const scanFor = (page: Page, code: string, selector: string): Promise<void> => scanUntilSeen(page, code, page.locator(selector));

const serious = (findings: Awaited<ReturnType<typeof axe>>) => findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');

for (const run of [
  { language: 'en', viewport: { width: 1024, height: 768 }, packedBy: 'Packed by' },
  { language: 'hi', viewport: { width: 1920, height: 1080 }, packedBy: 'पैक किया' },
] as const) {
  const tag = `${run.language}-${run.viewport.width}`;
  describe(`packers by name and scan to pack (${tag})`, () => {
    let t: Terminal;
    let work: string;
    beforeAll(async () => {
      t = await openTerminal({ settings: { scanToPack: true, language: run.language }, viewport: run.viewport });
      work = mkdtempSync(join(tmpdir(), 'packdesk-staff-'));
    });
    afterAll(async () => {
      await t?.close();
      rmSync(work, { recursive: true, force: true });
    });

    it('a packer signs in by badge, packs an order by scanning (one wrong product, one short item cut), and the slip says who packed it', async () => {
      const { page, sandbox } = t;

      // Settings -> Staff: the manager adds a packer; the badge is printed from there.
      await openSettings(page);
      await page.getByTestId('staff-panel').waitFor();
      await page.getByTestId('staff-none').waitFor();
      await page.getByTestId('staff-name').fill(PACKER);
      await page.getByTestId('staff-add').click();
      const row = page.locator(`[data-testid="staff-row"][data-name="${PACKER}"]`);
      await row.waitFor();
      const badge = (await row.getAttribute('data-badge')) ?? '';
      expect(badge).toMatch(/^PDKS-[0-9A-HJKMNP-TV-Z]{8}$/);
      await page.getByTestId('staff-panel').scrollIntoViewIfNeeded();
      await shot(page, `staff-01-settings-${tag}`);
      expect(serious(await axe(page))).toEqual([]);
      await row.getByTestId('staff-print').click();
      await page.locator('[data-testid="print-root"][data-document="badges"]').waitFor({ state: 'attached' });
      const badgeText = pdfText(await printToPdf(page, work, `badge-${tag}`));
      expect(badgeText.toUpperCase()).toContain(PACKER.toUpperCase()); // print.css sets headings in capitals
      expect(badgeText).toContain(badge);
      await page.keyboard.press('Escape');
      await page.getByTestId('queue-list').waitFor();

      // The packer starts work by scanning the badge; nobody was signed in before.
      await page.locator('[data-testid="packer-chip"][data-packer=""]').waitFor();
      // The store keeps names now: the counter asks for a badge (or a PIN).
      await page.getByTestId('packer-sign-in').waitFor();
      // Scanned while the sign-in window is open (its PIN field has focus), the badge signs in too.
      await page.getByTestId('packer-sign-in').click();
      await page.getByTestId('sign-in-dialog').waitFor();
      expect(serious(await axe(page))).toEqual([]);
      const signedIn = page.locator(`[data-testid="packer-chip"][data-packer="${PACKER}"]`);
      for (let attempt = 1; ; attempt++) {
        // Into the focused PIN field (no blur, unlike scanFor); keys at a person's pace are typing, so scan again.
        await page.getByTestId('sign-in-pin').fill('');
        await scannerKeys(page, badge);
        if (await signedIn.waitFor({ timeout: 3_000 }).then(() => true, () => false)) break;
        if (attempt === 3) throw new Error('three badge scans into the sign-in window did not sign in');
        await afterRepeatWindow(page);
      }
      await page.getByTestId('sign-in-dialog').waitFor({ state: 'detached' });
      await page.getByTestId('packer-sign-out').click();
      await page.locator('[data-testid="packer-chip"][data-packer=""]').waitFor();
      // The same badge again within the repeat window would be one scan held, not a new one.
      await afterRepeatWindow(page);
      await scanFor(page, badge, `[data-testid="packer-chip"][data-packer="${PACKER}"]`);

      // An order with two items or more, one of them of two units or more (the one left short).
      const take = orderPool(sandbox);
      const order: Order = take((o) => o.items.length >= 2 && o.items.some((i) => i.quantity.count >= 2));
      const short = order.items.find((i) => i.quantity.count >= 2) as Item;
      const codes = new Set(order.items.map((i) => i.serviceProviderItemId));
      const stranger = sandbox
        .orders()
        .flatMap((o) => o.items)
        .map((i) => i.serviceProviderItemId)
        .find((c) => c !== undefined && !codes.has(c)) as string;
      await acceptOrder(t, order);
      await tapStep(page, 'PACKING');
      await page.getByTestId('pack-checklist').waitFor();

      // A product of another order: "Not in this order", loudly; never an invoice.
      await scanFor(page, stranger, '[data-testid="pack-stranger"]');
      await expect(page.getByTestId('pack-stranger').textContent()).resolves.toContain(stranger);
      expect(await page.getByTestId('invoice-offer').count()).toBe(0);
      await shot(page, `staff-02-not-in-order-${tag}`);

      // A barcode new to the store: taught once as the first item, which ticks one unit of it.
      const first = order.items[0] as Item;
      await scanFor(page, NEW_BARCODE, '[data-testid="teach-dialog"]');
      await shot(page, `staff-03-teach-${tag}`);
      expect(serious(await axe(page))).toEqual([]);
      await page.locator(`[data-testid="teach-item"][data-item-id="${first.itemId}"]`).click();
      await page.locator(`[data-testid="pack-row"][data-item-id="${first.itemId}"][data-scanned="1"]`).waitFor();

      // Every other unit by the item's own code, the short item one unit less.
      for (const item of order.items) {
        const want = item.itemId === short.itemId ? item.quantity.count - 1 : item.quantity.count;
        for (let n = item.itemId === first.itemId ? 2 : 1; n <= want; n++) {
          await scanFor(page, item.serviceProviderItemId as string, `[data-testid="pack-row"][data-item-id="${item.itemId}"][data-scanned="${n}"]`);
          // A packer's pace between identical units: each counts (only a double fire within 250 ms is one scan).
          await afterRepeatWindow(page, PACK_REPEAT_WINDOW_MS);
        }
      }
      await shot(page, `staff-04-scanned-${tag}`);
      expect(serious(await axe(page))).toEqual([]);

      // Mark packed with a unit unscanned asks; the missing unit is cut with its reason, and the order is packed.
      await tapStep(page, 'PACKED');
      const dialog = page.getByTestId('unscanned-dialog');
      await dialog.waitFor();
      await expect(dialog.getByTestId('unscanned-row').getAttribute('data-item-id')).resolves.toBe(short.itemId);
      await shot(page, `staff-05-unscanned-${tag}`);
      expect(serious(await axe(page))).toEqual([]);
      await dialog.getByTestId('unscanned-cut').click();
      const units = page.getByTestId('units-dialog');
      await units.locator('[data-reason="ITEM_UNAVAILABLE"]').click();
      await units.getByTestId('units-save').click();
      await until('the cut at the service', () =>
        appliedTo(sandbox, order.id).some((a) => a.type === 'ITEM_UNIT_UPDATE' && a.itemId === short.itemId && a.itemUnits === short.quantity.count - 1),
      );
      // Nothing is left unscanned: Mark packed goes on by itself (issue 40), no second tap.
      await until('PACKED at the service', () =>
        appliedTo(sandbox, order.id).some((a) => a.type === 'ORDER_FULFILMENT_STATE_UPDATE' && a.fulfillmentState === 'PACKED'),
      );

      // The slip says who packed it.
      await page.getByTestId('print-slip').click();
      await page.locator('[data-testid="print-root"][data-document="packingSlip"] [data-testid="slip-packed-by"]').waitFor({ state: 'attached' });
      const slip = pdfText(await printToPdf(page, work, `slip-${tag}`));
      expect(slip).toContain(run.packedBy);
      expect(slip).toContain(PACKER);

      // A product scanned once the order is packed, or into the invoice field, is never an invoice.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await scannerKeys(page, first.serviceProviderItemId as string);
      await page.getByTestId('invoice-input').focus();
      await scannerKeys(page, NEW_BARCODE);
      await untilTapsSettled(t, order.id);
      expect(await page.getByTestId('invoice-offer').count()).toBe(0);
      expect(invoicesAt(sandbox, order.id)).toEqual([]);

      // The outbox's Sent list says who made each tap.
      await page.keyboard.press('F4');
      const sent = page.locator(`[data-testid="outbox-history"] [data-testid="outbox-entry"][data-order-id="${order.id}"]`);
      await sent.first().waitFor();
      await expect(sent.first().getByTestId('outbox-packer').textContent()).resolves.toContain(PACKER);
      await shot(page, `staff-06-outbox-${tag}`);
      expect(t.problems).toEqual([]);
    }, 300_000);
  });
}
