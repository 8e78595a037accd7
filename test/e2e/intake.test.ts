/**
 * Orders arrive by themselves (Chromium, the browser harness, the in-app training sandbox): a new
 * order placed at the sandbox appears in the queue with its items within one poll interval, the
 * alert sounds until it is accepted or someone says "I have seen it" (opening it is not enough), the
 * badge moves nothing on screen, Reject cancels it with a reason, and orders placed
 * during an outage all appear once the network is back.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedTo, COUNT_TONES, openTerminal, shot, type Terminal, tones, until, untilTapsSettled } from './support';

const POLL_MS = 1_000;
let terminal: Terminal;

beforeAll(async () => {
  terminal = await openTerminal({
    orderCount: 12,
    settings: { intakeIntervalMs: POLL_MS, alertRepeatMs: 5_000 },
    engineOptions: { intakeMinIntervalMs: 500 },
    sandboxOptions: { arrivalEveryMs: 0, changesMinIntervalMs: 0 },
    beforeOpen: async (page) => {
      await page.addInitScript(COUNT_TONES);
    },
  });
}, 60_000);
afterAll(() => terminal?.close());

/** Whether the order-number field is wide enough for its placeholder in the font it is drawn in. */
const placeholderFits = (page: Page): Promise<{ fits: boolean; text: string }> =>
  page.evaluate(() => {
    const input = document.getElementById('order-id-entry') as HTMLInputElement;
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { fits: context.measureText(input.placeholder).width <= room, text: input.placeholder };
  });

const row = (page: Page, id: string) => page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);

describe('orders arriving by themselves', () => {
  it('shows seeded orders in their states at the service, not all as new', async () => {
    const { page, sandbox } = terminal;
    const accepted = sandbox.orders().find((o) => o.orderState === 'Accepted')!;
    await expect(row(page, accepted.id).locator('.row-state').textContent()).resolves.not.toMatch(/new/i);
    expect(await row(page, accepted.id).getAttribute('data-new')).toBeNull();
    // No tap has been made: intake's answered polls alone tell the sync bar the terminal is online.
    await page.getByTestId('sync-connectivity').filter({ hasText: 'Online' }).waitFor({ timeout: 10_000 });
  });

  it('a new order appears in the queue with its items within a poll interval; the alert sounds until Accept or "I have seen it", not merely opened; the screen does not move when the badge shows', async () => {
    const { page, sandbox } = terminal;
    const before = await tones(page);
    // Where the screen stands before the badge shows: nothing may move when it appears.
    const syncBarTop = (await page.getByTestId('sync-bar').boundingBox())?.y;
    const placed = sandbox.placeOrder();
    const second = sandbox.placeOrder();
    const placedAt = Date.now();
    await row(page, placed.id).waitFor({ timeout: 3 * POLL_MS + 5_000 });
    console.info(`new order on screen ${Date.now() - placedAt} ms after it was placed (poll interval ${POLL_MS} ms)`);
    await expect(row(page, placed.id).getAttribute('data-new')).resolves.toBe('true');
    const lines = placed.items.length;
    const rowText = await row(page, placed.id).textContent();
    expect(rowText).toContain(placed.billing?.name ?? 'no customer');
    expect(rowText).toContain(`${lines} ${lines === 1 ? 'item' : 'items'}`);
    await row(page, second.id).waitFor();
    await page.getByTestId('new-order-count').filter({ hasText: '2 new orders' }).waitFor();
    await expect.poll(() => tones(page), { timeout: 10_000 }).toBeGreaterThan(before);
    expect((await page.getByTestId('sync-bar').boundingBox())?.y).toBe(syncBarTop);
    // Unmistakable: solid, white on the warning colour, as tall as a tap.
    const badge = page.getByTestId('new-order-count');
    await expect(badge.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color])).resolves.toEqual(['rgb(122, 74, 0)', 'rgb(255, 255, 255)']);
    expect((await badge.boundingBox())?.height).toBeGreaterThanOrEqual(56);
    await shot(page, '60-queue-new-orders');
    // With the badge in the top bar at 1366, the find field still shows its whole
    // placeholder, in English and in Hindi (its words are longer).
    expect(await placeholderFits(page)).toEqual({ fits: true, text: 'Number or name' });
    await page.getByTestId('language-hi').click();
    await page.getByTestId('new-order-count').filter({ hasText: '2' }).waitFor();
    await page.waitForFunction(() => document.documentElement.lang === 'hi-IN');
    await shot(page, '60-hi-queue-new-orders');
    expect(await placeholderFits(page)).toEqual({ fits: true, text: 'नंबर या नाम' });
    await page.getByTestId('language-en').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en-IN');

    // Opening an order does not stop the alert (a tap meant for another row must not silence it).
    await row(page, placed.id).click();
    const screen = page.locator(`[data-testid="order-screen"][data-order-id="${placed.id}"]`);
    await screen.waitFor();
    // Its items, before Accept.
    await expect(page.getByTestId('item-row').count()).resolves.toBe(lines);
    await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').waitFor();
    await page.getByTestId('reject-order').waitFor();
    await shot(page, '61-new-order-accept-reject');
    const opened = await tones(page);
    await expect.poll(() => tones(page), { timeout: 8_000 }).toBeGreaterThan(opened);
    await expect(page.getByTestId('new-order-count').textContent()).resolves.toContain('2 new orders');
    // "I have seen it" silences this one; it stays to be accepted.
    const seen = page.getByTestId('new-order-seen');
    expect((await seen.boundingBox())?.height).toBeGreaterThanOrEqual(56);
    await seen.click();
    await page.getByTestId('new-order-count').filter({ hasText: '1 new order' }).waitFor();
    await seen.waitFor({ state: 'detached' });
    await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').waitFor();
    await page.keyboard.press('Escape');
    // Accepting the other one silences the last.
    await row(page, second.id).click();
    await page.locator(`[data-testid="order-screen"][data-order-id="${second.id}"]`).waitFor();
    await expect(page.getByTestId('new-order-count').count()).resolves.toBe(1);
    await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').click();
    await page.getByTestId('new-order-count').waitFor({ state: 'detached' });
    // The Accept's own confirmation tone comes with the engine's answer to the tap: counted before
    // listening for the chime, so only a chime could move the count after this.
    await until(`${second.id} accepted at the service`, () => appliedTo(terminal.sandbox, second.id).length >= 1);
    await untilTapsSettled(terminal, second.id);
    const after = await tones(page);
    // Longer than the chime's repeat (alertRepeatMs, 5 s above): time is what this checks.
    await page.waitForTimeout(6_000);
    expect(await tones(page)).toBe(after);
    await page.keyboard.press('Escape');
  }, 60_000);

  it('Reject cancels a new order with a reason from the catalogue', async () => {
    const { page, sandbox } = terminal;
    const placed = sandbox.placeOrder();
    await row(page, placed.id).waitFor({ timeout: 3 * POLL_MS + 5_000 });
    await row(page, placed.id).click();
    await page.getByTestId('reject-order').click();
    const dialog = page.getByTestId('cancel-dialog');
    await dialog.locator('[data-reason="CUSTOMER_CANCEL_REQUEST"]').click();
    await dialog.getByTestId('cancel-next').click();
    await dialog.getByTestId('cancel-confirm').click();
    await until('the rejection at the service', () => appliedTo(sandbox, placed.id).length === 1);
    expect(appliedTo(sandbox, placed.id)[0]).toEqual({ type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'CUSTOMER_CANCEL_REQUEST' });
    await page.keyboard.press('Escape');
  }, 60_000);

  it('orders placed during an outage all appear after reconnecting; meanwhile the sync bar says they cannot be checked', async () => {
    const { page, sandbox } = terminal;
    await fetch(`${sandbox.adminUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ outage: 'refuse' }) });
    const placed = [sandbox.placeOrder(), sandbox.placeOrder(), sandbox.placeOrder()];
    await page.getByTestId('sync-connectivity').filter({ hasText: 'Offline' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('sync-intake').filter({ hasText: 'New orders cannot be checked' }).waitFor();
    await shot(page, '62-sync-bar-offline');
    for (const p of placed) expect(await row(page, p.id).count()).toBe(0);
    await fetch(`${sandbox.adminUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ outage: 'none' }) });
    for (const p of placed) await row(page, p.id).waitFor({ timeout: 20_000 });
    await page.getByTestId('sync-intake').filter({ hasText: 'Orders checked' }).waitFor();
    expect(terminal.problems).toEqual([]);
  }, 60_000);

  it('an order the service lists but will not show yet is counted in the sync bar until it arrives', async () => {
    const { page, sandbox } = terminal;
    const placed = sandbox.placeOrder();
    await fetch(`${sandbox.adminUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ badStatus: { answer: 'notFound', count: 1, orderIds: [placed.id] } }) });
    const line = page.getByTestId('sync-intake').filter({ hasText: '1 order still to fetch' });
    await line.waitFor({ timeout: 20_000 });
    expect(await line.getAttribute('class')).toContain('sync-problem');
    expect(await line.getAttribute('title')).toContain(placed.id);
    await shot(page, '63-sync-bar-still-to-fetch');
    expect(await row(page, placed.id).count()).toBe(0);
    // Asked again after its pause (30 to 45 s), it arrives and the count goes.
    await row(page, placed.id).waitFor({ timeout: 60_000 });
    await page.getByTestId('sync-intake').filter({ hasNotText: 'still to fetch' }).waitFor();
    expect(terminal.problems).toEqual([]);
  }, 90_000);
});
