/**
 * Two things the screen shows that need a person's eye, driven through the real sandbox:
 *
 * 1. "May already be applied" (decisions.md, failures table): a packer taps Start packing while
 *    the service hangs, so the first try ends with no answer; meanwhile another terminal had already
 *    started packing that order at the service, so the retry is refused ALREADY_IN_STATE. The
 *    terminal cannot tell whether its own first try landed: it marks the tap "may already be
 *    applied", not as a plain refusal.
 * 2. The backlog alarm: a tap kept longer than the backlog threshold while the service is
 *    unreachable is called out on the sync bar in words.
 *
 * Its own terminal (not support's openTerminal): a short request deadline, so a hung service
 * is a no-answer in about a second, and a short backlog threshold, both through host.engineOptions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEntryView } from '../../src/shared/ipc';
import type { Action, Order } from '../../src/shared/protocol/schemas';
import { acceptOrder, appliedTo, MANAGER_PIN, openTerminal, otherTerminalSends, orderPool, scan, setPin, shot, tapStep, until, type Terminal } from './support';

const REQUEST_TIMEOUT_MS = 1_000;
const BACKLOG_THRESHOLD_MS = 6_000;
const MAYBE_WORDS = 'An earlier try got no answer, so this may already be done. Check the order before sending again.';

const storeFulfilment = (o: Order): string => {
  const f = o.fulfillments.find((x) => x.type === 'STORE');
  if (!f) throw new Error(`order ${o.id} has no STORE fulfilment`);
  return f.fulfillmentId;
};

describe('taps that need attention', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;
  const entriesOf = (orderId: string): OutboxEntryView[] =>
    (t.harness.host.engine()?.listOutbox({ includeDone: true }) ?? []).filter((e) => e.orderId === orderId);

  beforeAll(async () => {
    t = await openTerminal({
      engineOptions: { requestTimeoutMs: REQUEST_TIMEOUT_MS, probeTimeoutMs: 500, backlogThresholdMs: BACKLOG_THRESHOLD_MS },
    });
    take = orderPool(t.sandbox);
    await setPin(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('marks a tap refused after a try with no answer as "may already be applied", not as a plain refusal', async () => {
    const { page, sandbox } = t;
    const order = take((o) => o.fulfillments.some((f) => f.type === 'STORE'));
    await acceptOrder(t, order);

    // Another terminal starts packing this order at the service; this terminal does not know.
    const packing: Action = { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: storeFulfilment(order), fulfillmentState: 'PACKING' };
    expect(await otherTerminalSends(sandbox, order.id, packing)).toBe(200);

    // The packer taps Start packing while the service hangs: the first try gets no answer.
    sandbox.faults.set({ outage: 'hang' });
    await tapStep(page, 'PACKING');
    const firstTry = await until(
      'the first try to end without an answer',
      () => entriesOf(order.id).find((e) => e.action.type === 'ORDER_FULFILMENT_STATE_UPDATE' && e.attempts >= 1 && e.lastError !== null),
      15_000,
    );
    expect(firstTry.lastError?.message).toMatch(/did not answer/);

    // The service is back, but this client may not read an order's status, so check before resend
    // cannot settle the doubt: the retry (same requestId) is refused, the order is already packing.
    // (With status access the tap is confirmed by the check instead: test/sync/check-before-resend.)
    sandbox.faults.set({ outage: 'none', forbidReads: { changes: false, status: true } });
    const settled = await until('the retry to be refused', () => entriesOf(order.id).find((e) => e.id === firstTry.id && e.state === 'failed'), 15_000);
    expect(settled.mayBeApplied).toBe(true);
    expect(settled.requestId).toBe(firstTry.requestId);
    // The hung first try never reached the order book; every try the service saw was refused.
    const seen = sandbox.requestLog().filter((r) => r.requestId === firstTry.requestId);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((r) => r.status === 409 && r.errorCode === 'ALREADY_IN_STATE')).toBe(true);
    expect(appliedTo(sandbox, order.id).filter((a) => a.type === 'ORDER_FULFILMENT_STATE_UPDATE')).toHaveLength(1);

    // The order: "may already be applied", not the refused mark that holds later taps.
    const marks = page.getByTestId('order-marks');
    await marks.getByTestId('mark-doubt').filter({ hasText: 'May already be applied — check' }).waitFor();
    await expect(marks.getByTestId('mark-failed').count()).resolves.toBe(0);
    // The sync bar's sentence speaks of a doubt, not of refused taps holding orders.
    const message = page.getByTestId('sync-message');
    await message.filter({ hasText: 'may already be done' }).waitFor();
    await expect(message.textContent()).resolves.not.toMatch(/refused/);
    // Its counts too: one tap to check, none refused.
    await page.getByTestId('sync-to-check').filter({ hasText: '1 to check' }).waitFor();
    await expect(page.getByTestId('sync-failed').count()).resolves.toBe(0);
    await shot(page, '50-order-may-be-applied');

    // The outbox: under "Needs attention", in words, with the service's answer.
    await page.getByTestId('sync-bar').click();
    const entry = page.getByTestId('outbox-attention').locator(`[data-testid="outbox-entry"][data-order-id="${order.id}"]`);
    await entry.waitFor();
    await expect(entry.getByTestId('outbox-maybe').textContent()).resolves.toContain(MAYBE_WORDS);
    // The service's answer in plain words; its code only under "details for support".
    await expect(entry.getByTestId('outbox-why').textContent()).resolves.toContain('already at this step');
    await expect(entry.getByTestId('outbox-why').textContent()).resolves.not.toContain('ALREADY_IN_STATE');
    await expect(entry.getByTestId('outbox-details').textContent()).resolves.toContain('ALREADY_IN_STATE');
    await expect(entry.getByTestId('outbox-details').getByText('ALREADY_IN_STATE').isVisible()).resolves.toBe(false);
    await expect(entry.textContent()).resolves.toContain('2 tries');
    await expect(entry.textContent()).resolves.toContain('May already be applied — check the order');
    await expect(entry.textContent()).resolves.not.toContain('Refused by the order service');
    await shot(page, '51-outbox-may-be-applied');

    // Leave nothing behind for the next test: a manager discards it (the order is packing anyway).
    const discarded = await t.harness.host.handle('outbox.discard', { entryId: settled.id, pin: MANAGER_PIN });
    expect(discarded.ok).toBe(true);
    await entry.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    expect(t.problems).toEqual([]);
  }, 60_000);

  it('raises the backlog alarm on the sync bar when a tap waits too long while the service is unreachable', async () => {
    const { page, sandbox } = t;
    const order = take();
    sandbox.faults.set({ outage: 'refuse', forbidReads: { changes: false, status: false } });
    await scan(page, order.id);
    await tapStep(page, 'ACCEPT');
    const tappedAt = Date.now();
    await page.getByTestId('sync-connectivity').filter({ hasText: 'Offline' }).waitFor({ timeout: 15_000 });

    const backlog = page.getByTestId('sync-backlog');
    await backlog.waitFor({ timeout: BACKLOG_THRESHOLD_MS + 10_000 });
    expect(Date.now() - tappedAt).toBeGreaterThanOrEqual(BACKLOG_THRESHOLD_MS - 500);
    await expect(backlog.textContent()).resolves.toContain('Taps waiting too long');
    await expect(page.getByTestId('sync-waiting').textContent()).resolves.toContain('1 tap waiting to send');
    await expect(page.getByTestId('sync-message').textContent()).resolves.toMatch(/No connection\. 1 tap is kept/);
    await expect(page.getByTestId('sync-bar').getAttribute('class')).resolves.toContain('sync-alarm');
    await shot(page, '52-backlog-alarm');
    expect(appliedTo(sandbox, order.id)).toEqual([]);

    // The service comes back: the tap arrives once and the alarm goes.
    sandbox.faults.set({ outage: 'none' });
    await until('the tap at the service', () => appliedTo(sandbox, order.id).length === 1, 15_000);
    await backlog.waitFor({ state: 'detached' });
    expect(t.problems).toEqual([]);
  }, 60_000);
});
