/**
 * Two counters of one store with the internet down and the store's network up, in Chromium (a
 * training store as `npm start -- --counters 2` makes it): Accept on Counter 1 shows on Counter 2
 * at once as done at Counter 1 and waiting to be sent from there, on the order screen and on the
 * queue row, with no big button to accept it again; the internet back, Counter 1 sends it once and
 * Counter 2 stops showing it as waiting.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainingStore } from '../../src/web/store';
import { type TwoCountersOnScreens, twoCountersOnScreens } from './store';
import { countCalls, type Settling, untilTapsSettled } from './settled';
import { appliedTo, axe, orderPool, scan, shot, tapStep, until } from './support';

let store: TrainingStore;
let screens: TwoCountersOnScreens;
let one: Page;
let two: Page;
/** Each counter as untilTapsSettled needs it. */
let counters: Settling[];

beforeAll(async () => {
  screens = await twoCountersOnScreens({
    name: 'offline',
    sandboxOptions: { orderCount: 12 },
    host: { settingsOverride: { undoWindowMs: 0 }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 300 } },
  });
  ({ store, one, two } = screens);
  counters = [one, two].map((page, i) => {
    const harness = store.counters[i]!;
    return { page, harness, callsInFlight: countCalls(harness) };
  });
}, 120_000);

afterAll(() => screens?.close());

describe('internet down, store network up', () => {
  it("shows Counter 1's Accept on Counter 2 as waiting to be sent from Counter 1, then sends it once when the internet is back", async () => {
    const order = orderPool(store.sandbox)((o) => o.orderState === 'Created');
    store.sandbox.faults.set({ outage: 'refuse', dedupe: false });
    await scan(one, order.id);
    await scan(two, order.id);
    await tapStep(one, 'ACCEPT');
    const waiting = two.locator('[data-testid="elsewhere-lines"] .elsewhere-waiting');
    await waiting.waitFor({ timeout: 3_000 });
    expect(await waiting.innerText()).toContain('waiting to be sent from there');
    expect(await waiting.innerText()).toContain('Counter 1');
    // Not offered to accept again here: the claim banner stands in for the big button.
    expect(await two.locator('[data-testid="next-step"][data-step="ACCEPT"]').count()).toBe(0);
    await shot(two, '74-waiting-elsewhere-en-1024');
    expect((await axe(two)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
    // The queue row on Counter 2 says it too. (At 1024 with the claim mark beside it, the mark takes a
    // third line of facts and is cut at the row's edge: in the DOM, not fully in sight; left to the screen's owner.)
    await two.keyboard.press('Escape');
    const row = two.locator(`[data-testid="order-row"][data-order-id="${order.id}"]`);
    await row.getByTestId('mark-waiting-elsewhere').waitFor({ timeout: 3_000 });
    expect(await row.getByTestId('mark-waiting-elsewhere').innerText()).toContain('Counter 1');
    await shot(two, '75-waiting-elsewhere-row-en-1024');
    expect(appliedTo(store.sandbox, order.id)).toEqual([]);

    store.sandbox.faults.set({ outage: 'none' });
    await until(`${order.id} accepted at the service`, () => appliedTo(store.sandbox, order.id).length >= 1, 20_000);
    await row.getByTestId('mark-waiting-elsewhere').waitFor({ state: 'detached', timeout: 10_000 });
    // Both counters are done with the order's taps: neither has one queued or being sent, so the service has all it will get.
    for (const counter of counters) await untilTapsSettled(counter, order.id);
    expect(appliedTo(store.sandbox, order.id)).toHaveLength(1);
  });
});
