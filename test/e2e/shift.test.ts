/**
 * A packer's shift, end to end: the queue, a scanned order, and every step from Accept to
 * DELIVERED and Complete order, each confirmed by the sandbox's applied log. Also the PIN gate and the
 * settings screen. Screenshots of each screen go to test-results/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedTo, freshOrders, MANAGER_PIN, scan, shot, tapStep, until, openTerminal, type Terminal } from './support';

describe("a packer's shift", () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('scans an order and takes it from Accept to DELIVERED, each step reaching the service', async () => {
    const { page, sandbox } = t;
    await expect(page.getByTestId('training-banner').textContent()).resolves.toContain('TRAINING');
    await shot(page, '01-queue');

    const order = freshOrders(sandbox)[0];
    if (!order) throw new Error('the sandbox seeded no new order with delivery');
    await scan(page, order.id);
    const screen = page.locator(`[data-testid="order-screen"][data-order-id="${order.id}"]`);
    await screen.waitFor();
    // Intake brought the order in with its body: its items show before Accept.
    await page.getByTestId('item-row').first().waitFor();
    await shot(page, '02-order-new');

    // Accept: the screen changes at once, the undo bar counts down, then the service has it.
    await tapStep(page, 'ACCEPT');
    await page.getByTestId('undo-bar').waitFor();
    await expect(page.getByTestId('order-marks').textContent()).resolves.toContain('Waiting to sync');
    await shot(page, '03-undo-bar');
    await until('the acceptance at the service', () => appliedTo(sandbox, order.id).length === 1);
    expect(appliedTo(sandbox, order.id)).toEqual([{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);

    // The service's answer fills in the items and fulfilments.
    await page.getByTestId('item-row').first().waitFor();
    await page.getByTestId('order-marks').getByTestId('mark-waiting').waitFor({ state: 'detached' });
    await shot(page, '04-order-detail');

    const store = order.fulfillments.find((f) => f.type === 'STORE')!.fulfillmentId;
    const delivery = order.fulfillments.find((f) => f.type === 'DELIVERY')!.fulfillmentId;
    const steps = [
      ['PACKING', store],
      ['PACKED', store],
      ['OUT_FOR_DELIVERY', delivery],
      ['DELIVERED', delivery],
    ] as const;
    for (const [i, [state, fulfilmentId]] of steps.entries()) {
      await tapStep(page, state);
      await until(`${state} at the service`, () => appliedTo(sandbox, order.id).length === i + 2);
      expect(appliedTo(sandbox, order.id)[i + 1]).toEqual({ type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId, fulfillmentState: state });
      if (state === 'PACKED') await shot(page, '05-order-packed');
    }
    // Delivered, but the service still says Accepted: the last step closes the order.
    await page.getByTestId('order-marks').getByTestId('mark-waiting').waitFor({ state: 'detached' });
    await shot(page, '06-order-delivered');
    await tapStep(page, 'COMPLETE');
    await until('COMPLETED at the service', () => appliedTo(sandbox, order.id).length === 6);
    expect(appliedTo(sandbox, order.id)[5]).toEqual({ type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' });
    await page.getByTestId('finished-panel').waitFor();
    await expect(page.getByTestId('order-state').textContent()).resolves.toBe('Completed');
    await shot(page, '06b-order-completed');
    // Nothing was sent twice, and the service's order agrees with the screen.
    expect(sandbox.requestLog().filter((r) => r.orderId === order.id && r.duplicate)).toEqual([]);
    expect(sandbox.order(order.id)?.fulfillments.find((f) => f.type === 'DELIVERY')?.fulfillmentState).toBe('DELIVERED');
    expect(sandbox.order(order.id)?.orderState).toBe('Completed');

    // Back in the queue the order sits under "Nothing left".
    await page.keyboard.press('Escape');
    await page.getByTestId('filter-DONE').click();
    await page.locator(`[data-testid="order-row"][data-order-id="${order.id}"]`).waitFor();
    await shot(page, '07-queue-done-filter');
    await page.getByTestId('filter-ALL').click();
    expect(t.problems).toEqual([]);
  }, 90_000);

  it('opens settings with the manager PIN (set before the first shift)', async () => {
    const { page } = t;
    await page.keyboard.press('F9');
    await page.getByTestId('settings-pin').fill(MANAGER_PIN);
    await page.getByRole('button', { name: 'Open settings' }).click();
    await page.getByTestId('terminal-form').waitFor();
    await shot(page, '09-settings');

    // Lock, then a wrong PIN is refused in words and the right one opens settings again.
    await page.getByRole('button', { name: /Lock settings/ }).click();
    await page.getByTestId('settings-pin').fill('1111');
    await page.getByRole('button', { name: 'Open settings' }).click();
    await expect(page.getByTestId('pin-gate').getByRole('alert').textContent()).resolves.toMatch(/PIN/);
    await page.getByTestId('settings-pin').fill(MANAGER_PIN);
    await page.getByRole('button', { name: 'Open settings' }).click();
    await page.getByTestId('terminal-form').waitFor();

    // The credentials form is write-only: it answers saved or rejected, and never shows a secret.
    await page.getByTestId('connection-form').getByLabel(/Client secret/).fill('not-the-secret');
    await page.getByTestId('credentials-save').click();
    const result = await page.getByTestId('credentials-result').textContent();
    expect(result).toMatch(/Saved|Rejected/);
    expect(await page.getByTestId('connection-form').getByLabel(/Client secret/).inputValue()).toBe('');
    await shot(page, '10-settings-credentials');

    // Change PIN asks for the new PIN twice: two different ones change nothing.
    await page.getByTestId('pin-change-new').fill('97531');
    await page.getByTestId('pin-change-again').fill('97530');
    await expect(page.getByTestId('pin-change').isDisabled()).resolves.toBe(true);
    await page.getByText('The two PINs are different.').waitFor();
    await shot(page, '11-settings-change-pin-mismatch');
    await page.getByTestId('pin-change-again').fill('97531');
    await page.getByTestId('pin-change').click();
    await page.getByText('PIN changed.').waitFor();
    await expect(t.harness.host.handle('pin.verify', { pin: '97531' })).resolves.toEqual({ ok: true, value: { valid: true } });
    await expect(t.harness.host.handle('pin.verify', { pin: MANAGER_PIN })).resolves.toEqual({ ok: true, value: { valid: false } });
    await page.keyboard.press('Escape');
  }, 60_000);
});
