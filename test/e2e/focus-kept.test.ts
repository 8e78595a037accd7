/**
 * The keyboard focus stays where the packer put it when an order's screen is drawn again. The
 * harness reads every order again after its socket comes back (on a busy one-core PC the host
 * drops a page that falls behind reading its events), and the open order's screen is drawn anew
 * from the engine's view: its big button must not then take the focus from the find field
 * someone is typing in, or the rest of the typing lands outside the field and is read as a scan
 * (bench/ui-packer.ts on one core: "RD-1145532" offered as an invoice number).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderSummary } from '../../src/shared/ipc';
import { eventGate, openTerminal, orderPool, scan, type Terminal } from './support';

describe('focus kept when an order is drawn again', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;
  const gate = eventGate();

  beforeAll(async () => {
    t = await openTerminal({ beforeOpen: (page) => gate.install(page) });
    take = orderPool(t.sandbox);
  });
  afterAll(async () => {
    await t?.close();
  });

  const focused = (): Promise<string | null | undefined> =>
    t.page.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute('data-testid'));

  /**
   * What the harness's bridge does after its socket came back: every order's row, read again and
   * sent as orders.listed; returns once the open order's big button is a new one (drawn anew).
   */
  async function listedAgain(): Promise<void> {
    await t.page.evaluate(() => document.querySelectorAll('[data-testid="next-step"]').forEach((b) => b.setAttribute('data-before', '')));
    const list = await t.harness.host.handle('orders.list', {});
    if (!list.ok) throw new Error(`orders.list: ${list.problem.message}`);
    gate.send('orders.listed', { orders: list.value as OrderSummary[] });
    await t.page.locator('[data-testid="next-step"]:not([data-before])').waitFor();
  }

  it('the find field keeps the focus while the open order is read again; the big button takes it when nobody types', async () => {
    const { page } = t;
    const order = take();
    await scan(page, order.id);
    const button = page.locator(`[data-testid="order-screen"][data-order-id="${order.id}"] [data-testid="next-step"][data-step="ACCEPT"]`);
    await button.waitFor();
    expect(await focused()).toBe('next-step');

    // Typing in the find field when the list comes again: the screen is drawn anew, the field keeps the keys.
    await page.keyboard.press('F2');
    expect(await focused()).toBe('order-id-entry');
    await page.keyboard.type('Pat', { delay: 60 });
    await listedAgain();
    await page.keyboard.type('el', { delay: 60 });
    expect(await focused()).toBe('order-id-entry');
    expect(await page.locator('#order-id-entry').inputValue()).toBe('Patel');
    expect(await page.locator('dialog[open]').count()).toBe(0);

    // Nobody typing (the focus nowhere: it went with the button that was drawn again): back on the big button.
    await page.locator('#order-id-entry').fill('');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await listedAgain();
    await button.waitFor();
    expect(await focused()).toBe('next-step');
  }, 60_000);
});
