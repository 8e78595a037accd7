/**
 * The fleet page and what reaches it from outside (issue 38): a counter named with a right-to-left
 * override reads "\u202E" on the page, never turned around; an address with a malformed
 * percent-encoding is a 400 with the reason, not "the centre did not answer". The real centre and
 * one store hub on nats-server, the page in Chromium.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFleetStream } from '../../src/fleet/central';
import { type FleetServer, startFleetServer } from '../../src/fleet/serve';
import { connectChromium } from '../support/shared-chromium';
import { Cleanup } from '../support/engine';
import { startCentral, startStore } from './fleet-world';

const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

describe('the fleet page and what it is sent', () => {
  const cleanup = new Cleanup();
  let server: FleetServer;
  let browser: Browser;

  beforeAll(async () => {
    const central = await startCentral(cleanup);
    const store = await startStore(cleanup, central, 'store-rtl', 1, 1_000);
    // What a counter named at the store would send north.
    (store.counters[0] as { counterName: string }).counterName = 'Till \u202E1 retnuoC';
    await ensureFleetStream(central.nc, [store.storeId]);
    server = await startFleetServer({ nc: central.nc, port: 0 });
    cleanup.add(() => server.close());
    browser = await connectChromium();
    cleanup.add(() => browser.close());
  }, 90_000);
  afterAll(() => cleanup.run(), 30_000);

  it("writes out a direction control in a counter's name, and the page's text holds none", async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(server.url);
    const name = page.locator('tr[data-counter="store-rtl-c1"] td.counter-name');
    await name.filter({ hasText: 'Till \\u202E1 retnuoC' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.body.textContent ?? '')).not.toMatch(BIDI);
  }, 40_000);

  it('answers a malformed percent-encoding in a path with 400 and the reason', async () => {
    for (const bad of ['/api/stores/%E0%A4%A', '/api/stores/store%', '/api/stores/%zz']) {
      const res = await fetch(new URL(bad, server.url));
      expect(res.status, bad).toBe(400);
      expect(await res.json(), bad).toEqual({ error: expect.stringMatching(/malformed percent-encoding/) });
    }
    // A good one still answers.
    expect((await fetch(new URL('/api/stores/store-rtl', server.url))).status).toBe(200);
  });
});
