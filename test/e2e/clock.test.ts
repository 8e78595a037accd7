/**
 * A counter PC whose clock is wrong (a flat CMOS battery, no time server): the order service's
 * promises still count down right, because the countdowns run on the service's clock as the last
 * token measured it, and the sync bar says the computer's clock is off, in words a manager acts on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promisedPackedAt } from '../../src/shared/fulfilment';
import { openTerminal, shot, type Terminal } from './support';

/** The service's clock is this far ahead of the terminal's. */
const AHEAD_MS = 17 * 60_000;

/** Minutes a countdown shows ("1 h 04 min" is 64, "35 s" is 0), and whether it says late. */
function shownMinutes(text: string): number {
  const hm = /(\d+)\s*h\s*(\d+)\s*min/.exec(text);
  if (hm) return Number(hm[1]) * 60 + Number(hm[2]);
  const m = /(\d+)\s*min/.exec(text);
  return m ? Number(m[1]) : 0;
}

describe('a computer whose clock is wrong', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({ serviceClockAheadMs: AHEAD_MS });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts down on the order service's clock and says the computer's clock is 17 minutes behind", async () => {
    const { page, sandbox } = t;
    await page.getByTestId('sync-message').filter({ hasText: "This computer's clock is 17 min behind the order service" }).waitFor();
    // Every order the service has came in with the first pass, the newest 17 minutes included.
    await expect(page.getByTestId('filter-ALL').locator('.filter-count').textContent()).resolves.toBe(String(sandbox.orders().length));
    const rows = await page.locator('[data-testid="order-row"]').evaluateAll((els) =>
      els.flatMap((el) => {
        const text = el.querySelector('.deadline-text')?.textContent;
        return text ? [{ id: (el as HTMLElement).dataset.orderId ?? '', text, late: el.querySelector('.deadline-late') !== null }] : [];
      }),
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const serviceNow = Date.now() + AHEAD_MS;
    for (const row of rows) {
      const order = sandbox.order(row.id);
      const promised = promisedPackedAt(order);
      expect(promised, row.id).toBeDefined();
      const left = (promised ?? 0) - serviceNow;
      // As the service's clock has it; on this computer's clock each would show 17 minutes more.
      expect({ id: row.id, late: row.late }).toEqual({ id: row.id, late: left < 0 });
      expect(Math.abs(shownMinutes(row.text) - Math.floor(Math.abs(left) / 60_000)), `${row.id}: "${row.text}"`).toBeLessThanOrEqual(1);
    }
    await shot(page, '47-clock-behind');
    expect(t.problems).toEqual([]);
  });
});
