/**
 * Paper, end to end in the browser harness: the packing slip and the pick list are rendered by the
 * page into its print layout, printed to PDF by Chromium (the same page a trainee prints with the
 * browser's dialog), turned into PNG with pdftoppm, and read back: the barcode with zbarimg must
 * decode to the order id, the words with pdftotext must be the order's. Covers the 80 mm roll and
 * A4, the Printing settings, auto-print on a PACKED tap, and ticking orders for a pick list.
 * The browser's own print dialog is not opened here (support.ts records `window.print()` calls
 * instead): each test checks that the app asked for it, then prints the print layout to PDF.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSizeFor } from '../../src/main/core/print';
import type { OrderView } from '../../src/shared/ipc';
import type { Order } from '../../src/shared/protocol/schemas';
import { appliedTo, MANAGER_PIN, openTerminal, orderPool, printRequests, SCREENSHOT_DIR, shot, tapStep, typeOrderId, until, untilPrintRequests, withPrescription, type Terminal } from './support';

const work = mkdtempSync(join(tmpdir(), 'packdesk-paper-'));

/** The page's print layout as a PDF, on the paper the settings chose (as the Electron shell sizes it). */
async function printToPdf(page: Page, name: string): Promise<string> {
  const root = page.getByTestId('print-root');
  await page.locator('[data-testid="print-root"]:not([data-height-mm=""])').waitFor({ state: 'attached' });
  const paper = await root.getAttribute('data-paper');
  const heightMm = Number(await root.getAttribute('data-height-mm'));
  const size = pageSizeFor(paper === 'a4' ? 'a4' : 'thermal80', heightMm);
  const pdf = await page.pdf(
    size.kind === 'named'
      ? { preferCSSPageSize: true, printBackground: true }
      : { width: `${size.widthMm}mm`, height: `${size.heightMm}mm`, printBackground: true },
  );
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

/** The first page at 300 dpi as PNG, also kept with the screenshots for people to look at. */
function firstPagePng(pdf: string, name: string): string {
  const prefix = join(work, name);
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', '-f', '1', '-l', '1', pdf, prefix]);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  copyFileSync(`${prefix}.png`, join(SCREENSHOT_DIR, `${name}.png`));
  return `${prefix}.png`;
}

/** Every Code 128 symbol zbarimg finds in a PNG (none: an empty list; zbarimg exits 4 then). */
function decodeBarcodes(png: string): string[] {
  try {
    return execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', '-Scode128.enable', png], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch (err) {
    if ((err as { status?: number }).status === 4) return [];
    throw err;
  }
}

/** The PDF's words, whitespace collapsed. */
function pdfText(pdf: string): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** A PNG's width in pixels, from its IHDR chunk. */
function pngWidth(png: string): number {
  return readFileSync(png).readUInt32BE(16);
}

/**
 * Opens an order by typing its number (scanning is the taps tests' subject; on a loaded machine a
 * scan's keys can arrive too slowly to count as one), accepts it and waits for its items.
 */
async function acceptOrder(t: Terminal, order: Order): Promise<void> {
  await typeOrderId(t.page, order.id);
  await tapStep(t.page, 'ACCEPT');
  await until(`${order.id} accepted at the service`, () => appliedTo(t.sandbox, order.id).length >= 1);
  await t.page.getByTestId('item-row').first().waitFor();
}

async function viewOf(t: Terminal, orderId: string): Promise<OrderView & { order: Order }> {
  const reply = await t.harness.host.handle('orders.get', { orderId });
  if (!reply.ok || !reply.value || !(reply.value as OrderView).order) throw new Error(`no details for ${orderId}`);
  return reply.value as OrderView & { order: Order };
}

describe('paper', () => {
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

  it('the browser harness has no printer of its own: print.run hands printing to the page', async () => {
    expect(await t.harness.host.handle('printers.list', {})).toEqual({ ok: true, value: [] });
    expect(await t.harness.host.handle('print.run', { document: 'packingSlip', contentHeightMm: 100 })).toEqual({ ok: true, value: { outcome: 'browser' } });
  });

  it('prints a packing slip on the 80 mm roll whose barcode scans back to the order id', async () => {
    const order = take((o) => withPrescription(o) && o.fulfillments.some((f) => f.type === 'DELIVERY' && f.end?.address));
    await acceptOrder(t, order);
    const invoice = await t.harness.host.handle('taps.submit', { orderId: order.id, input: { kind: 'invoice', sellerInvoiceId: 'INV-PAPER-1' } });
    expect(invoice.ok).toBe(true);
    await t.page.getByTestId('invoice-current').filter({ hasText: 'INV-PAPER-1' }).waitFor();

    const asked = await printRequests(t.page);
    await t.page.getByTestId('print-slip').click();
    await shot(t.page, 'paper-00-order-print-button');
    await t.page.locator(`[data-testid="print-root"][data-document="packingSlip"] [data-order-id="${order.id}"]`).waitFor({ state: 'attached' });
    // The packer's Print opened the browser's print dialog, once.
    await untilPrintRequests(t.page, asked + 1);
    const pdf = await printToPdf(t.page, 'paper-01-slip-thermal');
    const png = firstPagePng(pdf, 'paper-01-slip-thermal');
    expect(decodeBarcodes(png)).toEqual([order.id]);
    // 80 mm at 300 dpi.
    expect(Math.abs(pngWidth(png) - 945)).toBeLessThanOrEqual(2);

    const view = await viewOf(t, order.id);
    const delivery = view.order.fulfillments.find((f) => f.type === 'DELIVERY')!;
    const text = pdfText(pdf);
    expect(text).toContain('PACKING SLIP');
    expect(text).toContain(`Order ${order.id}`);
    expect(text).toContain(delivery.end?.person?.name ?? view.order.billing?.name ?? 'no name in the order');
    expect(text).toContain('INV-PAPER-1');
    expect(text).toContain('Pack by');
    expect(text).toMatch(/Prescription items: check the prescription/);
    const address = delivery.end!.address!;
    for (const part of (address.formattedAddress ?? `${address.building ?? ''}`).split(/\s*\n\s*/).filter(Boolean)) expect(text).toContain(part);
    for (const item of view.order.items.filter((i) => i.quantity.count > 0)) {
      expect(text).toContain(item.name!);
      if (item.displayMeasurement) expect(text).toContain(item.displayMeasurement);
    }
    const units = view.order.items.reduce((s, i) => s + i.quantity.count, 0);
    expect(text).toMatch(new RegExp(`\\d+ items? ${units}\\b`));
    expect(t.problems).toEqual([]);
  }, 90_000);

  it('chooses A4 and auto-print in Printing settings; marking an order PACKED prints its slip by itself', async () => {
    const { page } = t;
    // Settings sit behind the manager PIN (set before the first shift).
    await page.keyboard.press('F9');
    await page.getByTestId('settings-pin').fill(MANAGER_PIN);
    await page.getByRole('button', { name: 'Open settings' }).click();
    const form = page.getByTestId('printing-form');
    await form.waitFor();
    // In the browser, the printer is the browser dialog's business: the form says so.
    await form.getByTestId('printer-browser-note').waitFor();
    await form.getByTestId('paper').selectOption('a4');
    await form.getByTestId('auto-print').check();
    await form.getByTestId('printing-save').click();
    await form.getByText('Saved.').waitFor();
    await shot(page, 'paper-02-settings');
    expect(t.harness.host.settings()).toMatchObject({ paper: 'a4', autoPrintSlip: true, printer: null });
    await page.keyboard.press('Escape');

    const order = take((o) => o.items.length >= 2);
    await acceptOrder(t, order);
    await tapStep(page, 'PACKING');
    const asked = await printRequests(page);
    await tapStep(page, 'PACKED');
    // No Print button pressed: the PACKED tap printed the slip.
    await page.locator(`[data-testid="print-root"][data-paper="a4"] [data-order-id="${order.id}"]`).waitFor({ state: 'attached' });
    await untilPrintRequests(page, asked + 1);
    await until(`${order.id} packed at the service`, () => appliedTo(t.sandbox, order.id).length >= 3);
    const pdf = await printToPdf(page, 'paper-03-slip-a4-auto');
    const png = firstPagePng(pdf, 'paper-03-slip-a4-auto');
    expect(decodeBarcodes(png)).toEqual([order.id]);
    // 210 mm at 300 dpi.
    expect(Math.abs(pngWidth(png) - 2480)).toBeLessThanOrEqual(2);
    expect(pdfText(pdf)).toContain(`Order ${order.id}`);
  }, 90_000);

  it('prints a pick list of the ticked orders: each item once, its total and each order share', async () => {
    const { page } = t;
    // Three orders accepted (so the terminal has their items), two sharing a product when the
    // seed allows, so the list has something to group.
    const first = take();
    const names = new Set(first.items.map((i) => i.name));
    const sharing = (() => {
      try {
        return take((o) => o.items.some((i) => names.has(i.name)));
      } catch {
        return take();
      }
    })();
    const chosen = [first, sharing, take()];
    const ids = chosen.map((o) => o.id);
    for (const id of ids) {
      const reply = await t.harness.host.handle('taps.submit', { orderId: id, input: { kind: 'orderState', state: 'ACCEPTED' } });
      expect(reply.ok, id).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.getByTestId('queue-list').waitFor();
    // Only orders whose next step is Start packing: the accepted ones, all on screen at once.
    await page.getByTestId('filter-PACKING').click();
    for (const id of ids) {
      const row = page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);
      await row.locator('.row-customer').waitFor({ timeout: 20_000 });
      await row.getByTestId('pick-select').click();
      await row.locator('[data-testid="pick-select"][data-ticked="true"]').waitFor();
    }
    // Ticking did not open an order.
    expect(await page.getByTestId('order-screen').count()).toBe(0);
    const asked = await printRequests(page);
    await page.getByTestId('print-pick-list').filter({ hasText: 'Pick list (3 orders)' }).click();
    await page.locator('[data-testid="print-root"][data-document="pickList"]').waitFor({ state: 'attached' });
    await untilPrintRequests(page, asked + 1);
    await shot(page, 'paper-04-queue-ticked');

    // What the terminal knows of those orders, added up here by name and measurement.
    const expected = new Map<string, { name: string; units: number; shares: string[] }>();
    for (const id of ids) {
      const { order } = await viewOf(t, id);
      for (const item of order.items.filter((i) => i.quantity.count > 0)) {
        const key = item.displayMeasurement ? `${item.name} · ${item.displayMeasurement}` : item.name!;
        const line = expected.get(key) ?? { name: item.name!, units: 0, shares: [] };
        line.units += item.quantity.count;
        line.shares.push(`${id} × ${item.quantity.count}`);
        expected.set(key, line);
      }
    }
    const pdf = await printToPdf(page, 'paper-05-pick-list-a4');
    firstPagePng(pdf, 'paper-05-pick-list-a4');
    const text = pdfText(pdf);
    expect(text).toContain('PICK LIST');
    expect(text).toContain('3 orders');
    for (const [key, line] of expected) {
      expect(text, key).toContain(`${key} ${line.units} ${line.shares.join(', ')}`);
    }
    const total = [...expected.values()].reduce((s, l) => s + l.units, 0);
    expect(text).toContain(`${expected.size} ${expected.size === 1 ? 'item' : 'items'} ${total} ${total === 1 ? 'unit' : 'units'} in all`);
    expect(t.problems).toEqual([]);
  }, 90_000);
});
