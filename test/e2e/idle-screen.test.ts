/**
 * A terminal left alone on the queue is not drawn again every second: the sync bar's "Orders
 * checked 14:05 (just now)" and "Last sent" read to the minute (orders are checked every 30 s, so
 * by the second that line changed all day). An old counter PC's one core is then free between the
 * packer's taps (issue 41: the page's idle CPU at most 0.3 % of a core; bench/memory.ts measures
 * it). The page's clock is Playwright's (page.clock), paused once the queue is in, so a minute of
 * it passes at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTerminal, pauseClockNow, shot, type Terminal } from './support';

declare global {
  interface Window {
    __syncBarChanges?: string[];
    __clockReads?: number[];
    __wordChanges?: number[];
  }
}

describe('an idle queue', () => {
  let t: Terminal;
  beforeAll(async () => {
    // Orders checked (the first pass), then not for ten minutes: nothing from the host moves the bar.
    t = await openTerminal({ settings: { intakeIntervalMs: 600_000 }, beforeOpen: (page) => page.clock.install() });
  });
  afterAll(async () => t?.close());

  it('keeps the sync bar still for the first minute after orders were checked, then says "1 min ago"', async () => {
    const { page } = t;
    const intake = page.getByTestId('sync-intake');
    await intake.filter({ hasText: /^Orders checked \d{2}:\d{2} \(just now\)$/ }).waitFor();
    // From here the page's time moves only when the test moves it.
    await pauseClockNow(page);
    // Every change to the bar's words from here on.
    await page.evaluate(() => {
      window.__syncBarChanges = [];
      const bar = document.querySelector('[data-testid="sync-bar"]');
      if (!bar) throw new Error('no sync bar');
      new MutationObserver((records) => {
        for (const r of records) window.__syncBarChanges?.push(`${r.type}: ${(r.target.textContent ?? '').slice(0, 80)}`);
      }).observe(bar, { subtree: true, childList: true, characterData: true });
    });
    // 40 seconds of the page's clock, a second at a time: the host checked orders a moment ago.
    for (let s = 0; s < 40; s++) await page.clock.runFor(1_000);
    expect(await page.evaluate(() => window.__syncBarChanges)).toEqual([]);
    await expect(intake.textContent()).resolves.toMatch(/\(just now\)$/);
    // A minute and more after the check.
    await page.clock.runFor(30_000);
    await intake.filter({ hasText: /\(1 min ago\)$/ }).waitFor();
    await shot(page, 'idle-sync-bar-a-minute-on');
    expect(t.problems).toEqual([]);
  });

  it("wakes when a countdown's or the bar's words change, not every second", async () => {
    const { page } = t;
    const countdowns = await page.locator('[data-testid="order-row"] .deadline-text').count();
    expect(countdowns).toBeGreaterThanOrEqual(5);
    // Every moment of the page's clock at which it was read (each wake reads it), and every moment
    // a word on screen changed.
    await page.evaluate(() => {
      window.__clockReads = [];
      window.__wordChanges = [];
      const now = Date.now.bind(Date);
      Date.now = () => {
        const at = now();
        window.__clockReads?.push(at);
        return at;
      };
      new MutationObserver(() => window.__wordChanges?.push(now())).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    for (let s = 0; s < 150; s++) await page.clock.runFor(1_000);
    const { reads, changes } = await page.evaluate(() => ({ reads: [...new Set(window.__clockReads)], changes: [...new Set(window.__wordChanges)] }));
    // Two and a half minutes: the countdowns turned over (each once a minute) and the bar's age.
    expect(changes.length).toBeGreaterThanOrEqual(2);
    // A page ticking every second read its clock 150 times. Now it reads it when a word changes,
    // and once a minute besides: the queue's "Late" and "Done today" are counted again on the
    // minute (a late order moves there by the clock alone), which may change no word.
    expect(reads.filter((at) => !changes.includes(at)).length).toBeLessThanOrEqual(3);
    expect(reads.length).toBeLessThan(30);
    expect(t.problems).toEqual([]);
  });
});
