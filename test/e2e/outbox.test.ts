/**
 * The outbox when the service refuses: an order number the service does not know (typed in by
 * hand) is accepted, the service answers NOT_FOUND, the outbox shows it in plain words and that
 * order is held while other orders keep flowing. Retry sends the same request again; discard
 * needs the manager PIN and clears the hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeUnknownOffline } from './screens';
import { appliedTo, MANAGER_PIN, openTerminal, orderPool, PERSON_KEY_MS, scan, setPin, shot, tapStep, until, type Terminal } from './support';

describe('the outbox', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;

  beforeAll(async () => {
    t = await openTerminal();
    take = orderPool(t.sandbox);
    await setPin(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a NOT_FOUND refusal, holds that order while others flow, and retries and discards it', async () => {
    const { page, sandbox } = t;
    const unknown = 'ORD-0000042';
    expect(sandbox.order(unknown)).toBeUndefined();

    // Typed by hand while the service was out of reach: a new card with only Accept, until the service answers.
    await typeUnknownOffline(t, unknown);
    await page.getByTestId('awaiting-card').waitFor();
    await tapStep(page, 'ACCEPT');
    await until('the refusal', () => sandbox.requestLog().some((r) => r.orderId === unknown && r.errorCode === 'NOT_FOUND'));
    await page.getByTestId('order-marks').getByTestId('mark-failed').waitFor();
    await page.getByTestId('sync-failed').waitFor();
    await shot(page, '40-order-refused');

    // Other orders keep flowing while this one is held.
    const other = take();
    await scan(page, other.id);
    await tapStep(page, 'ACCEPT');
    await until('the other order at the service', () => appliedTo(sandbox, other.id).length === 1);

    // The outbox says what happened, in words.
    await page.getByTestId('sync-bar').click();
    const entry = page.getByTestId('outbox-attention').locator(`[data-testid="outbox-entry"][data-order-id="${unknown}"]`);
    await entry.waitFor();
    await expect(entry.getByTestId('outbox-why').textContent()).resolves.toContain(`does not know order ${unknown}`);
    await expect(entry.getByTestId('outbox-details').textContent()).resolves.toContain('NOT_FOUND');
    await expect(entry.getByTestId('outbox-state').textContent()).resolves.toContain('Refused');
    await shot(page, '41-outbox-refused');

    // Retry: the same request (same requestId, the idempotency key) goes again.
    const first = sandbox.requestLog().filter((r) => r.orderId === unknown);
    expect(first).toHaveLength(1);
    await entry.getByTestId('outbox-retry').click();
    await until('the retried request', () => sandbox.requestLog().filter((r) => r.orderId === unknown).length === 2);
    const tries = sandbox.requestLog().filter((r) => r.orderId === unknown);
    expect(tries[1]?.requestId).toBe(tries[0]?.requestId);
    await entry.filter({ hasText: '2 tries' }).waitFor();

    // Discard: a wrong PIN is refused in words, the manager PIN drops it and frees the order.
    await entry.getByTestId('outbox-discard').click();
    const dialog = page.getByTestId('discard-dialog');
    await dialog.getByTestId('discard-pin').fill('9999');
    await dialog.getByTestId('discard-confirm').click();
    await dialog.getByRole('alert').filter({ hasText: /PIN/ }).waitFor();
    await shot(page, '42-discard-wrong-pin');
    await dialog.getByTestId('discard-pin').fill(MANAGER_PIN);
    await dialog.getByTestId('discard-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await entry.waitFor({ state: 'detached' });
    await page.getByTestId('sync-failed').waitFor({ state: 'detached' });
    await shot(page, '43-outbox-after-discard');

    // Typed again with the service in reach: it says it has no such order, and the terminal lets it go.
    await page.keyboard.press('F2');
    await page.keyboard.type(unknown, { delay: PERSON_KEY_MS });
    await page.keyboard.press('Enter');
    await page.getByTestId('notice-error').filter({ hasText: `The order service does not know order ${unknown}` }).waitFor();
    await expect(t.harness.host.handle('orders.get', { orderId: unknown })).resolves.toEqual({ ok: true, value: null });
    expect(appliedTo(sandbox, unknown)).toEqual([]);
    expect(t.problems).toEqual([]);
  }, 90_000);

  // Last in this file: the terminal stops sending once its credentials are rejected.
  it('says so when the service rejects the credentials, and keeps the tap', async () => {
    const { page, sandbox } = t;
    const order = take();
    sandbox.faults.set({ refuseRefresh: true, rejectCredentials: true });
    sandbox.expireTokensNow();
    await page.keyboard.press('Escape');
    await scan(page, order.id);
    await tapStep(page, 'ACCEPT');
    await page.getByTestId('sync-credentials').filter({ hasText: 'Credentials rejected' }).waitFor({ timeout: 20_000 });
    await expect(page.getByTestId('sync-waiting').textContent()).resolves.toContain('1 tap waiting');
    await expect(page.getByTestId('sync-message').textContent()).resolves.toMatch(/credentials/i);
    await page.getByTestId('order-marks').getByTestId('mark-waiting').waitFor();
    await shot(page, '44-credentials-rejected');
    expect(appliedTo(sandbox, order.id)).toEqual([]);
  }, 60_000);
});
