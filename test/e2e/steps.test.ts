/**
 * The order says the step the packer knows (issue 22, item 9): Packing, Packed, Out for delivery,
 * Delivered, in its header and its queue row, rather than "Accepted" throughout or "In progress".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptOrder, appliedTo, openTerminal, orderPool, scan, shot, tapStep, type Terminal, until } from './support';

describe('the step an order has reached', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 24, sandboxOptions: { arrivalEveryMs: 0 } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const header = () => t.page.getByTestId('order-state');

  it('a seeded packed order reads "Packed", not "In progress", in its header and its row', async () => {
    const { page, sandbox } = t;
    // Packed, its delivery looking for a rider: the packer's step is Packed.
    const packed = sandbox.orders().find((o) => o.orderState === 'In-progress' && o.fulfillments.some((f) => f.fulfillmentState === 'SEARCHING_FOR_AGENT'))!;
    const row = page.locator(`[data-testid="order-row"][data-order-id="${packed.id}"]`);
    await scan(page, packed.id);
    await expect(header().textContent()).resolves.toBe('Packed');
    await page.keyboard.press('Escape');
    // Its row, among the orders whose next step is Out for delivery.
    await page.getByTestId('filter-OUT_FOR_DELIVERY').click();
    await expect(row.locator('.row-state').textContent()).resolves.toBe('Packed');
    await page.getByTestId('filter-ALL').click();
  });

  it('follows the packer through Packing, Packed, Out for delivery and Delivered', async () => {
    const { page, sandbox } = t;
    const order = orderPool(sandbox)();
    await acceptOrder(t, order);
    await expect(header().textContent()).resolves.toBe('Accepted');
    const steps: [string, string][] = [
      ['PACKING', 'Packing'],
      ['PACKED', 'Packed'],
      ['OUT_FOR_DELIVERY', 'Out for delivery'],
      ['DELIVERED', 'Delivered'],
    ];
    for (const [i, [step, word]] of steps.entries()) {
      await tapStep(page, step);
      await header().filter({ hasText: word }).waitFor();
      await until(`${step} at the service`, () => appliedTo(sandbox, order.id).length >= i + 2);
      // Still so once the service's answer replaced the foreseen view.
      await expect(header().textContent()).resolves.toBe(word);
      if (step === 'PACKING') {
        await shot(page, '75-en-order-header-packing');
        await page.getByTestId('language-hi').click();
        await header().filter({ hasText: 'पैकिंग चल रही है' }).waitFor();
        await shot(page, '75-hi-order-header-packing');
        await page.getByTestId('language-en').click();
      }
    }
    expect(t.problems).toEqual([]);
  }, 60_000);
});
