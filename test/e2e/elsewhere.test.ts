/**
 * What someone else did to an order this terminal works on, in Chromium against the in-app sandbox
 * (issue 22, items 1 and 2):
 *
 * 1. The marketplace cancels an order this terminal accepted and packed while a tap for it waits:
 *    a red, loud alarm on the order (repeating until acknowledged), saying what to do, marked in the
 *    queue and named in the dock on other screens; the waiting tap is explained, not sent and not
 *    left "refused" for a manager.
 * 2. Another counter starts packing first: this terminal's Start packing, answered ALREADY_IN_STATE,
 *    reads "Already packing elsewhere (time)", never "Sent ✓", and the order shows as it is.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/shared/protocol/schemas';
import { ORDER_ALARM_REPEAT_MS } from '../../src/renderer/src/components/OrderAlarm';
import {
  acceptOrder,
  appliedTo,
  axe,
  COUNT_TONES,
  tonesBy,
  untilPageClock,
  nextStep,
  openTerminal,
  orderPool,
  otherTerminalSends,
  shot,
  tapStep,
  type Terminal,
  tones,
  until,
} from './support';

const POLL_MS = 1_000;
const clock = (at: number, locale = 'en-IN'): string => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
const storeOf = (o: Order): string => o.fulfillments.find((f) => f.type === 'STORE')!.fulfillmentId;
const row = (page: Page, id: string) => page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);

describe('changes made elsewhere', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;

  beforeAll(async () => {
    t = await openTerminal({
      orderCount: 16,
      settings: { intakeIntervalMs: POLL_MS },
      engineOptions: { intakeMinIntervalMs: 500 },
      sandboxOptions: { arrivalEveryMs: 0, changesMinIntervalMs: 0 },
      beforeOpen: async (page) => {
        await page.addInitScript(COUNT_TONES);
      },
    });
    take = orderPool(t.sandbox);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a Start packing another counter already made reads "Already packing elsewhere (time)", never "Sent ✓", and the order shows as it is', async () => {
    const { page, sandbox } = t;
    const order = take();
    await acceptOrder(t, order);
    // Both counters tap Start packing; the other one's reaches the service first (this terminal's
    // tap is still in its undo window).
    await tapStep(page, 'PACKING');
    expect(await otherTerminalSends(sandbox, order.id, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: storeOf(order), fulfillmentState: 'PACKING' })).toBe(200);
    const at = sandbox.orders().find((o) => o.id === order.id)!.fulfillments.find((f) => f.type === 'STORE')!.fulfilmentStatusHistory!.PACKING!.actual!.endTime;
    await until("this terminal's tap answered ALREADY_IN_STATE", () => sandbox.requestLog().some((r) => r.orderId === order.id && r.errorCode === 'ALREADY_IN_STATE'));
    const words = `Order ${order.id}: Already packing elsewhere (${clock(at)}). The order now shows where it really is.`;
    await page.getByTestId('notice-error').filter({ hasText: words }).waitFor({ timeout: 15_000 });
    // The order as it is at the service: packing, so the next step is Mark packed.
    await nextStep(page, 'PACKED');
    await shot(page, '73-en-order-packing-elsewhere');

    await page.getByTestId('sync-bar').click();
    const entry = page.locator(`[data-testid="outbox-entry"][data-order-id="${order.id}"][data-state="discarded"]`);
    await entry.waitFor();
    await expect(entry.getByTestId('outbox-state').textContent()).resolves.toBe(`Already packing elsewhere (${clock(at)})`);
    const findings = (await axe(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical');
    expect(findings).toEqual([]);
    await shot(page, '74-en-outbox-packing-elsewhere');
    await page.getByTestId('language-hi').click();
    await entry.getByTestId('outbox-state').filter({ hasText: `कहीं और पहले ही पैक हो रहा है (${clock(at, 'hi-IN')})` }).waitFor();
    await shot(page, '74-hi-outbox-packing-elsewhere');
    await page.getByTestId('language-en').click();
    await page.keyboard.press('Escape');
    expect(t.problems).toEqual([]);
  }, 60_000);

  it('a change to the items from another counter is an alarm too: what changed, what to do, until "I have checked the items"', async () => {
    const { page, sandbox } = t;
    const order = take((o) => o.items.some((i) => i.quantity.count > 1));
    await acceptOrder(t, order);
    const item = order.items.find((i) => i.quantity.count > 1)!;
    const units = item.quantity.count - 1;
    expect(await otherTerminalSends(sandbox, order.id, { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: units, reason: 'ITEM_UNAVAILABLE' })).toBe(200);
    const time = clock(Date.parse(sandbox.orders().find((o) => o.id === order.id)!.updatedAt!));
    const panel = page.getByTestId('alarm-panel');
    await panel.waitFor({ timeout: 10_000 });
    // It came in above the big button: a tap meant for that button cannot acknowledge it at once.
    await expect(page.getByTestId('alarm-ack').isDisabled()).resolves.toBe(true);
    await expect(panel.getAttribute('data-kind')).resolves.toBe('items');
    await expect(panel.locator('h2').textContent()).resolves.toContain(`The items changed at ${time}`);
    await expect(panel.getByTestId('alarm-do').textContent()).resolves.toBe('Check every item below against the bag before you hand it over.');
    // The order shows the new count.
    await expect(page.getByTestId('item-row').filter({ hasText: item.name ?? item.itemId }).textContent()).resolves.toContain(String(units));
    await shot(page, '76-en-order-items-changed-elsewhere');
    await page.getByTestId('alarm-ack').filter({ hasText: 'I have checked the items' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(t.problems).toEqual([]);
  }, 60_000);

  // Last: it leaves the engine waiting out the service's Retry-After of a minute.
  it('a cancellation from the marketplace of an order being packed is a red, repeating alarm until acknowledged; its waiting tap is explained and never sent', async () => {
    const { page, sandbox } = t;
    const order = take();
    await acceptOrder(t, order);
    await tapStep(page, 'PACKING');
    await until('packing at the service', () => appliedTo(sandbox, order.id).length >= 2);
    await tapStep(page, 'PACKED');
    await until('packed at the service', () => appliedTo(sandbox, order.id).length >= 3);

    // The service takes no updates for now: the next tap waits on the terminal.
    sandbox.faults.set({ rateLimit: { count: 1_000, retryAfterSeconds: 60 } });
    await tapStep(page, 'OUT_FOR_DELIVERY');
    const waiting = await until('the tap to wait after a 429', () =>
      t.harness.host.engine()?.listOutbox().find((e) => e.orderId === order.id && e.attempts >= 1),
    );
    const before = await tones(page);

    const cancelled = sandbox.changeOrder(order.id, 'cancel')!;
    const time = clock(Date.parse(cancelled.updatedAt!));
    const panel = page.getByTestId('alarm-panel');
    await panel.waitFor({ timeout: 10_000 });
    // The panel comes with the cancelled body; what it says of the waiting tap follows with the
    // outbox's own event (a moment later on a busy machine): each is waited for, as a packer reads it.
    const soon = { timeout: 10_000, interval: 100 };
    await expect.poll(() => panel.locator('h2').textContent(), soon).toContain(`Cancelled at ${time}`);
    await expect.poll(() => panel.getByTestId('alarm-do').textContent(), soon).toBe('Do not hand this over. Put the items back.');
    await expect.poll(() => panel.getByTestId('alarm-taps').textContent(), soon).toContain(`The order was cancelled at ${time}; this tap will not be sent`);
    // Red, and never the green "nothing left to do".
    await expect.poll(() => panel.evaluate((el) => getComputedStyle(el).backgroundColor), soon).toBe('rgb(179, 38, 30)');
    await expect.poll(() => page.getByTestId('finished-panel').getAttribute('data-cancelled'), soon).toBe('true');
    await expect(page.getByTestId('finished-panel').textContent()).resolves.not.toContain('Nothing left to do');
    await expect.poll(() => page.getByTestId('order-marks').getByTestId('mark-alarm').textContent(), soon).toContain('Cancelled — put the items back');
    // Loud: it sounds, and again a few seconds later, by itself.
    await expect.poll(() => tones(page), { timeout: 12_000, interval: 250 }).toBeGreaterThanOrEqual(before + 12);
    const findings = (await axe(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical');
    expect(findings).toEqual([]);
    const ack = await page.getByTestId('alarm-ack').boundingBox();
    expect(ack?.height).toBeGreaterThanOrEqual(56);
    await shot(page, '70-en-order-cancelled-elsewhere');
    await page.getByTestId('language-hi').click();
    await panel.getByText('इसे ग्राहक या डिलीवरी वाले को न दें। सामान वापस रखें।').waitFor();
    await shot(page, '70-hi-order-cancelled-elsewhere');
    await page.getByTestId('language-en').click();

    // In the queue: the row is marked, and the dock names the order.
    await page.keyboard.press('Escape');
    await row(page, order.id).getByTestId('mark-alarm').waitFor();
    // At the top of the queue, where it cannot be missed; the sync bar no longer counts its tap as waiting.
    await expect(page.getByTestId('order-row').first().getAttribute('data-order-id')).resolves.toBe(order.id);
    await page.getByTestId('sync-waiting').filter({ hasText: 'All taps sent' }).waitFor();
    await expect(page.getByTestId('alarm-banner').textContent()).resolves.toContain(`Order ${order.id} was cancelled at ${time}. Do not hand it over.`);
    await shot(page, '71-en-queue-cancelled-elsewhere');

    // The outbox: not refused, nothing for a manager to retry or discard; said why it will not go.
    await page.getByTestId('sync-bar').click();
    const entry = page.locator(`[data-testid="outbox-entry"][data-entry-id="${waiting.id}"]`);
    await entry.waitFor();
    await expect(entry.getAttribute('data-state')).resolves.toBe('discarded');
    await expect(entry.getByTestId('outbox-state').textContent()).resolves.toBe('Not sent — the order was cancelled');
    await expect(entry.getByTestId('outbox-why').textContent()).resolves.toBe(`The order was cancelled at ${time}; this tap will not be sent.`);
    await expect(entry.getByTestId('outbox-retry').count()).resolves.toBe(0);
    await expect(entry.getByTestId('outbox-discard').count()).resolves.toBe(0);
    await expect(page.getByTestId('outbox-attention').locator('[data-testid="outbox-entry"]').count()).resolves.toBe(0);
    await shot(page, '72-en-outbox-cancelled-elsewhere');

    // The service never got it: every try it saw was the 429 from before the cancellation.
    sandbox.faults.set({ rateLimit: { count: 0, retryAfterSeconds: 1 } });
    expect(sandbox.requestLog().filter((r) => r.requestId === waiting.requestId).map((r) => r.status)).toEqual([429]);
    expect(appliedTo(sandbox, order.id).map((a) => (a.type === 'ORDER_FULFILMENT_STATE_UPDATE' ? a.fulfillmentState : a.type))).not.toContain('OUT_FOR_DELIVERY');

    // Acknowledged: it goes quiet, the mark and the dock's line go.
    await page.getByTestId('alarm-banner').getByRole('button').click();
    await page.getByTestId('alarm-ack').click();
    await panel.waitFor({ state: 'detached' });
    await page.getByTestId('alarm-banner').waitFor({ state: 'detached' });
    // A burst already under way (six tones over 1.5 s) finishes; nothing starts after it. Timed on the
    // page's own clock: the repeat interval is what is checked, so a repeat's time must pass, but it
    // passes where the alarm's timers run. A burst began at the latest at the acknowledgement, so it
    // is over 2 s after, and a repeat would have begun within ORDER_ALARM_REPEAT_MS.
    const ackedAt = await page.evaluate(() => performance.now());
    await untilPageClock(page, ackedAt + ORDER_ALARM_REPEAT_MS + 1_000);
    const quiet = await tonesBy(page, ackedAt + 2_000);
    expect(await tones(page)).toBe(quiet);
    await expect(page.getByTestId('order-marks').getByTestId('mark-alarm').count()).resolves.toBe(0);
    expect(t.problems).toEqual([]);
  }, 90_000);
});
