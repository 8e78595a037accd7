/**
 * Paper in both languages: the packing slip and the pick list, printed to PDF by Chromium in the
 * browser harness, carry their words in the bundled Noto Sans Devanagari (this machine, like many
 * Linux counters, has no Devanagari font of its own, so without it every Hindi word is boxes) and
 * read back with pdftotext in English and in Hindi. window.print is a recorder here: the test
 * prints the page itself with page.pdf.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/shared/protocol/schemas';
import { pdfFonts, pdfText, printToPdf } from './pdf';
import { openTerminal, orderPool, SCREENSHOT_DIR, typeOrderId, type Terminal } from './support';

const work = mkdtempSync(join(tmpdir(), 'packdesk-paper-hi-'));

/** Prints the page's layout to PDF, and keeps a picture of its first page with the screenshots. */
async function printed(page: Page, name: string): Promise<string> {
  const file = await printToPdf(page, work, name);
  execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', '-f', '1', '-l', '1', file, join(work, name)]);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  copyFileSync(join(work, `${name}.png`), join(SCREENSHOT_DIR, `${name}.png`));
  return file;
}

/** How many times the page asked for the browser's print dialog. */
const prints = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { printed?: number }).printed ?? 0);

describe('paper in Hindi and English', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;

  beforeAll(async () => {
    t = await openTerminal({
      // Chromium's own print dialog would hold the page; the harness's Print is recorded instead.
      beforeOpen: async (page) => {
        await page.addInitScript(() => {
          window.print = () => {
            const w = window as unknown as { printed?: number };
            w.printed = (w.printed ?? 0) + 1;
          };
        });
      },
    });
    take = orderPool(t.sandbox);
  });

  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Accepts orders at the host, so the terminal holds their items. */
  async function accepted(count: number): Promise<Order[]> {
    const orders = Array.from({ length: count }, () => take((o) => o.fulfillments.some((f) => f.type === 'DELIVERY' && f.end?.address)));
    for (const o of orders) {
      const reply = await t.harness.host.handle('taps.submit', { orderId: o.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
      expect(reply.ok, o.id).toBe(true);
    }
    return orders;
  }

  async function printSlip(order: Order, name: string): Promise<string> {
    const { page } = t;
    const before = await prints(page);
    await typeOrderId(page, order.id);
    await page.getByTestId('print-slip').click();
    await page.locator(`[data-testid="print-root"][data-document="packingSlip"] [data-order-id="${order.id}"]`).waitFor({ state: 'attached' });
    await expect.poll(() => prints(page)).toBe(before + 1);
    return printed(page, name);
  }

  /** Ticks the orders in the queue (once) and prints their pick list. */
  async function printPickList(orders: readonly Order[], name: string): Promise<string> {
    const { page } = t;
    await page.keyboard.press('Escape');
    await page.getByTestId('queue-list').waitFor();
    await page.getByTestId('filter-PACKING').click();
    for (const o of orders) {
      const row = page.locator(`[data-testid="order-row"][data-order-id="${o.id}"]`);
      await row.locator('.row-customer').waitFor({ timeout: 20_000 });
      if ((await row.locator('[data-testid="pick-select"][data-ticked="true"]').count()) === 0) await row.getByTestId('pick-select').click();
      await row.locator('[data-testid="pick-select"][data-ticked="true"]').waitFor();
    }
    const before = await prints(page);
    await page.getByTestId('print-pick-list').click();
    await page.locator('[data-testid="print-root"][data-document="pickList"]').waitFor({ state: 'attached' });
    await expect.poll(() => prints(page)).toBe(before + 1);
    return printed(page, name);
  }

  it('the packing slip and the pick list print in English, and in Hindi in Noto Sans Devanagari, words read back', async () => {
    const { page } = t;
    const [enSlip, hiSlip, ...picked] = await accepted(4);

    const en = await printSlip(enSlip!, 'paper-hi-01-slip-en');
    expect(pdfText(en)).toContain('PACKING SLIP');
    // The slip rides on the bag: the customer's phone by its last four digits only (a Printing setting).
    const phone = (enSlip!.fulfillments.find((f) => f.type === 'DELIVERY')?.end?.contact?.phone ?? enSlip!.billing!.phone!).replace(/\D/g, '');
    expect(pdfText(en)).toContain(`Phone ending ${phone.slice(-4)}`);
    expect(pdfText(en)).not.toContain(phone);
    const enList = await printPickList(picked, 'paper-hi-02-pick-list-en');
    expect(pdfText(enList)).toContain('PICK LIST');
    // On the 80 mm roll an order's share keeps its id whole on one line ("ORD-3586326 × 2", not "ORD-" / "3586326 × 2").
    for (const o of picked) expect(pdfText(enList)).toMatch(new RegExp(`${o.id} × \\d`));

    await page.getByTestId('language-hi').click();
    await page.getByTestId('language-en').waitFor();
    const hi = await printSlip(hiSlip!, 'paper-hi-03-slip-hi');
    // Only Devanagari words without vowel signs that go before their letter or conjuncts, which
    // pdftotext may give back in drawing order rather than reading order.
    const slipText = pdfText(hi);
    expect(pdfFonts(hi)).toMatch(/NotoSansDevanagari/);
    for (const word of ['सामान', 'नग', 'फ़ोन']) expect(slipText, word).toContain(word);
    const hiPhone = (hiSlip!.fulfillments.find((f) => f.type === 'DELIVERY')?.end?.contact?.phone ?? hiSlip!.billing!.phone!).replace(/\D/g, '');
    expect(slipText).toContain(hiPhone.slice(-4));
    expect(slipText).not.toContain(hiPhone);
    expect(slipText).toContain(hiSlip!.id);

    const hiList = await printPickList(picked, 'paper-hi-04-pick-list-hi');
    const listText = pdfText(hiList);
    expect(pdfFonts(hiList)).toMatch(/NotoSansDevanagari/);
    for (const word of ['पिक लिस्ट', 'सामान', 'नग']) expect(listText, word).toContain(word);
    for (const o of picked) expect(listText).toContain(o.id);
    await page.getByTestId('language-en').click();
    expect(t.problems).toEqual([]);
  }, 120_000);
});
