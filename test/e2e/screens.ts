/**
 * Walks a terminal through every screen and dialog a packer or manager meets, calling `visit` at
 * each with a name, so one walk serves the size, covering and accessibility checks alike.
 */
import { appliedTo, MANAGER_PIN, orderPool, PERSON_KEY_MS, scanUntil, tapStep, typeOrderId, until, type Terminal } from './support';

export type Visit = (name: string) => Promise<void>;

/**
 * An order number the service does not know, typed while the service cannot be reached: the
 * terminal cannot ask, so it keeps the number as an order still waiting for its items (online, the
 * service's "no such order" would refuse it and add nothing).
 */
export async function typeUnknownOffline(t: Terminal, orderId: string): Promise<void> {
  t.sandbox.faults.set({ outage: 'refuse' });
  try {
    await typeOrderId(t.page, orderId);
  } finally {
    t.sandbox.faults.set({ outage: 'none' });
  }
}

/** Every screen and dialog, in an order that builds the state each needs. Needs a first-run terminal: it sets the manager PIN through the screen. */
export async function walkEveryScreen(t: Terminal, visit: Visit, options: { phantomId: string }): Promise<void> {
  const { page, sandbox, harness } = t;
  const take = orderPool(sandbox);
  // A brand-new terminal: the manager sets the PIN before the first shift.
  await page.getByTestId('first-run-pin').waitFor();
  if ((await page.getByTestId('order-row').count()) > 0) throw new Error('orders are shown before the manager PIN is set');
  await visit('first-run-pin');
  await page.getByTestId('pin-new').fill(MANAGER_PIN);
  await page.getByTestId('pin-again').fill(MANAGER_PIN);
  await page.getByTestId('pin-setup').getByRole('button', { name: 'Set PIN' }).click();
  await page.getByTestId('order-row').first().waitFor();
  await page.getByTestId('queue-list').waitFor();
  await visit('queue');

  await page.keyboard.press('F9');
  await page.getByTestId('pin-gate').waitFor();
  await visit('settings-pin-gate');
  await page.getByTestId('settings-pin').fill(MANAGER_PIN);
  await page.getByRole('button', { name: 'Open settings' }).click();
  await page.getByTestId('terminal-form').waitFor();
  await visit('settings');
  await page.keyboard.press('Escape');
  await page.getByTestId('queue-list').waitFor();

  // A new order: its items before Accept, Reject beside it (the reason dialog), then accepted.
  const order = take((o) => o.items.length >= 2);
  await typeOrderId(page, order.id);
  await page.getByTestId('reject-order').waitFor();
  await visit('order-new');
  await page.getByTestId('reject-order').click();
  await page.getByTestId('cancel-dialog').waitFor();
  await visit('reject-dialog');
  await page.keyboard.press('Escape');
  await page.getByTestId('cancel-dialog').waitFor({ state: 'detached' });
  await tapStep(page, 'ACCEPT');
  await until(`${order.id} accepted`, () => appliedTo(sandbox, order.id).length === 1);
  await page.getByTestId('item-row').first().waitFor();
  await page.getByTestId('undo-bar').waitFor({ state: 'detached' });
  await visit('order-detail');

  await page.getByTestId('change-units').first().click();
  await page.getByTestId('units-dialog').waitFor();
  await visit('units-dialog');
  await page.keyboard.press('Escape');
  await page.getByTestId('units-dialog').waitFor({ state: 'detached' });

  await page.getByTestId('cancel-order').click();
  const cancel = page.getByTestId('cancel-dialog');
  await cancel.waitFor();
  await visit('cancel-dialog');
  await cancel.locator('[data-reason="CUSTOMER_CANCEL_REQUEST"]').click();
  await cancel.getByTestId('cancel-next').click();
  await cancel.getByTestId('cancel-confirm').waitFor();
  await visit('cancel-confirm');
  await page.keyboard.press('Escape');
  await cancel.waitFor({ state: 'detached' });

  await scanUntil(page, 'INV4242400001', 'invoice-offer');
  await visit('invoice-offer');
  await page.keyboard.press('Escape');
  await page.getByTestId('invoice-offer').waitFor({ state: 'detached' });

  // An invoice recorded: another one scanned is a question of its own, naming both numbers.
  await page.getByTestId('invoice-input').fill('INV4242400001');
  await page.getByTestId('invoice-input').press('Enter');
  await page.getByTestId('invoice-current').filter({ hasText: 'INV4242400001' }).waitFor();
  await page.getByTestId('undo-bar').waitFor({ state: 'detached' });
  await scanUntil(page, 'INV4242400002', 'invoice-replace-keep');
  await visit('invoice-replace');
  await page.keyboard.press('Escape');
  await page.getByTestId('invoice-offer').waitFor({ state: 'detached' });

  // A first name several customers share, typed in the find field: a short list to choose from.
  const shared = sandbox
    .orders()
    .map((o) => (o.billing?.name ?? '').split(' ')[0] ?? '')
    .find((name, i, all) => name !== '' && all.indexOf(name) !== i);
  if (!shared) throw new Error('no first name is shared by two seeded orders');
  await page.keyboard.press('F2');
  await page.keyboard.type(shared, { delay: PERSON_KEY_MS });
  await page.keyboard.press('Enter');
  await page.getByTestId('found-orders').waitFor();
  await visit('found-orders');
  await page.keyboard.press('Escape');
  await page.getByTestId('found-orders').waitFor({ state: 'detached' });

  // Taken to delivered by another window of this terminal; this one shows the last step.
  const store = order.fulfillments.find((f) => f.type === 'STORE')?.fulfillmentId;
  const delivery = order.fulfillments.find((f) => f.type === 'DELIVERY')?.fulfillmentId;
  if (!store || !delivery) throw new Error(`${order.id} lacks a STORE or DELIVERY fulfilment`);
  for (const [fulfilmentId, state] of [
    [store, 'PACKING'],
    [store, 'PACKED'],
    [delivery, 'OUT_FOR_DELIVERY'],
    [delivery, 'DELIVERED'],
  ] as const) {
    const r = await harness.host.handle('taps.submit', { orderId: order.id, input: { kind: 'fulfilment', fulfilmentId, state } });
    if (!r.ok) throw new Error(`${state} refused: ${r.problem.message}`);
  }
  // The last of the four applied (the Accept and the invoice came before them).
  await until(`${order.id} delivered at the service`, () => appliedTo(sandbox, order.id).some((a) => a.type === 'ORDER_FULFILMENT_STATE_UPDATE' && a.fulfillmentState === 'DELIVERED'), 30_000);
  await page.locator('[data-testid="next-step"][data-step="COMPLETE"]').waitFor({ timeout: 15_000 });
  await visit('order-delivered');

  // An order the service does not know, typed while it was out of reach: refused, shown in the outbox, removable.
  await typeUnknownOffline(t, options.phantomId);
  await tapStep(page, 'ACCEPT');
  await until('the refusal', () => sandbox.requestLog().some((r) => r.orderId === options.phantomId && r.errorCode === 'NOT_FOUND'));
  await page.getByTestId('remove-order').waitFor();
  await visit('order-refused');
  await page.getByTestId('remove-order').click();
  await page.getByTestId('remove-order-dialog').waitFor();
  await visit('remove-order-dialog');
  await page.keyboard.press('Escape');

  await page.keyboard.press('F4');
  await page.getByTestId('outbox-discard').first().waitFor();
  await visit('outbox');
  await page.getByTestId('outbox-discard').first().click();
  await page.getByTestId('discard-dialog').waitFor();
  await visit('discard-dialog');
  await page.keyboard.press('Escape');
  await page.getByTestId('discard-dialog').waitFor({ state: 'detached' });
  await page.getByRole('navigation').getByRole('button', { name: 'Orders' }).click();
  await page.getByTestId('queue-list').waitFor();
}
