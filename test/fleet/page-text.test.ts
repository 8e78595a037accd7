/**
 * The fleet page shows names that come from the stores with their direction controls written out
 * (issue 38): a counter named with a right-to-left override reads "\u202E" on the page, never
 * turned around. The real centre and one store hub on nats-server, the page in Chromium.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFleetStream } from '../../src/fleet/central';
import { type FleetServer, startFleetServer } from '../../src/fleet/serve';
import { launchChromium } from '../support/chromium';
import { Cleanup } from '../support/engine';
import { startCentral, startStore } from './fleet-world';

const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

describe('the fleet page', () => {
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
    browser = await launchChromium();
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
});
