/**
 * The find field finds orders and never makes them up: a customer's name, an order number's last
 * digits, a phone or an invoice number opens the order (several give a short list); an order
 * number the service does not know is said so, typed or scanned, and nothing is added. A product's
 * barcode is never taken for an invoice, and replacing a recorded invoice is a question naming both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderSummary } from '../../src/shared/ipc';
import type { Order } from '../../src/shared/protocol';
import { acceptOrder, invoicesAt, openTerminal, orderPool, scannerKeys, scanUntil, shot, typeInFind, until, type Terminal } from './support';

const queue = async (t: Terminal): Promise<string[]> => {
  const listed = await t.harness.host.handle('orders.list', {});
  return listed.ok ? (listed.value as OrderSummary[]).map((o) => o.id).sort() : [];
};


const first = (o: Order): string => (o.billing?.name ?? '').split(' ')[0] ?? '';

describe('finding orders', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;

  beforeAll(async () => {
    t = await openTerminal();
    take = orderPool(t.sandbox);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a name, an order number's last digits or a phone finds the order; an unknown number adds nothing", async () => {
    const { page, sandbox } = t;
    const before = await queue(t);
    const orders = sandbox.orders();

    // Last digits, without the letters: the order opens, its next step focused; nothing is added.
    const byDigits = orders[3]!;
    await typeInFind(page, byDigits.id.replace(/\D/g, ''));
    await page.locator(`[data-testid="order-screen"][data-order-id="${byDigits.id}"]`).waitFor();

    // A first name several customers share: a short list, each with what matched; a tap opens it.
    const shared = orders.map(first).find((name, i, all) => all.indexOf(name) !== i)!;
    const named = orders.filter((o) => first(o) === shared);
    await typeInFind(page, shared);
    const list = page.getByTestId('found-orders');
    await list.waitFor();
    await expect(list.getByTestId('found-order').count()).resolves.toBe(Math.min(named.length, 8));
    await expect(list.getByTestId('found-order').first().textContent()).resolves.toContain('Customer’s name');
    await shot(page, '70-en-find-several');
    const pick = named[1]!;
    await list.locator(`[data-testid="found-order"][data-order-id="${pick.id}"]`).click();
    await page.locator(`[data-testid="order-screen"][data-order-id="${pick.id}"]`).waitFor();

    // The customer's phone.
    const byPhone = orders[5]!;
    await typeInFind(page, byPhone.billing!.phone!);
    await page.locator(`[data-testid="order-screen"][data-order-id="${byPhone.id}"]`).waitFor();

    // A name nobody has: said so, nothing added, the field keeps the text to correct.
    await typeInFind(page, 'Zzyzx');
    await page.getByTestId('notice-error').filter({ hasText: 'No order on this terminal matches “Zzyzx”' }).waitFor();
    await expect(page.locator('#order-id-entry').inputValue()).resolves.toBe('Zzyzx');

    // A whole order number the service does not know, typed: said so, and no order of it anywhere.
    await typeInFind(page, 'ORD-9999991');
    await page.getByTestId('notice-error').filter({ hasText: 'The order service does not know order ORD-9999991' }).waitFor();
    await shot(page, '71-en-find-unknown-number');
    // Scanned: the same, never an order waiting for its items.
    await scannerKeys(page, 'ORD-9999992');
    await page.getByTestId('notice-error').filter({ hasText: 'The order service does not know order ORD-9999992' }).waitFor({ timeout: 8_000 });
    await expect(page.getByTestId('awaiting-card').count()).resolves.toBe(0);
    expect(await queue(t)).toEqual(before);

    // In Hindi: the list and the refusal in Hindi.
    await page.getByTestId('language-hi').click();
    await typeInFind(page, shared);
    await list.waitFor();
    await expect(list.getByTestId('found-order').first().textContent()).resolves.toContain('ग्राहक का नाम');
    await shot(page, '70-hi-find-several');
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    await typeInFind(page, 'ORD-9999993');
    await page.getByTestId('notice-error').filter({ hasText: 'ऑर्डर सेवा में ऑर्डर ORD-9999993 नहीं है' }).waitFor();
    await shot(page, '71-hi-find-unknown-number');
    await page.getByTestId('language-en').click();
    expect(await queue(t)).toEqual(before);
    expect(sandbox.requestLog().filter((r) => r.orderId.startsWith('ORD-999999'))).toEqual([]);
    expect(t.problems).toEqual([]);
  }, 120_000);

  it("a product's barcode is never an invoice, and replacing a recorded invoice asks, naming both numbers", async () => {
    const { page } = t;
    const order = take();
    await page.keyboard.press('Escape');
    await acceptOrder(t, order);
    const first = 'INV-BLR-2611-0042';
    await page.getByTestId('invoice-input').fill(first);
    await page.getByTestId('invoice-input').press('Enter');
    await until('the invoice at the service', () => invoicesAt(t.sandbox, order.id).length === 1);
    await page.getByTestId('invoice-current').filter({ hasText: first }).waitFor();

    // A product's EAN-13 scanned on the order: refused in words, no offer, nothing sent.
    const ean = '8901030865275';
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await scannerKeys(page, ean);
    await page.getByTestId('notice-error').filter({ hasText: `${ean} is a product's barcode, not an invoice number` }).waitFor({ timeout: 8_000 });
    await expect(page.getByTestId('invoice-offer').count()).resolves.toBe(0);
    await shot(page, '72-en-product-barcode-refused');
    // Typed into the invoice field: the same.
    await page.getByTestId('invoice-input').fill(ean);
    await page.getByTestId('invoice-input').press('Enter');
    await page.getByTestId('notice-error').filter({ hasText: `${ean} is a product's barcode` }).waitFor();

    // Another invoice scanned: a question of its own, naming the recorded number and the new one.
    const second = 'INV-BLR-2611-0077';
    await scanUntil(page, second, 'invoice-offer');
    const offer = page.getByTestId('invoice-offer');
    await expect(offer.getByTestId('invoice-offer-old').textContent()).resolves.toBe(first);
    await expect(offer.getByTestId('invoice-offer-code').textContent()).resolves.toBe(second);
    await expect(offer.getByRole('heading').textContent()).resolves.toBe('Replace the invoice number?');
    await shot(page, '73-en-invoice-replace-question');
    // Keeping is the first choice: nothing goes to the service.
    await offer.getByTestId('invoice-replace-keep').click();
    await offer.waitFor({ state: 'detached' });
    // Typed in the field (in Hindi this time), the same question; replacing sends the new number.
    await page.getByTestId('language-hi').click();
    await page.getByTestId('invoice-input').fill(second);
    await page.getByTestId('invoice-input').press('Enter');
    await offer.waitFor();
    await expect(offer.getByRole('heading').textContent()).resolves.toBe('इनवॉइस नंबर बदलें?');
    await shot(page, '73-hi-invoice-replace-question');
    await offer.getByTestId('invoice-offer-confirm').click();
    await offer.waitFor({ state: 'detached' });
    await page.getByTestId('language-en').click();
    await until('the new invoice at the service', () => invoicesAt(t.sandbox, order.id).length === 2);
    expect(invoicesAt(t.sandbox, order.id)).toEqual([first, second]);
    expect(t.problems).toEqual([]);
  }, 120_000);
});
