/**
 * What two counters of one store share through the store hub (issue 24), in Chromium: a training
 * store as `npm start -- --counters 2` makes it. A packer added in Settings -> Staff on Counter 1
 * signs in at Counter 2 by scanning the badge printed at Counter 1; a barcode taught on Counter 1
 * ("Which item is this?") is known on Counter 2; after taps on both counters, the Shift screen on
 * either one has a row for each counter with its own count, and the packer's row counts what they
 * did at the other counter. English at 1024, the Shift screen in Hindi at 1920 too.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShiftReport } from '../../src/shared/ipc';
import type { Item, Order } from '../../src/shared/protocol';
import type { TrainingStore } from '../../src/web/store';
import { type TwoCountersOnScreens, twoCountersOnScreens } from './store';
import { axe, openCounterPage, openFromTopBar, openSettings, orderPool, scan, scanUntilSeen, shot, tapStep, until } from './support';

const PACKER = 'Ravi Kumar';
/** An EAN-13 (its check digit right: a product barcode) no seeded item has as its code. */
const NEW_BARCODE = '8901234567890';

let store: TrainingStore;
let screens: TwoCountersOnScreens;
let one: Page;
let two: Page;
let take: ReturnType<typeof orderPool>;

const serious = (findings: Awaited<ReturnType<typeof axe>>) => findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
const scanFor = (page: Page, code: string, selector: string): Promise<void> => scanUntilSeen(page, code, page.locator(selector));

function counterPage(n: 0 | 1, width: number): Promise<Page> {
  return openCounterPage(screens.browser, store.counters[n]!.url, width);
}

async function report(n: 0 | 1): Promise<ShiftReport> {
  const reply = await store.counters[n]!.host.handle('shift.report', {});
  if (!reply.ok) throw new Error(reply.problem.message);
  return reply.value as ShiftReport;
}

/** Accepted and packed per counter name, as a report says. */
const byCounter = (r: ShiftReport): Record<string, number> => Object.fromEntries(r.byCounter.map((c) => [c.counter, c.figures.accepted]));

beforeAll(async () => {
  screens = await twoCountersOnScreens({
    name: 'shared',
    sandboxOptions: { orderCount: 30 },
    host: { settingsOverride: { undoWindowMs: 0, scanToPack: true }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500 }, hubTuning: { awayAfterMs: 3_000 } },
  });
  ({ store, one, two } = screens);
  take = orderPool(store.sandbox);
}, 120_000);

afterAll(() => screens?.close());

describe('two counters share the staff list, taught barcodes and the shift', () => {
  let badge = '';
  let first: Item;
  let taughtOn: Order;

  it('a packer added on Counter 1 signs in on Counter 2 by scanning the badge made on Counter 1', async () => {
    await openSettings(one);
    await one.getByTestId('staff-panel').waitFor();
    await one.getByTestId('staff-name').fill(PACKER);
    await one.getByTestId('staff-add').click();
    const row = one.locator(`[data-testid="staff-row"][data-name="${PACKER}"]`);
    await row.waitFor();
    badge = (await row.getAttribute('data-badge')) ?? '';
    expect(badge).toMatch(/^PDKS-[0-9A-HJKMNP-TV-Z]{8}$/);
    await one.keyboard.press('Escape');
    await one.getByTestId('queue-list').waitFor();

    // Counter 2 learns the store keeps names now (it asks for a badge), and the badge signs Ravi in there.
    await two.getByTestId('packer-sign-in').waitFor({ timeout: 10_000 });
    await scanFor(two, badge, `[data-testid="packer-chip"][data-packer="${PACKER}"]`);
    await shot(two, 'shared-01-badge-on-counter-2-en-1024');
    expect(serious(await axe(two))).toEqual([]);
  }, 90_000);

  it('a barcode taught on Counter 1 is known on Counter 2', async () => {
    taughtOn = take((o) => o.items.length >= 1);
    first = taughtOn.items[0] as Item;
    await scan(one, taughtOn.id);
    await tapStep(one, 'ACCEPT');
    await tapStep(one, 'PACKING');
    await one.getByTestId('pack-checklist').waitFor();
    await scanFor(one, NEW_BARCODE, '[data-testid="teach-dialog"]');
    await one.locator(`[data-testid="teach-item"][data-item-id="${first.itemId}"]`).click();
    await one.locator(`[data-testid="pack-row"][data-item-id="${first.itemId}"][data-scanned="1"]`).waitFor();
    await one.keyboard.press('Escape');

    // On Counter 2, an order with that product when the seed has one (the barcode ticks it), else
    // any other: the barcode is a product the store knows, "not in this order", never "Which item is this?".
    const code = first.serviceProviderItemId;
    let other: Order;
    let shares = true;
    try {
      other = take((o) => o.items.some((i) => i.serviceProviderItemId === code));
    } catch {
      other = take();
      shares = false;
    }
    await scan(two, other.id);
    await tapStep(two, 'ACCEPT');
    await tapStep(two, 'PACKING');
    await two.getByTestId('pack-checklist').waitFor();
    if (shares) {
      const item = other.items.find((i) => i.serviceProviderItemId === code) as Item;
      await scanFor(two, NEW_BARCODE, `[data-testid="pack-row"][data-item-id="${item.itemId}"][data-scanned="1"]`);
    } else {
      await scanFor(two, NEW_BARCODE, '[data-testid="pack-stranger"]');
    }
    expect(await two.getByTestId('teach-dialog').count()).toBe(0);
    await shot(two, 'shared-02-taught-known-on-counter-2-en-1024');
    await two.keyboard.press('Escape');
  }, 120_000);

  it("after taps on both counters, the Shift screen on either counter shows both counters' rows with the right counts", async () => {
    // One more Accept on Counter 2 (by Ravi, signed in there): Counter 1 accepted one, Counter 2 two.
    const third = take();
    await scan(two, third.id);
    await tapStep(two, 'ACCEPT');
    await two.keyboard.press('Escape');
    const expected = { 'Counter 1': 1, 'Counter 2': 2 };
    for (const n of [0, 1] as const) await until(`Counter ${n + 1}'s figures hold both counters' taps`, async () => JSON.stringify(byCounter(await report(n))) === JSON.stringify(expected), 15_000);

    for (const page of [one, two]) {
      await openFromTopBar(page, 'shift');
      const screen = page.getByTestId('shift-screen');
      await screen.getByTestId('shift-body').waitFor();
      const counters = screen.getByTestId('shift-counters');
      for (const [name, accepted] of Object.entries(expected))
        await expect(counters.locator(`tr[data-name="${name}"] td`).first().innerText()).resolves.toBe(String(accepted));
      // Ravi's two Accepts were made at Counter 2: his row says so on Counter 1's screen too.
      await expect(screen.getByTestId('shift-packers').locator(`tr[data-name="${PACKER}"] td`).first().innerText()).resolves.toBe('2');
      await expect(screen.getByTestId('count-accepted').getAttribute('data-value')).resolves.toBe('3');
      await screen.getByTestId('shift-hub').waitFor();
      expect(serious(await axe(page))).toEqual([]);
    }
    await shot(one, 'shared-03-shift-store-en-1024');

    // In Hindi at 1920, on Counter 2: the same rows, and the note that the figures are the store's.
    const wide = await counterPage(1, 1920);
    await wide.getByTestId('language-hi').click();
    await wide.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await openFromTopBar(wide, 'shift');
    await wide.getByTestId('shift-body').waitFor();
    await wide.locator('[data-testid="shift-counters"] tr[data-name="Counter 1"]').waitFor();
    expect(await wide.getByTestId('shift-hub').innerText()).toContain('स्टोर');
    await shot(wide, 'shared-04-shift-store-hi-1920');
    expect(serious(await axe(wide))).toEqual([]);
    await wide.getByTestId('language-en').click();
    await wide.close();
  }, 120_000);

  it("the Shift screen left open on Counter 1 follows Counter 2's next tap by itself", async () => {
    // Counter 1 still shows the Shift screen from the test before; nobody touches it.
    const counters = one.getByTestId('shift-screen').getByTestId('shift-counters');
    await expect(counters.locator('tr[data-name="Counter 2"] td').first().innerText()).resolves.toBe('2');
    const fourth = take();
    await scan(two, fourth.id);
    await tapStep(two, 'ACCEPT');
    await two.keyboard.press('Escape');
    await until("Counter 1's open Shift screen shows Counter 2's third Accept", async () => (await counters.locator('tr[data-name="Counter 2"] td').first().innerText()) === '3', 20_000);
    await expect(one.getByTestId('count-accepted').getAttribute('data-value')).resolves.toBe('4');
    expect(await one.getByTestId('shift-screen').count()).toBe(1);
  }, 90_000);

  it('a packer signed in at two counters at once is told so on both, until one signs out', async () => {
    // Ravi is signed in at Counter 2 (the first test); his badge scanned at Counter 1 signs him in there too.
    await scanFor(one, badge, `[data-testid="packer-chip"][data-packer="${PACKER}"]`);
    for (const [page, other] of [[one, 'Counter 2'], [two, 'Counter 1']] as const) {
      const line = page.getByTestId('signed-in-twice');
      await line.waitFor({ timeout: 20_000 });
      expect(await line.innerText()).toContain(`${PACKER} is signed in here and at ${other} too`);
    }
    await shot(one, 'shared-05-signed-in-twice-en-1024');
    expect(serious(await axe(one))).toEqual([]);
    // In Hindi on Counter 2: the same, in its words and with the counter's Hindi name.
    await two.getByTestId('language-hi').click();
    await two.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await expect(two.getByTestId('signed-in-twice').innerText()).resolves.toContain('काउंटर 1');
    await shot(two, 'shared-06-signed-in-twice-hi-1024');
    await two.getByTestId('language-en').click();
    await two.locator('html[lang="en-IN"]').waitFor({ state: 'attached' });
    // Signed out at Counter 2: neither counter says it any more.
    await two.getByTestId('packer-sign-out').click();
    for (const page of [one, two]) await page.getByTestId('signed-in-twice').waitFor({ state: 'detached', timeout: 20_000 });
  }, 90_000);
});
