/**
 * After a busy spell, once nothing has come for a while, the page gives its garbage back: one full
 * collection (renderer memory/rest.ts). A busy hour otherwise left the page's renderer tens of MB
 * above where it settled, on an old counter PC shared with the staff's browser (issue 41,
 * bench/memory.ts). The harness's Chromium gives the page its `gc` as Electron's main process
 * does; the page's clock is Playwright's, so the quiet spell passes at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_EVENTS, QUIET_MS } from '../../src/renderer/src/memory/rest';
import { freshOrders, openTerminal, pauseClockNow, type Terminal, untilTapsSettled } from './support';

declare global {
  interface Window {
    __pageCollections?: number;
    __pageHasGc?: boolean;
  }
}

describe('the page after a busy spell', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({
      orderCount: 120,
      // Orders checked once, then not for ten minutes: the only news the page hears is the taps'.
      settings: { intakeIntervalMs: 600_000 },
      beforeOpen: async (page) => {
        await page.clock.install();
        // Counts the page's collections, before any of its scripts run.
        await page.addInitScript(() => {
          const g = globalThis as unknown as { gc?: (o?: unknown) => unknown };
          const real = g.gc;
          window.__pageHasGc = typeof real === 'function';
          window.__pageCollections = 0;
          if (typeof real === 'function')
            g.gc = (o?: unknown) => {
              window.__pageCollections = (window.__pageCollections ?? 0) + 1;
              return real(o);
            };
        });
      },
    });
  });
  afterAll(async () => t?.close());

  it('collects once when the taps are done and nothing has come for a while', async () => {
    const { page, harness } = t;
    expect(await page.evaluate(() => window.__pageHasGc)).toBe(true);
    // Accept orders until the page has heard a busy spell's worth of work: each tap brings the
    // news of its entry (queued, sent) and of its order, so half as many taps is plenty.
    const accepted: string[] = [];
    for (const order of freshOrders(t.sandbox)) {
      const r = await harness.host.handle('taps.submit', { orderId: order.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
      if (r.ok) accepted.push(order.id);
      if (accepted.length >= BUSY_EVENTS / 2) break;
    }
    expect(accepted.length).toBeGreaterThan(BUSY_EVENTS / 4);
    await untilTapsSettled(t, accepted.at(-1)!);
    // From here the page's time moves only when the test moves it.
    await pauseClockNow(page);
    expect(await page.evaluate(() => window.__pageCollections)).toBe(0);
    // Not yet: the last news came only moments ago.
    await page.clock.runFor(QUIET_MS / 2);
    expect(await page.evaluate(() => window.__pageCollections)).toBe(0);
    await page.clock.runFor(QUIET_MS);
    expect(await page.evaluate(() => window.__pageCollections)).toBe(1);
    // Quiet from here: no more, however long.
    await page.clock.runFor(10 * QUIET_MS);
    expect(await page.evaluate(() => window.__pageCollections)).toBe(1);
    // And what the packer sees is the same: the accepted orders moved on.
    await expect(page.getByTestId('order-row').first().isVisible()).resolves.toBe(true);
    expect(t.problems).toEqual([]);
  });
});
