import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type HandlerTable } from '../../src/main/core/host/dispatch';
import { createLogger } from '../../src/main/core/log';
import { COMMANDS, type CommandName, type EventName } from '../../src/shared/ipc';
import { ok } from '../../src/shared/result';
import { bridgeScript, contractScript } from '../../src/web/bundle';
import { startWebServer, type WebServer } from '../../src/web/server';
import { connectChromium } from '../support/shared-chromium';

// The page's module reads window.packdesk as soon as it runs, as the real renderer does.
const APP = `
const api = window.packdesk;
document.body.dataset.hasApi = String(typeof api?.invoke === 'function');
document.body.dataset.hash = location.hash;
api.on('sync.status', (s) => { document.body.dataset.event = s.message; });
api.invoke('pin.verify', { pin: '1234' }).then((r) => { document.body.dataset.reply = JSON.stringify(r); });
api.invoke('pin.verify', { pin: 'abc' }).then((r) => { document.body.dataset.bad = JSON.stringify(r); });
`;

describe('the bridge in Chromium', () => {
  let base: string;
  let server: WebServer;
  let browser: Browser;
  let emit: (event: EventName, body: unknown) => void = () => undefined;
  let foreign: Server;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'packdesk-bridge-'));
    mkdirSync(join(base, 'assets'));
    writeFileSync(join(base, 'index.html'), '<!doctype html><html><head><script type="module" src="./assets/app.js"></script></head><body></body></html>');
    writeFileSync(join(base, 'assets', 'app.js'), APP);
    const table = Object.fromEntries(
      (Object.keys(COMMANDS) as CommandName[]).map((c) => [c, async () => ok(c === 'pin.verify' ? { valid: true } : {})]),
    ) as unknown as HandlerTable;
    const dispatch = createDispatcher(table, createLogger([]));
    server = await startWebServer({
      rendererDir: base,
      log: createLogger([]),
      bridge: bridgeScript,
      handle: dispatch,
      subscribe(listener) {
        emit = listener;
        return () => undefined;
      },
    });
    browser = await connectChromium();
    // A page on another origin that knows the token still must not get in.
    foreign = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><body></body>');
    });
    await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    foreign?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('gives the page window.packdesk before its module runs, over the token-guarded socket', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(server.url);
    // The contract is a module the bridge imports, not part of the page's load: on a busy machine
    // the first reply can come more than the default second after the load event.
    await expect.poll(() => page.evaluate(() => document.body.dataset.reply ?? ''), { timeout: 15_000 }).not.toBe('');
    expect(await page.evaluate(() => document.body.dataset.hasApi)).toBe('true');
    expect(JSON.parse((await page.evaluate(() => document.body.dataset.reply))!)).toEqual({ ok: true, value: { valid: true } });
    expect(JSON.parse((await page.evaluate(() => document.body.dataset.bad))!)).toMatchObject({ ok: false, problem: { kind: 'invalid' } });
    // The token left the address bar (and the app never saw it).
    expect(page.url()).toBe(`${server.origin}/`);
    expect(await page.evaluate(() => document.body.dataset.hash)).toBe('');
    emit('sync.status', {
      connectivity: 'online',
      waiting: 0,
      failed: 0,
      toCheck: 0,
      oldestWaitingAt: null,
      lastSuccessAt: null,
      credentials: 'ok',
      backlogAlarm: false,
      clockSkewMs: null,
      message: 'pushed',
    });
    await expect.poll(() => page.evaluate(() => document.body.dataset.event ?? '')).toBe('pushed');
    // The API cannot be swapped by page code.
    expect(await page.evaluate(() => {
      try {
        (window as unknown as { packdesk: unknown }).packdesk = null;
      } catch {
        // strict-mode assignment to a read-only property
      }
      return typeof (window as unknown as { packdesk: unknown }).packdesk;
    })).toBe('object');
    expect(errors).toEqual([]);
    // A reload keeps working: the token moved to sessionStorage.
    await page.evaluate(() => delete document.body.dataset.reply);
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.body.dataset.reply ?? ''), { timeout: 15_000 }).toContain('"valid":true');
    await page.close();
  });

  it('refuses a page on another origin even when it holds the token', async () => {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
    const outcome = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => resolve('open');
          ws.onerror = () => resolve('refused');
        }),
      `ws://127.0.0.1:${server.port}/ipc?t=${server.token}`,
    );
    expect(outcome).toBe('refused');
    await page.close();
  });
});

describe('the bridge script and its contract', () => {
  it("carries zod's English messages only: every other language's were most of what the page parsed before its own script", async () => {
    const script = await contractScript();
    // A refused reply is still worded by zod in English…
    expect(script).toContain('Invalid input');
    // …and no other locale's messages ride along (Hebrew and Ukrainian, two of zod's 50).
    expect(script).not.toMatch(/קלט לא תקין|Неправильні вхідні дані/);
    expect(script.length).toBeLessThan(300_000);
  });

  it('keeps zod and the schemas out of the script the page parser waits for', async () => {
    const script = await bridgeScript();
    expect(script).not.toContain('Invalid input');
    expect(script).toContain('/packdesk-contract.js');
    expect(script.length).toBeLessThan(10_000);
  });
});
