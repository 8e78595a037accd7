/**
 * The bridge after its socket drops: events the host sent meanwhile never reach the page, so the
 * bridge reads the state again on reconnect and hands it to the renderer as those events. Real
 * host (training sandbox), the built renderer, Debian's Chromium; the harness server is closed and
 * started again on the same port and token, as when the socket is cut from the server side.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox';
import { createAppHost, type AppHost } from '../../src/main/core/host';
import type { CommandName, CommandResult } from '../../src/shared/ipc';
import { DEFAULT_RENDERER_DIR } from '../../src/web';
import { bridgeScript } from '../../src/web/bundle';
import { startWebServer, type WebServer } from '../../src/web/server';
import { connectChromium } from '../support/shared-chromium';
import { firstIntakePass } from '../support/intake';

describe('the bridge after a dropped socket', () => {
  let dataDir: string;
  let host: AppHost;
  let server: WebServer | null = null;
  let browser: Browser;

  const serve = (port?: number, token?: string): Promise<WebServer> =>
    startWebServer({
      rendererDir: DEFAULT_RENDERER_DIR,
      handle: (command, payload) => host.handle(command, payload),
      subscribe: (listener) => host.subscribe(listener),
      bridge: bridgeScript,
      log: host.log.child('web'),
      ...(port === undefined ? {} : { port }),
      ...(token === undefined ? {} : { token }),
    });

  const call = async <C extends CommandName>(command: C, payload: unknown): Promise<CommandResult<C>> => {
    const reply = await host.handle(command, payload);
    if (!reply.ok) throw new Error(`${command} failed: ${reply.problem.message}`);
    return reply.value as CommandResult<C>;
  };

  /** Accepts an order still waiting for Accept and waits until the sandbox has it. */
  const acceptOne = async (): Promise<string> => {
    const order = (await call('orders.list', {})).find((o) => o.nextStep?.key === 'ACCEPT');
    if (!order) throw new Error('the training queue has no order waiting for Accept');
    await call('taps.submit', { orderId: order.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
    const drained = await host.engine()!.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(drained.remaining).toBe(0);
    return order.id;
  };

  const count = (page: Page, key: string): Promise<string | null> => page.getByTestId(`filter-${key}`).locator('.filter-count').textContent();

  beforeAll(async () => {
    if (!existsSync(join(DEFAULT_RENDERER_DIR, 'index.html')))
      throw new Error(`${join(DEFAULT_RENDERER_DIR, 'index.html')} is missing: run \`npm run build\` before this test (npm test does).`);
    dataDir = mkdtempSync(join(tmpdir(), 'packdesk-reconnect-'));
    // No undo window, so a tap is sent as soon as the engine drains.
    host = await createAppHost({
      shell: 'web',
      dataDir,
      version: '0.1.0-test',
      settingsOverride: { environment: 'training', undoWindowMs: 0 },
      engineOptions: { pollMs: 200, backoff: { baseMs: 50, capMs: 500 } },
      startTraining: (log) => startSandbox({ log }),
    });
    await host.start();
    // Training's seeded orders come in after the engine starts: the test begins with them all in.
    await firstIntakePass(host);
    // A manager PIN, so the app opens on the queue rather than on the first-run PIN screen.
    await host.handle('pin.set', { newPin: '2468' });
    server = await serve();
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await host?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('catches the screen up with what changed while the socket was down', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(server!.url);
    await page.getByTestId('order-row').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('sync-bar').textContent()).toContain('Nothing sent yet');
    const accept = Number(await count(page, 'ACCEPT'));
    const packing = Number(await count(page, 'PACKING'));
    // Set on this document: still there afterwards means the page caught up without a reload.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    const { port, token } = server!;
    await server!.close();
    server = null;
    // The host goes on without the page: the tap's orders.changed, outbox.changed and sync.status
    // events reach no socket.
    const accepted = await acceptOne();
    expect((await call('orders.get', { orderId: accepted }))?.nextStep?.key).toBe('PACKING');
    server = await serve(port, token);

    await expect.poll(() => count(page, 'ACCEPT'), { timeout: 15_000 }).toBe(String(accept - 1));
    expect(await count(page, 'PACKING')).toBe(String(packing + 1));
    await expect.poll(() => page.getByTestId('sync-bar').textContent()).toContain('Last sent');
    expect(await page.getByTestId('sync-waiting').textContent()).toContain('All taps sent');
    // Every order is still listed once after a whole list came in as orders.changed.
    expect(await page.getByTestId('filter-ALL').locator('.filter-count').textContent()).toBe(String((await call('orders.list', {})).length));
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // Live events flow again on the new socket.
    await acceptOne();
    await expect.poll(() => count(page, 'ACCEPT'), { timeout: 15_000 }).toBe(String(accept - 2));
    expect(await count(page, 'PACKING')).toBe(String(packing + 2));
    expect(problems).toEqual([]);
    await page.close();
  });
});
