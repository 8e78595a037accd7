/**
 * Taps and their guards, end to end: undo inside the window sends nothing; a double tap sends
 * once; a tap made on a stale screen that would go backward is refused in words; an item unit cut
 * and cancellations (one needing the manager PIN) reach the sandbox with the right body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  afterRepeatWindow,
  eventGate,
  acceptOrder,
  appliedTo,
  MANAGER_PIN,
  openTerminal,
  orderPool,
  scan,
  setPin,
  shot,
  tapStep,
  until,
  untilSettled,
  untilTapsSettled,
  withPrescription,
  type Terminal,
} from './support';

describe('taps', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;
  const gate = eventGate();

  beforeAll(async () => {
    t = await openTerminal({ beforeOpen: (page) => gate.install(page) });
    take = orderPool(t.sandbox);
    await setPin(t);
  });
  afterAll(async () => {
    await t?.close();
  });


  it('undo inside the window sends nothing, by button or by Ctrl+Z', async () => {
    const { page, sandbox } = t;
    const order = take();
    await scan(page, order.id);
    await tapStep(page, 'ACCEPT');
    await page.getByTestId('undo-bar').getByRole('button', { name: /Undo/ }).click();
    await page.getByTestId('notice-info').filter({ hasText: 'Undone' }).waitFor();
    await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').waitFor();

    // Keyboard only: the big button has focus when an order opens; Enter taps, Ctrl+Z takes it back.
    await page.keyboard.press('Escape');
    await page.getByTestId('queue-list').waitFor();
    await afterRepeatWindow(page); // the same code within 2 s is taken as the same scan
    await scan(page, order.id);
    await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').waitFor();
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('next-step');
    await page.keyboard.press('Enter');
    await page.getByTestId('undo-bar').waitFor();
    await page.keyboard.press('Control+z');
    await page.getByTestId('undo-bar').waitFor({ state: 'detached' });

    await untilTapsSettled(t, order.id);
    expect(appliedTo(sandbox, order.id)).toEqual([]);
    expect(sandbox.requestLog().filter((r) => r.orderId === order.id)).toEqual([]);
    await expect(page.getByTestId('order-marks').textContent()).resolves.not.toContain('Waiting');
  }, 60_000);

  it('a double tap sends once', async () => {
    const { page, sandbox } = t;
    const order = take();
    await scan(page, order.id);
    await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').dblclick();
    await until('the acceptance at the service', () => appliedTo(sandbox, order.id).length === 1);
    await page.getByTestId('item-row').first().waitFor();

    // A double tap on a fulfilment step must not run on into the following step either.
    await page.locator('[data-testid="next-step"][data-step="PACKING"]').dblclick();
    await until('packing at the service', () => appliedTo(sandbox, order.id).length === 2);
    await page.locator('[data-testid="next-step"][data-step="PACKED"]').waitFor();
    await untilTapsSettled(t, order.id);
    expect(appliedTo(sandbox, order.id).map((a) => ('fulfillmentState' in a ? a.fulfillmentState : a.type))).toEqual([
      'ORDER_STATE_UPDATE',
      'PACKING',
    ]);
    expect(sandbox.requestLog().filter((r) => r.orderId === order.id)).toHaveLength(2);
  }, 60_000);

  it('a tap that would go backward is refused with a reason, and nothing is sent', async () => {
    const { page, sandbox, harness } = t;
    const order = take();
    await acceptOrder(t, order);
    await page.locator('[data-testid="next-step"][data-step="PACKING"]').waitFor();
    const store = order.fulfillments.find((f) => f.type === 'STORE')!.fulfillmentId;

    // Meanwhile, another window of this terminal packs the order; this screen does not hear of it.
    gate.hold();
    for (const state of ['PACKING', 'PACKED'] as const) {
      const r = await harness.host.handle('taps.submit', { orderId: order.id, input: { kind: 'fulfilment', fulfilmentId: store, state } });
      expect(r.ok).toBe(true);
    }
    await page.locator('[data-testid="next-step"][data-step="PACKING"]').click();
    const refusal = page.getByTestId('notice-error');
    await refusal.filter({ hasText: /back/i }).waitFor();
    await shot(page, '30-refused-backward');
    gate.release();
    await page.locator('[data-testid="next-step"][data-step="OUT_FOR_DELIVERY"]').waitFor();

    await until('both taps at the service', () => appliedTo(sandbox, order.id).length === 3);
    await untilTapsSettled(t, order.id);
    expect(appliedTo(sandbox, order.id).slice(1)).toEqual([
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKING' },
      { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKED' },
    ]);
    await page.getByTestId('notice-error').getByRole('button', { name: 'OK' }).click();
  }, 60_000);

  it('a tap draws its new state at once, the engine\'s view confirms it, and a refused one goes back', async () => {
    const { page, sandbox, harness } = t;
    const order = take();
    await acceptOrder(t, order);
    const screen = page.locator(`[data-testid="order-screen"][data-order-id="${order.id}"]`);
    await expect(screen.getAttribute('data-predicted')).resolves.toBe('false');

    // The engine is held back from answering (its events too): the screen already shows the
    // order as the tap leaves it, foreseen, before any answer.
    gate.hold();
    let answer: (() => void) | null = null;
    const held = new Promise<void>((r) => (answer = r));
    const handle = harness.host.handle.bind(harness.host);
    harness.host.handle = async (command, payload) => {
      if (command === 'taps.submit') await held;
      return handle(command, payload);
    };
    try {
      await tapStep(page, 'PACKING');
      await screen.locator('[data-testid="order-marks"] [data-testid="mark-waiting"]').waitFor();
      await expect(screen.getAttribute('data-predicted')).resolves.toBe('true');
      await page.getByTestId('next-step').filter({ hasText: 'Start packing…' }).waitFor();
    } finally {
      answer!();
      gate.release();
    }
    // The engine took it: its own view replaces the foreseen one, and the tap reaches the service.
    await page.locator('[data-testid="order-screen"][data-predicted="false"]').waitFor();
    await screen.locator('[data-testid="next-step"][data-step="PACKED"]').waitFor();
    await until('packing at the service', () => appliedTo(sandbox, order.id).length === 2);

    // A tap the engine refuses (its data file failing, here said by a stand-in answer): the
    // screen goes back to the step the engine holds and says why.
    harness.host.handle = async (command, payload) =>
      command === 'taps.submit'
        ? { ok: false, problem: { kind: 'permanent', message: 'The data file is damaged: Packdesk sets it aside and starts a new one with the taps it can read', code: 'STORE_BROKEN' } }
        : handle(command, payload);
    try {
      await tapStep(page, 'PACKED');
      await page.getByTestId('notice-error').filter({ hasText: /damaged/ }).waitFor();
      await screen.locator('[data-testid="next-step"][data-step="PACKED"]').waitFor();
      await expect(screen.getAttribute('data-predicted')).resolves.toBe('false');
      await expect(screen.locator('[data-testid="mark-waiting"]').count()).resolves.toBe(0);
    } finally {
      harness.host.handle = handle;
    }
    await page.getByTestId('notice-error').getByRole('button', { name: 'OK' }).click();
    await untilTapsSettled(t, order.id);
    expect(appliedTo(sandbox, order.id)).toHaveLength(2);
  }, 60_000);

  it('cuts an item\'s units with a reason, prescription reasons first', async () => {
    const { page, sandbox } = t;
    const order = take(withPrescription);
    await acceptOrder(t, order);
    const item = order.items.find((i) => i.prescriptionRequired === true)!;
    const row = page.locator(`[data-testid="item-row"][data-item-id="${item.itemId}"]`);
    await row.getByTestId('change-units').click();
    const dialog = page.getByTestId('units-dialog');
    await dialog.waitFor();
    const firstReasons = await dialog.locator('[data-reason]').evaluateAll((els) => els.slice(0, 2).map((e) => e.getAttribute('data-reason')));
    expect(firstReasons).toEqual(['ITEM_NOT_IN_PRESCRIPTION', 'QUANTITY_EXCEED_PRESCRIPTION_LIMIT']);
    const units = item.quantity.count - 1;
    await expect(dialog.getByTestId('units-value').textContent()).resolves.toContain(`${units} of ${item.quantity.count}`);
    await dialog.locator('[data-reason="QUANTITY_EXCEED_PRESCRIPTION_LIMIT"]').click();
    await shot(page, '31-units-dialog');
    await dialog.getByTestId('units-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect(row.locator('.item-units-number').textContent()).resolves.toBe(String(units));

    await until('the unit cut at the service', () => appliedTo(sandbox, order.id).length === 2);
    expect(appliedTo(sandbox, order.id)[1]).toEqual({
      type: 'ITEM_UNIT_UPDATE',
      itemId: item.itemId,
      itemUnits: units,
      reason: 'QUANTITY_EXCEED_PRESCRIPTION_LIMIT',
    });
  }, 60_000);

  it('takes a scanned invoice number in its field, and never takes a person typing an order number for a scan', async () => {
    const { page, sandbox } = t;
    const order = take();
    await acceptOrder(t, order);

    // A scan while the invoice field has the cursor fills the field; its Enter saves the invoice.
    await page.getByTestId('invoice-input').focus();
    await page.keyboard.type('INV-2024-0815', { delay: 5 });
    await page.keyboard.press('Enter');
    await until('the invoice at the service', () => appliedTo(sandbox, order.id).length === 2);
    expect(appliedTo(sandbox, order.id)[1]).toEqual({ type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-2024-0815' } });
    await page.getByTestId('invoice-current').filter({ hasText: 'INV-2024-0815' }).waitFor();
    await expect(page.locator('[data-testid="order-screen"]').getAttribute('data-order-id')).resolves.toBe(order.id);

    // A person typing another order's number on the keyboard (a key every 90 ms) opens nothing.
    const other = take();
    await page.keyboard.press('Escape');
    await page.getByTestId('queue-list').waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.type(other.id, { delay: 90 });
    await page.keyboard.press('Enter');
    await untilSettled(t);
    await expect(page.getByTestId('order-screen').count()).resolves.toBe(0);
    await page.getByTestId('queue-list').waitFor();
  }, 60_000);

  it('cancels an order with a reason after a confirm step; a fraud reason needs the manager PIN', async () => {
    const { page, sandbox } = t;

    const plain = take();
    await acceptOrder(t, plain);
    await page.getByTestId('cancel-order').click();
    const dialog = page.getByTestId('cancel-dialog');
    await dialog.locator('[data-reason="CUSTOMER_CANCEL_REQUEST"]').click();
    await dialog.getByTestId('cancel-next').click();
    await expect(dialog.getByTestId('cancel-pin').count()).resolves.toBe(0);
    await shot(page, '32-cancel-confirm');
    await dialog.getByTestId('cancel-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('finished-panel').waitFor();
    await until('the plain cancel at the service', () => appliedTo(sandbox, plain.id).length === 2);
    expect(appliedTo(sandbox, plain.id)[1]).toEqual({ type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'CUSTOMER_CANCEL_REQUEST' });

    const fraud = take(withPrescription);
    await acceptOrder(t, fraud);
    await page.getByTestId('cancel-order').click();
    await dialog.waitFor();
    const firstReasons = await dialog.locator('[data-reason]').evaluateAll((els) => els.slice(0, 2).map((e) => e.getAttribute('data-reason')));
    expect(firstReasons).toEqual(['INVALID_PRESCRIPTION', 'FRAUD_PRESCRIPTION']);
    await shot(page, '33-cancel-reasons');
    await dialog.locator('[data-reason="FRAUD_PRESCRIPTION"]').click();
    await dialog.getByTestId('cancel-next').click();
    await dialog.getByTestId('cancel-pin').fill('1357');
    await dialog.getByTestId('cancel-confirm').click();
    await page.getByTestId('notice-error').filter({ hasText: /PIN/ }).waitFor();
    await shot(page, '34-cancel-wrong-pin');
    await dialog.getByTestId('cancel-pin').fill(MANAGER_PIN);
    await dialog.getByTestId('cancel-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await until('the fraud cancel at the service', () => appliedTo(sandbox, fraud.id).length === 2);
    expect(appliedTo(sandbox, fraud.id)[1]).toEqual({ type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'FRAUD_PRESCRIPTION' });
    expect(t.problems).toEqual([]);
  }, 60_000);
});
