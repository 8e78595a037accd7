/**
 * What the store sets is store-wide, and an order cancelled while another counter packs it is said
 * at every counter (issue 39, item 5), in Chromium: a training store of two counters on a real hub.
 *
 * - Scan to pack turned on in Counter 1's Settings (said there to be the store's setting) is on at
 *   Counter 2 at once: its order screen asks for each unit to be scanned.
 * - The marketplace cancels an order Ravi is packing at Counter 1: Counter 1 raises its alarm;
 *   Counter 2 shows a solid red line about it on every screen (the queue, the outbox), in English
 *   and Hindi, until Counter 1 acknowledges the alarm.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainingStore } from '../../src/web/store';
import type { Order } from '../../src/shared/protocol';
import { type TwoCountersOnScreens, twoCountersOnScreens } from './store';
import { appliedTo, axe, openSettings, orderPool, scan, shot, tapStep, until } from './support';

let store: TrainingStore;
let one: Page;
let two: Page;
let take: ReturnType<typeof orderPool>;

const serious = (findings: Awaited<ReturnType<typeof axe>>) => findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
const storeOf = (o: Order): string => o.fulfillments.find((f) => f.type === 'STORE')!.fulfillmentId;

let screens: TwoCountersOnScreens;

beforeAll(async () => {
  screens = await twoCountersOnScreens({
    name: 'storewide',
    sandboxOptions: { orderCount: 20, changesMinIntervalMs: 0 },
    host: { settingsOverride: { undoWindowMs: 0, intakeIntervalMs: 1_000, scanToPack: false }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500, intakeMinIntervalMs: 200 } },
    packer: 'Ravi',
  });
  ({ store, one, two } = screens);
  take = orderPool(store.sandbox);
}, 120_000);

afterAll(() => screens?.close());

describe('the store, alike at every counter', () => {
  it('scan to pack turned on at Counter 1 is on at Counter 2 at once, and Settings says it is the store’s', async () => {
    await openSettings(one);
    await one.getByTestId('staff-panel').waitFor();
    await one.getByTestId('store-wide').first().waitFor();
    expect(await one.getByTestId('store-wide').first().innerText()).toContain('A setting of the whole store');
    await one.getByTestId('scan-to-pack').check();
    await one.getByTestId('scan-to-pack-save').click();
    await until('scan to pack on at Counter 2', () => store.counters[1]!.host.settings().scanToPack, 10_000);

    const order = take((o) => o.orderState === 'Created');
    await scan(two, order.id);
    await tapStep(two, 'ACCEPT');
    await two.getByTestId('pack-checklist').waitFor({ timeout: 10_000 });
    await shot(two, '98-scan-to-pack-store-wide-en-1024');
    await one.keyboard.press('Escape');
  });

  it('an order cancelled while Ravi packs it at Counter 1: its alarm there, a solid red line at Counter 2 on every screen until acknowledged', async () => {
    const order = take((o) => o.orderState === 'Created');
    await scan(one, order.id);
    await tapStep(one, 'ACCEPT');
    await until(`${order.id} accepted at the service`, () => appliedTo(store.sandbox, order.id).length >= 1);
    const packing = await store.counters[0]!.host.handle('taps.submit', { orderId: order.id, input: { kind: 'fulfilment', fulfilmentId: storeOf(order), state: 'PACKING' } });
    expect(packing.ok).toBe(true);
    await two.keyboard.press('Escape');

    store.sandbox.changeOrder(order.id, 'cancel');
    await one.getByTestId('alarm-panel').waitFor({ timeout: 15_000 });
    const line = two.locator(`[data-testid="store-alarm-line"][data-order-id="${order.id}"]`);
    await line.waitFor({ timeout: 15_000 });
    expect(await line.innerText()).toContain(`Order ${order.id} was cancelled at`);
    expect(await line.innerText()).toContain('while Ravi at Counter 1 was packing it. Do not hand it over.');
    expect(await line.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(179, 38, 30)');
    await shot(two, '99-cancelled-elsewhere-line-en-1024');
    expect(serious(await axe(two))).toEqual([]);
    // On every screen: the outbox too, and the order itself.
    await two.getByTestId('sync-bar').click();
    await line.waitFor();
    await two.keyboard.press('Escape');
    await scan(two, order.id);
    await line.waitFor();
    // In Hindi.
    await two.getByTestId('language-hi').click();
    await line.getByText('इसे किसी को न दें', { exact: false }).waitFor();
    await shot(two, '99-cancelled-elsewhere-line-hi-1024');
    await two.getByTestId('language-en').click();

    // Acknowledged at Counter 1: the line goes at Counter 2.
    await one.getByTestId('alarm-ack').click();
    await line.waitFor({ state: 'detached', timeout: 10_000 });
  }, 90_000);
});
