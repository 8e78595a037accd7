/**
 * Direction controls in text from outside (issue 38), in Chromium through the browser harness: a
 * customer's, an item's, a delivery person's and a packer's name and an invoice number holding a
 * right-to-left override (and its kin) are shown with the control written out as \uXXXX, never
 * obeyed: in the queue, on the order screen, the packer chip, the packing slip, the pick list and
 * the shift screen and its printed summary. The page's text never holds one.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/shared/protocol';
import { MANAGER_PIN, openTerminal, shot, type Terminal, typeOrderId, openFromTopBar } from './support';

const POLL_MS = 1_000;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
let terminal: Terminal;

beforeAll(async () => {
  terminal = await openTerminal({
    orderCount: 8,
    settings: { intakeIntervalMs: POLL_MS },
    engineOptions: { intakeMinIntervalMs: 500 },
    sandboxOptions: { arrivalEveryMs: 0, changesMinIntervalMs: 0 },
  });
}, 60_000);
afterAll(() => terminal?.close());

/** Everything the page shows now, the print layout too. */
const pageText = (page: Page): Promise<string> => page.evaluate(() => document.body.textContent ?? '');

describe('direction controls from outside are shown, not obeyed', () => {
  it('on every screen, the slip, the pick list and the shift summary', async () => {
    const { page, sandbox, harness } = terminal;
    const base = sandbox.orders().find((o) => o.orderState === 'Created' && o.fulfillments.some((f) => f.type === 'DELIVERY'))!;
    const delivery = base.fulfillments.find((f) => f.type === 'DELIVERY')!;
    const order: Order = {
      ...base,
      billing: { ...base.billing, name: 'Ravi \u202Eabc Kumar' },
      fulfillments: base.fulfillments.map((f) => (f === delivery ? { ...f, end: { ...f.end, person: { ...f.end?.person, name: 'Sunil \u2067dlo\u2069 Das' } } } : f)),
      items: base.items.map((i, n) => (n === 0 ? { ...i, name: 'Para\u202Ecetamol 500' } : i)),
      // Recorded elsewhere (the marketplace, another counter): a packer cannot type one (the id rule refuses it).
      clientOrderInfo: { sellerInvoiceId: 'INV-\u202E42' },
      updatedAt: new Date().toISOString(),
    } as Order;
    sandbox.serveOrder(order);

    // The queue: the customer's name with the override written out.
    const row = page.locator(`[data-testid="order-row"][data-order-id="${order.id}"]`);
    await row.filter({ hasText: 'Ravi \\u202Eabc Kumar' }).waitFor({ timeout: 5 * POLL_MS + 10_000 });
    expect(await pageText(page)).not.toMatch(BIDI);
    await shot(page, '38-direction-marks-queue');

    // A packer whose name holds one, signed in by badge: the chip.
    const added = await harness.host.handle('staff.add', { pin: MANAGER_PIN, name: 'Asha \u202Eraj' });
    if (!added.ok) throw new Error(added.problem.message);
    const signedIn = await harness.host.handle('staff.signIn', { badge: (added.value as { badge: string }).badge });
    expect(signedIn.ok).toBe(true);
    await page.getByTestId('packer-chip').filter({ hasText: 'Asha \\u202Eraj' }).waitFor();

    // The order screen: customer, delivery person, item.
    await typeOrderId(page, order.id);
    const screen = page.locator(`[data-testid="order-screen"][data-order-id="${order.id}"]`);
    await screen.getByTestId('item-row').first().waitFor();
    const shown = (await screen.textContent()) ?? '';
    expect(shown).toContain('Para\\u202Ecetamol 500');
    expect(shown).toContain('Sunil \\u2067dlo\\u2069 Das');
    expect(await pageText(page)).not.toMatch(BIDI);
    await shot(page, '38-direction-marks-order');

    // Accepted by the packer: the packing slip, with the invoice number the service holds.
    const tapped = await harness.host.handle('taps.submit', { orderId: order.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
    expect(tapped.ok, JSON.stringify(tapped)).toBe(true);
    await page.getByTestId('invoice-current').filter({ hasText: 'INV-\\u202E42' }).waitFor();
    await page.getByTestId('print-slip').click();
    const slip = page.locator(`[data-testid="print-root"][data-document="packingSlip"] [data-order-id="${order.id}"]`);
    await slip.waitFor({ state: 'attached' });
    const slipText = (await page.getByTestId('print-root').textContent()) ?? '';
    expect(slipText).toContain('Para\\u202Ecetamol 500');
    expect(slipText).toContain('INV-\\u202E42');
    expect(slipText).toMatch(/Sunil \\u2067dlo\\u2069 Das|Ravi \\u202Eabc Kumar/);
    expect(slipText).not.toMatch(BIDI);

    // The pick list of that order.
    await page.keyboard.press('Escape');
    await page.getByTestId('queue-list').waitFor();
    await row.getByTestId('pick-select').click();
    await page.getByTestId('print-pick-list').click();
    await page.locator('[data-testid="print-root"][data-document="pickList"]').waitFor({ state: 'attached' });
    const pickText = (await page.getByTestId('print-root').textContent()) ?? '';
    expect(pickText).toContain('Para\\u202Ecetamol 500');
    expect(pickText).not.toMatch(BIDI);

    // The shift screen names the packer who accepted it; its printed summary too.
    await openFromTopBar(page, 'shift');
    await page.getByTestId('shift-body').filter({ hasText: 'Asha \\u202Eraj' }).waitFor({ timeout: 15_000 });
    expect(await pageText(page)).not.toMatch(BIDI);
    await shot(page, '38-direction-marks-shift');
    await page.getByTestId('shift-print').click();
    await page.locator('[data-testid="print-root"][data-document="shiftSummary"]').filter({ hasText: 'Asha' }).waitFor({ state: 'attached' });
    const summary = (await page.getByTestId('print-root').textContent()) ?? '';
    expect(summary).toContain('Asha \\u202Eraj');
    expect(summary).not.toMatch(BIDI);

    // In Hindi too: the names are the same text in another sentence.
    await page.getByTestId('language-hi').click();
    await page.locator('.top-nav .nav-button').first().click();
    await row.filter({ hasText: 'Ravi \\u202Eabc Kumar' }).waitFor();
    await page.getByTestId('packer-chip').filter({ hasText: 'Asha \\u202Eraj' }).waitFor();
    expect(await pageText(page)).not.toMatch(BIDI);
    await shot(page, '38-direction-marks-queue-hi');
    expect(terminal.problems).toEqual([]);
  });
});
