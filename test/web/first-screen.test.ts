/**
 * The queue's first screen does not wait for the whole list: the page draws the first screenful
 * from the queue's head (`orders.head`: those rows, every id in queue order, the counts) and reads
 * `orders.list` once that screen is painted. Here the host holds its answer to `orders.list` back:
 * the rows, their order and the filter counts must be on screen all the same, and once the list
 * comes every order is there, in the same order. Real host (training sandbox, 200 orders), the
 * built renderer, Debian's Chromium.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox';
import { createAppHost, type AppHost } from '../../src/main/core/host';
import type { OrderSummary, Reply } from '../../src/shared/ipc';
import { countSteps, inQueueOrder } from '../../src/shared/orders';
import { DEFAULT_RENDERER_DIR } from '../../src/web';
import { bridgeScript } from '../../src/web/bundle';
import { startWebServer, type WebServer } from '../../src/web/server';
import { connectChromium } from '../support/shared-chromium';
import { firstIntakePass } from '../support/intake';

const ORDERS = 200;

describe("the queue's first screen", () => {
  let dataDir: string;
  let host: AppHost;
  let server: WebServer;
  let browser: Browser;
  /** orders.list answers wait for this while set. */
  let listHeld: Promise<void> | null = null;
  let listAsked = 0;

  beforeAll(async () => {
    if (!existsSync(join(DEFAULT_RENDERER_DIR, 'index.html')))
      throw new Error(`${join(DEFAULT_RENDERER_DIR, 'index.html')} is missing: run \`npm run build\` before this test (npm test does).`);
    dataDir = mkdtempSync(join(tmpdir(), 'packdesk-first-screen-'));
    host = await createAppHost({
      shell: 'web',
      dataDir,
      version: '0.1.0-test',
      settingsOverride: { environment: 'training' },
      startTraining: (log) => startSandbox({ log, orderCount: ORDERS }),
    });
    await host.start();
    await firstIntakePass(host);
    await host.handle('pin.set', { newPin: '2468' });
    server = await startWebServer({
      rendererDir: DEFAULT_RENDERER_DIR,
      handle: async (command, payload): Promise<Reply<unknown>> => {
        if (command === 'orders.list') {
          listAsked += 1;
          await listHeld;
        }
        return host.handle(command, payload);
      },
      subscribe: (listener) => host.subscribe(listener),
      bridge: bridgeScript,
      log: host.log.child('web'),
    });
    browser = await connectChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await host?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const shownIds = (page: Page): Promise<string[]> =>
    page.getByTestId('order-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id') ?? ''));
  const count = (page: Page, key: string): Promise<string | null> => page.getByTestId(`filter-${key}`).locator('.filter-count').textContent();

  it('shows the first rows in queue order and every count before the whole list has come', async () => {
    const listed = await host.handle('orders.list', {});
    if (!listed.ok) throw new Error(listed.problem.message);
    const rows = listed.value as OrderSummary[];
    expect(rows.length).toBe(ORDERS);
    const queue = inQueueOrder(rows).map((v) => v.id);
    const counts = countSteps(rows);

    let release = (): void => undefined;
    listHeld = new Promise((resolve) => (release = resolve));
    listAsked = 0;
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(server.url);
    await page.getByTestId('order-row').first().waitFor({ timeout: 15_000 });

    // The list is still held: what shows came from the head alone.
    const first = await shownIds(page);
    expect(first.length).toBeGreaterThanOrEqual(6);
    expect(first).toEqual(queue.slice(0, first.length));
    expect(await count(page, 'ALL')).toBe(String(ORDERS));
    for (const key of ['ACCEPT', 'PACKING', 'PACKED', 'DONE'] as const) expect(await count(page, key)).toBe(String(counts[key]));
    // And the whole list was asked for once that screen was drawn.
    await expect.poll(() => listAsked, { timeout: 5_000 }).toBe(1);

    release();
    listHeld = null;
    // The last order of the queue, which the head carried no row for, is there once the list is in.
    const last = queue[queue.length - 1]!;
    const list = page.getByTestId('queue-list');
    await expect
      .poll(
        async () => {
          await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
          return (await shownIds(page)).includes(last);
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await list.evaluate((el) => (el.scrollTop = 0));
    await expect.poll(() => shownIds(page)).toEqual(first);
    expect(await count(page, 'ALL')).toBe(String(ORDERS));
    expect(await count(page, 'ACCEPT')).toBe(String(counts.ACCEPT));
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
