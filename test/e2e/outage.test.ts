/**
 * An outage: the order service stops answering, the packer keeps tapping through five orders,
 * the screen shows every tap waiting (counts in the sync bar and on each order); when the
 * service is back, all taps arrive, each order's in the order tapped, and the marks clear with no
 * action by the packer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../../src/shared/protocol/schemas';
import { appliedTo, freshOrders, openTerminal, scan, shot, tapStep, until, type Terminal } from './support';

describe('an outage', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps every tap while the service is down and sends them all, in order, when it is back', async () => {
    const { page, sandbox } = t;
    const orders = freshOrders(sandbox).slice(0, 5);
    expect(orders).toHaveLength(5);

    // Morning: the five orders are accepted while the service answers, so their details are known.
    for (const o of orders) {
      await scan(page, o.id);
      await page.locator(`[data-testid="order-screen"][data-order-id="${o.id}"]`).waitFor();
      await tapStep(page, 'ACCEPT');
    }
    await until('the five acceptances at the service', () => orders.every((o) => appliedTo(sandbox, o.id).length === 1));
    const before = sandbox.appliedLog().length;

    // The service goes away (connection refused).
    sandbox.faults.set({ outage: 'refuse' });
    for (const o of orders) {
      await scan(page, o.id);
      await page.locator(`[data-testid="order-screen"][data-order-id="${o.id}"]`).waitFor();
      await page.getByTestId('item-row').first().waitFor();
      await tapStep(page, 'PACKING');
      await tapStep(page, 'PACKED');
      await page.getByTestId('order-marks').getByTestId('mark-waiting').filter({ hasText: '(2)' }).waitFor();
    }
    await page.getByTestId('sync-connectivity').filter({ hasText: 'Offline' }).waitFor({ timeout: 20_000 });
    // The sync bar's count comes by its own status event, which may follow "Offline" by a moment.
    await page.getByTestId('sync-waiting').filter({ hasText: '10 taps waiting' }).waitFor();
    await expect(page.getByTestId('sync-waiting').textContent()).resolves.toContain('10 taps waiting');
    await shot(page, '20-outage-order');

    // The queue shows each of the five waiting, with its count.
    await page.keyboard.press('Escape');
    await page.getByTestId('filter-OUT_FOR_DELIVERY').click();
    for (const o of orders)
      await expect(
        page.locator(`[data-testid="order-row"][data-order-id="${o.id}"]`).getByTestId('mark-waiting').textContent(),
      ).resolves.toContain('Waiting to sync (2)');
    await shot(page, '21-outage-queue');
    expect(sandbox.appliedLog().length).toBe(before);

    // The service is back: everything arrives without anyone touching the terminal.
    sandbox.faults.set({ outage: 'none' });
    await until('all ten taps at the service', () => sandbox.appliedLog().length === before + 10, 30_000);
    for (const o of orders) {
      const store = o.fulfillments.find((f) => f.type === 'STORE')!.fulfillmentId;
      const expected: Action[] = [
        { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
        { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKING' },
        { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKED' },
      ];
      expect(appliedTo(sandbox, o.id)).toEqual(expected);
    }
    // Each tap was applied once, however many times it was tried during the outage.
    const requestIds = sandbox.appliedLog().map((e) => e.requestId);
    expect(new Set(requestIds).size).toBe(requestIds.length);

    await page.getByTestId('sync-waiting').filter({ hasText: 'All taps sent' }).waitFor();
    await page.getByTestId('sync-connectivity').filter({ hasText: 'Online' }).waitFor();
    await page.getByTestId('queue-list').getByTestId('mark-waiting').first().waitFor({ state: 'detached' });
    await shot(page, '22-after-outage-queue');
    expect(t.problems).toEqual([]);
  }, 120_000);
});
