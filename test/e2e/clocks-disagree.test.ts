/**
 * A token server whose clock is hours off the order service's: the sync bar says the two clocks
 * disagree (support's matter), not that this computer's clock is wrong, and an order placed now
 * still arrives. Real Chromium against the web harness and its training sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTerminal, type Terminal } from './support';

describe("a token server whose clock is 3 hours behind the order service's", () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is said on the sync bar as clocks that disagree, and new orders still arrive', async () => {
    const { page, sandbox, harness } = t;
    sandbox.faults.set({ tokenClockOffsetMs: -3 * 3_600_000 });
    // The next token comes from the wrong clock.
    sandbox.expireTokensNow();
    const placed = sandbox.placeOrder();
    // The training sandbox limits how often changes may be polled: ask until a pass gets through.
    const stored = async (): Promise<boolean> => {
      const got = await harness.host.handle('orders.get', { orderId: placed.id });
      return got.ok && got.value !== null;
    };
    for (let i = 0; i < 10 && !(await stored()); i++) {
      await harness.host.handle('intake.checkNow', {});
      // The scenario's input, not a wait for something: the sandbox lets a new changes poll through only so often.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
    }
    await page.getByTestId('sync-message').filter({ hasText: "The token server's clock and the order service's disagree by 3" }).waitFor({ timeout: 10_000 });
    await expect(page.getByTestId('sync-message').textContent()).resolves.not.toMatch(/This computer's clock/);
    // Stored by a pass whose window spans both readings (the queue may not have it in view).
    expect(await stored()).toBe(true);
    expect(t.problems).toEqual([]);
  });
});
