/**
 * Finished orders leave the terminal by themselves (Chromium, the browser harness, the training
 * sandbox). With the keep period at nothing, the engine's first walk takes the sandbox's cancelled
 * orders off: the queue drops them, an open one goes back to the queue saying why in the packer's
 * words, one ticked for the pick list leaves the pick list, and orders with something left to do
 * stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderSummary } from '../../src/shared/ipc';
import { openTerminal, shot, type Terminal } from './support';

// Long enough for the terminal to open and the test to open an order first, on a busy machine too.
const FIRST_WALK_MS = 20_000;
let t: Terminal;

beforeAll(async () => {
  t = await openTerminal({ engineOptions: { finishedKeepMs: 0, retireFirstMs: FIRST_WALK_MS } });
}, 60_000);
afterAll(() => t?.close());

async function listed(): Promise<string[]> {
  const r = await t.harness.host.handle('orders.list', {});
  if (!r.ok) throw new Error(r.problem.message);
  return (r.value as OrderSummary[]).map((o) => o.id);
}

describe('finished orders', () => {
  it('leave the queue and the pick list, and an open one goes back to the queue saying why', async () => {
    const { page, sandbox } = t;
    const cancelled = sandbox.orders().filter((o) => o.orderState.toUpperCase() === 'CANCELLED').map((o) => o.id);
    const open = sandbox.orders().filter((o) => o.orderState.toUpperCase() === 'ACCEPTED').map((o) => o.id);
    expect(cancelled.length).toBeGreaterThan(0);
    expect(open.length).toBeGreaterThan(0);
    expect(await listed()).toEqual(expect.arrayContaining([...cancelled, ...open]));

    const [shown, ticked] = cancelled as [string, string];
    expect(ticked).toBeDefined();
    // One is ticked for the pick list, the other open on screen, when they leave.
    await page.getByTestId('filter-DONE').click();
    await page.locator(`[data-testid="order-row"][data-order-id="${ticked}"] [data-testid="pick-select"]`).click();
    await page.getByTestId('print-pick-list').filter({ hasText: 'Pick list (1 order)' }).waitFor();
    await page.getByTestId('filter-ALL').click();
    await page.keyboard.press('F2');
    await page.keyboard.type(shown);
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="order-screen"][data-order-id="${shown}"]`).waitFor();

    await page.getByTestId('queue-list').waitFor({ timeout: FIRST_WALK_MS + 15_000 });
    await page.getByTestId('notice-info').filter({ hasText: `Order ${shown} finished days ago and has left this terminal` }).waitFor();
    await shot(page, '46-finished-order-left');
    const after = await listed();
    expect(after.filter((id) => cancelled.includes(id))).toEqual([]);
    expect(after).toEqual(expect.arrayContaining(open));
    await expect(page.locator(`[data-testid="order-row"][data-order-id="${shown}"]`).count()).resolves.toBe(0);
    // Nothing ticked is left behind on the pick list.
    await expect(page.getByTestId('print-pick-list').textContent()).resolves.toBe('Pick list (0 orders)');
    expect(t.problems).toEqual([]);
  }, FIRST_WALK_MS + 40_000);
});
