/**
 * Reasons that fit (issue 22, item 12): Reject on a new order offers no delivery reasons, a cancel
 * on an order out for delivery offers the doorstep's, a unit cut offers neither prescription reasons
 * for an item that needs none nor the marketplace's own process codes, and no dialog shows the
 * catalogue's bookkeeping (its date line, "added …" tags). A cut item says what it was ("was 3:
 * Item unavailable") once the answer is stored, after a reload, on screen in both languages and on
 * the packing slip (read back with pdftotext). Screenshots in English and Hindi.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderView } from '../../src/shared/ipc';
import { pdfText, printToPdf } from './pdf';
import { acceptOrder, appliedTo, axe, openTerminal, orderPool, reloadTerminal, shot, tapStep, type Terminal, typeOrderId, until, untilPrintRequests, withPrescription } from './support';

const work = mkdtempSync(join(tmpdir(), 'packdesk-reasons-'));

async function offered(dialog: Locator): Promise<string[]> {
  await dialog.locator('[data-reason]').first().waitFor();
  return dialog.locator('[data-reason]').evaluateAll((els) => els.map((e) => e.getAttribute('data-reason') ?? ''));
}

describe('reasons that fit', () => {
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

  it('Reject offers the reasons a store refuses an order for, without delivery reasons or catalogue dates', async () => {
    const { page } = t;
    const order = take((o) => !withPrescription(o));
    await typeOrderId(page, order.id);
    await page.getByTestId('reject-order').click();
    const dialog = page.getByTestId('cancel-dialog');
    const codes = await offered(dialog);
    expect(codes).toContain('ITEM_UNAVAILABLE');
    for (const misfit of ['BUYER_REFUSED_DELIVERY', 'DELIVERY_VEHICLE_ISSUES', 'BUYER_NOT_AVAILABLE', 'LOCATION_NOT_FOUND', 'INVALID_PRESCRIPTION']) expect(codes).not.toContain(misfit);
    const words = (await dialog.textContent()) ?? '';
    expect(words).not.toMatch(/listed by the marketplace|added \d|\d\d\/\d\d\/\d{4}/);
    await shot(page, 'reasons-01-reject-en');
    // The same dialog in Hindi (the top bar waits behind an open dialog).
    await page.keyboard.press('Escape');
    await page.getByTestId('language-hi').click();
    await page.getByTestId('reject-order').click();
    await dialog.locator('[data-reason="ITEM_UNAVAILABLE"]').waitFor();
    expect((await dialog.textContent()) ?? '').not.toMatch(/\d\d\/\d\d\/\d{4}/);
    await shot(page, 'reasons-01-reject-hi');
    await page.keyboard.press('Escape');
    await page.getByTestId('language-en').click();
  }, 60_000);

  it('a unit cut on an item without a prescription offers neither prescription reasons nor the marketplace process codes', async () => {
    const { page } = t;
    const order = take((o) => !withPrescription(o) && o.items.some((i) => i.quantity.count >= 2));
    await acceptOrder(t, order);
    const item = order.items.find((i) => i.quantity.count >= 2)!;
    await page.locator(`[data-testid="item-row"][data-item-id="${item.itemId}"]`).getByTestId('change-units').click();
    const dialog = page.getByTestId('units-dialog');
    const codes = await offered(dialog);
    expect(codes[0]).toBe('ITEM_UNAVAILABLE');
    for (const misfit of ['ITEM_NOT_IN_PRESCRIPTION', 'QUANTITY_EXCEED_PRESCRIPTION_LIMIT', 'RESOLUTION_SLA_BREACHED', 'SELLER_REFUND_ACCEPTED', 'SELLER_REJECTED_AGENT_VERIFIED'])
      expect(codes).not.toContain(misfit);
    await shot(page, 'reasons-02-units-en');
    await page.keyboard.press('Escape');
    await page.getByTestId('language-hi').click();
    await page.locator(`[data-testid="item-row"][data-item-id="${item.itemId}"]`).getByTestId('change-units').click();
    await dialog.locator('[data-reason="ITEM_UNAVAILABLE"]').waitFor();
    await shot(page, 'reasons-02-units-hi');
    await page.keyboard.press('Escape');
    await page.getByTestId('language-en').click();
  }, 60_000);

  it('cancelling an order that is out for delivery offers the doorstep reasons', async () => {
    const { page } = t;
    const order = take((o) => !withPrescription(o) && o.fulfillments.some((f) => f.type === 'DELIVERY'));
    await acceptOrder(t, order);
    await tapStep(page, 'PACKING');
    await tapStep(page, 'PACKED');
    await tapStep(page, 'OUT_FOR_DELIVERY');
    await page.getByTestId('cancel-order').click();
    const codes = await offered(page.getByTestId('cancel-dialog'));
    expect(codes).toEqual(expect.arrayContaining(['BUYER_REFUSED_DELIVERY', 'BUYER_NOT_AVAILABLE', 'CUSTOMER_CANCEL_REQUEST']));
    expect(codes).not.toContain('ITEM_UNAVAILABLE');
    await shot(page, 'reasons-03-on-the-way-en');
    await page.keyboard.press('Escape');
    expect(t.problems).toEqual([]);
  }, 60_000);

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

    await reloadTerminal(page);
    await typeOrderId(page, order.id);
    await expect(row.locator('.item-units-number').textContent()).resolves.toBe(String(was - 1));
    await expect(row.getByTestId('item-was').textContent()).resolves.toBe(`was ${was}: Item unavailable`);
    await shot(page, 'reasons-04-cut-was-en');
    expect((await axe(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);

    await page.getByTestId('language-hi').click();
    await expect(row.getByTestId('item-was').textContent()).resolves.toBe(`पहले ${was}: सामान उपलब्ध नहीं`);
    await shot(page, 'reasons-04-cut-was-hi');
    await page.getByTestId('language-en').click();

    await page.getByTestId('print-slip').click();
    await page.locator(`[data-testid="print-root"][data-document="packingSlip"] [data-order-id="${order.id}"]`).waitFor({ state: 'attached' });
    await untilPrintRequests(page, 1);
    expect(pdfText(await printToPdf(page, work, 'reasons-05-cut-slip'))).toContain(`was ${was}: Item unavailable`);
    // The Hindi slip says it too.
    await page.getByTestId('language-hi').click();
    await page.getByTestId('print-slip').click();
    await untilPrintRequests(page, 2);
    await page.locator('[data-testid="print-root"] .print-was').filter({ hasText: 'पहले' }).waitFor({ state: 'attached' });
    expect(pdfText(await printToPdf(page, work, 'reasons-05-cut-slip-hi'))).toContain(`पहले ${was}: सामान उपलब्ध नहीं`);
    await page.getByTestId('language-en').click();
    expect(t.problems).toEqual([]);
  }, 90_000);
});
