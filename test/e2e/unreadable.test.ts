/**
 * One bad order never hides the others (Chromium, the browser harness, the training sandbox): an
 * order whose units sum past 2^53 is set aside and named above the queue, which still lists every
 * other order; an id with a right-to-left override is named with it written out; an order whose
 * fulfilment times are 1e300 and -1e20 opens, with no impossible time. And a body stamped
 * 9999-12-31 does not pin its order against the later ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/shared/protocol';
import { openTerminal, shot, type Terminal, typeOrderId } from './support';

const POLL_MS = 1_000;
const ORDERS = 12;
let terminal: Terminal;

beforeAll(async () => {
  terminal = await openTerminal({
    orderCount: ORDERS,
    settings: { intakeIntervalMs: POLL_MS },
    engineOptions: { intakeMinIntervalMs: 500 },
    sandboxOptions: { arrivalEveryMs: 0, changesMinIntervalMs: 0 },
  });
}, 60_000);
afterAll(() => terminal?.close());

describe('an order the service sends wrong', () => {
  it('is named above the queue as not readable; every other order stays listed, and the one with impossible times opens', async () => {
    const { page, sandbox } = terminal;
    const [first, second, third] = sandbox.orders() as [Order, Order, Order];
    const huge: Order = { ...first, id: 'ORD-9000001', items: [0, 1].map((n) => ({ ...first.items[0]!, itemId: `HUGE-${n}`, quantity: { count: 5e15 } })) };
    sandbox.serveOrder(huge);
    sandbox.serveOrder({
      ...second,
      fulfillments: second.fulfillments.map((f) => ({
        ...f,
        fulfilmentStatusHistory: { PACKED: { promised: { endTime: 1e300 } }, PACKING: { actual: { endTime: -1e20 } } },
      })),
    });

    const line = page.getByTestId('set-aside');
    await line.filter({ hasText: '1 order could not be read: ORD-9000001' }).waitFor({ timeout: 5 * POLL_MS + 10_000 });
    // The queue lists the seeded orders as before, and the one set aside is only named.
    await expect(page.locator('#queue-title').textContent()).resolves.toContain(`(${ORDERS + 1})`);
    // An id with a right-to-left override is named with it written out, never shown reordered.
    sandbox.serveOrder({ ...third, id: 'ORD-12\u202e34' });
    await line.filter({ hasText: '2 orders could not be read: ORD-12\\u202E34, ORD-9000001' }).waitFor({ timeout: 5 * POLL_MS + 10_000 });
    expect(await page.locator('main').textContent()).not.toContain('\u202e');
    expect(await page.getByTestId('order-row').count()).toBeGreaterThan(3);
    await shot(page, '70-queue-order-set-aside');

    await typeOrderId(page, second.id);
    await page.getByTestId('order-state').waitFor();
    expect(await page.locator('.screen-problem').count()).toBe(0);
    const text = (await page.getByTestId('order-screen').textContent()) ?? '';
    expect(text).not.toMatch(/Invalid|NaN|late/i);
    await shot(page, '71-order-with-impossible-times');
    expect(terminal.problems).toEqual([]);
  });

  it('a body stamped 9999-12-31 does not pin its order: the service cancelling it later takes Accept away', async () => {
    const { page, sandbox, harness } = terminal;
    const order = sandbox.orders().find((o) => o.orderState === 'Created' && !o.id.includes('\u202e'))!;
    sandbox.serveOrder({ ...order, updatedAt: '9999-12-31T23:59:59.999Z' });
    // Intake has stored the 9999 body before the service changes the order.
    for (let held = ''; !held.startsWith('9999'); await new Promise((r) => setTimeout(r, 100))) {
      const view = await harness.host.handle('orders.get', { orderId: order.id });
      held = view.ok ? ((view.value as { order: Order | null } | null)?.order?.updatedAt ?? '') : '';
    }
    await typeOrderId(page, order.id);
    await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').waitFor();
    sandbox.changeOrder(order.id, 'cancel');
    await page.getByTestId('order-state').filter({ hasText: /cancel/i }).waitFor({ timeout: 5 * POLL_MS + 10_000 });
    expect(await page.locator('[data-testid="next-step"][data-step="ACCEPT"]').count()).toBe(0);
  });
});
