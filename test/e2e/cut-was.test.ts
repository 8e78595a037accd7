/**
 * A cut item says what it was (issue 22, item 12): after a unit cut has reached the service and its
 * answer is stored, the item still reads "was 3: Item unavailable" beside its new count, after a
 * reload too, in English and in Hindi, and the packing slip prints the same line (read back with
 * pdftotext).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderView } from '../../src/shared/ipc';
import { pdfText, printToPdf } from './pdf';
import { acceptOrder, appliedTo, openTerminal, orderPool, shot, typeOrderId, until, untilPrintRequests, withPrescription, type Terminal } from './support';

const work = mkdtempSync(join(tmpdir(), 'packdesk-cut-was-'));

describe('a cut item says what it was', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;

  beforeAll(async () => {
    t = await openTerminal();
    take = orderPool(t.sandbox);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows "was N: reason" on the item once the answer is stored, after a reload, in both languages and on the slip', async () => {
    const { page, sandbox } = t;
    const order = take((o) => !withPrescription(o) && o.items.some((i) => i.quantity.count >= 2));
    await acceptOrder(t, order);
    const item = order.items.find((i) => i.quantity.count >= 2)!;
    const was = item.quantity.count;
    const row = page.locator(`[data-testid="item-row"][data-item-id="${item.itemId}"]`);
    await expect(row.getByTestId('item-was').count()).resolves.toBe(0);

    await row.getByTestId('change-units').click();
    const dialog = page.getByTestId('units-dialog');
    await dialog.locator('[data-reason="ITEM_UNAVAILABLE"]').click();
    await dialog.getByTestId('units-save').click();
    await dialog.waitFor({ state: 'detached' });
    await until('the cut at the service', () => appliedTo(sandbox, order.id).some((a) => a.type === 'ITEM_UNIT_UPDATE'));
    // The service's answer (the cut order) is what the terminal now holds.
    await expect
      .poll(async () => {
        const reply = await t.harness.host.handle('orders.get', { orderId: order.id });
        return reply.ok ? (reply.value as OrderView | null)?.waiting : null;
      })
      .toBe(0);

    await page.reload();
    await page.getByTestId('order-row').first().waitFor();
    await typeOrderId(page, order.id);
    await expect(row.locator('.item-units-number').textContent()).resolves.toBe(String(was - 1));
    await expect(row.getByTestId('item-was').textContent()).resolves.toBe(`was ${was}: Item unavailable`);
    await shot(page, 'cut-was-01-order-en');

    await page.getByTestId('language-hi').click();
    await expect(row.getByTestId('item-was').textContent()).resolves.toBe(`पहले ${was}: सामान उपलब्ध नहीं`);
    await shot(page, 'cut-was-02-order-hi');
    await page.getByTestId('language-en').click();

    await page.getByTestId('print-slip').click();
    await page.locator(`[data-testid="print-root"][data-document="packingSlip"] [data-order-id="${order.id}"]`).waitFor({ state: 'attached' });
    await untilPrintRequests(page, 1);
    expect(pdfText(await printToPdf(page, work, 'cut-was-slip'))).toContain(`was ${was}: Item unavailable`);
    expect(t.problems).toEqual([]);
  }, 90_000);
});
