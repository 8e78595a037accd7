/**
 * An order another counter holds, as every other counter shows it (issue 39, items 2 and 3), in
 * Chromium: a training store of two counters on a real hub, Ravi signed in at Counter 1.
 *
 * - Being packed at Counter 1: Counter 2's queue row says who and where ("Ravi · Counter 1") and
 *   shows its step greyed; the order's screen says "Being packed by Ravi at Counter 1" with the
 *   step shown but not offered; Change units, Cancel and the invoice say why they wait and ask
 *   Take over before any dialog opens (the units dialog opens once it is taken over).
 * - Packed at Counter 1: the hand-over steps are Counter 2's too (the big button offers Out for
 *   delivery there, and the tap is sent), with a line saying where it was packed; the claim stays.
 * English at 1024, Hindi at 1366.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainingStore } from '../../src/web/store';
import type { OrderView } from '../../src/shared/ipc';
import { type TwoCountersOnScreens, twoCountersOnScreens } from './store';
import { appliedTo, axe, openCounterPage, orderPool, scan, shot, tapStep, until } from './support';

let store: TrainingStore;
let one: Page;
let two: Page;
let take: ReturnType<typeof orderPool>;

const serious = (findings: Awaited<ReturnType<typeof axe>>) => findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
const row = (page: Page, id: string) => page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);

let screens: TwoCountersOnScreens;

beforeAll(async () => {
  screens = await twoCountersOnScreens({ name: 'held', sandboxOptions: { orderCount: 24 }, packer: 'Ravi' });
  ({ store, one, two } = screens);
  take = orderPool(store.sandbox);
}, 120_000);

afterAll(() => screens?.close());

describe('an order another counter holds', () => {
  it('being packed there: the row says who and where, the step is shown but not offered, and every other step asks Take over before its dialog', async () => {
    const order = take((o) => o.orderState === 'Created' && o.items.some((i) => i.quantity.count > 1));
    await scan(one, order.id);
    await tapStep(one, 'ACCEPT');
    await until(`${order.id} accepted at the service`, () => appliedTo(store.sandbox, order.id).length >= 1);

    // The queue of Counter 2: who and where, the step greyed.
    await row(two, order.id).getByTestId('mark-claimed').filter({ hasText: 'Ravi · Counter 1' }).waitFor({ timeout: 10_000 });
    await row(two, order.id).locator('.step-pill[data-held="true"]').waitFor();
    await row(two, order.id).scrollIntoViewIfNeeded();
    await shot(two, '93-held-row-en-1024');

    await scan(two, order.id);
    const banner = two.getByTestId('claim-banner');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('Being packed by Ravi at Counter 1');
    // Its step there is shown, not offered: no big button, and the pill is no control.
    await two.locator('[data-testid="claim-step"][data-step="PACKING"]').waitFor();
    expect(await two.getByTestId('next-step').count()).toBe(0);
    expect(await two.getByTestId('claim-step').locator('button').count()).toBe(0);

    // Change units says why it waits, and asks Take over before its dialog opens.
    expect(await two.getByTestId('held-note').first().innerText()).toBe('Ravi at Counter 1 holds this order: take it over to change units.');
    await two.getByTestId('change-units').first().click();
    await two.getByTestId('take-over-dialog').waitFor();
    expect(await two.getByTestId('units-dialog').count()).toBe(0);
    expect(await two.getByTestId('take-over-why').innerText()).toContain('Changing units is packing work');
    await shot(two, '94-take-over-first-en-1024');
    expect(serious(await axe(two))).toEqual([]);
    await two.getByRole('button', { name: 'Leave it with them' }).click();
    await two.getByTestId('take-over-dialog').waitFor({ state: 'detached' });
    // Cancel and the invoice likewise.
    await two.getByTestId('cancel-order').click();
    await two.getByTestId('take-over-dialog').waitFor();
    expect(await two.getByTestId('cancel-dialog').count()).toBe(0);
    await two.getByRole('button', { name: 'Leave it with them' }).click();
    await two.getByTestId('held-note').filter({ hasText: 'take it over to write its invoice' }).waitFor();
    expect(appliedTo(store.sandbox, order.id)).toHaveLength(1);

    // Taken over from Change units: the units dialog opens then, at this counter, and Counter 1 sees it moved.
    await two.getByTestId('change-units').first().click();
    await two.getByTestId('take-over-confirm').click();
    await two.getByTestId('units-dialog').waitFor({ timeout: 5_000 });
    await one.getByTestId('claim-banner').waitFor({ timeout: 5_000 });
    await two.keyboard.press('Escape');
  }, 90_000);

  it('packed there: the hand-over steps are offered here too, the line says where it was packed, and the claim stays there', async () => {
    const order = take((o) => o.orderState === 'Created' && o.fulfillments.some((f) => f.type === 'DELIVERY'));
    await scan(one, order.id);
    await tapStep(one, 'ACCEPT');
    await tapStep(one, 'PACKING');
    await tapStep(one, 'PACKED');
    await until(`${order.id} packed at the service`, () => appliedTo(store.sandbox, order.id).length >= 3);

    await scan(two, order.id);
    await two.getByTestId('packed-elsewhere').filter({ hasText: 'Packed by Ravi at Counter 1' }).waitFor({ timeout: 10_000 });
    expect(await two.getByTestId('claim-banner').count()).toBe(0);
    await shot(two, '95-packed-elsewhere-en-1024');
    await tapStep(two, 'OUT_FOR_DELIVERY');
    await until(`${order.id} out for delivery at the service`, () =>
      appliedTo(store.sandbox, order.id).some((a) => a.type === 'ORDER_FULFILMENT_STATE_UPDATE' && a.fulfillmentState === 'OUT_FOR_DELIVERY'),
    );
    // Counter 1 still holds it: handing over did not take it.
    const at = await store.counters[0]!.host.handle('orders.get', { orderId: order.id });
    expect(at.ok && (at.value as OrderView | null)?.claim?.here).toBe(true);
  }, 90_000);

  it('in Hindi at 1366: the row, the banner and why a step waits', async () => {
    const wide = await openCounterPage(screens.browser, store.counters[1]!.url, 1366);
    await wide.getByTestId('language-hi').click();
    await wide.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    const order = take((o) => o.orderState === 'Created');
    await scan(one, order.id);
    await tapStep(one, 'ACCEPT');
    // The hub's counter names in Hindi inside Hindi words ("काउंटर 1"), as every Hindi sentence says them.
    await row(wide, order.id).getByTestId('mark-claimed').filter({ hasText: 'Ravi · काउंटर 1' }).waitFor({ timeout: 10_000 });
    await scan(wide, order.id);
    await wide.getByTestId('claim-banner').filter({ hasText: 'काउंटर 1 पर Ravi पैक कर रहे हैं' }).waitFor();
    expect(await wide.getByTestId('claim-step').innerText()).toContain('अगला, उस काउंटर पर');
    expect(await wide.getByTestId('held-note').first().innerText()).toContain('काउंटर 1 पर Ravi के पास है');
    await shot(wide, '93-held-hi-1366');
    expect(serious(await axe(wide))).toEqual([]);
    await wide.close();
  }, 60_000);
});
