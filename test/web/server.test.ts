import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../../src/main/core/log';
import type { EventName, Reply } from '../../src/shared/ipc';
import { bridgeScript } from '../../src/web/bundle';
import { startWebServer, withBridge, type WebServer } from '../../src/web/server';

/** A raw GET, so paths are sent exactly as written (no client-side normalisation of "..") and Host can be forged. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket and says whether the server let it in (and the HTTP status when not). */
function connect(url: string, origin: string | undefined): Promise<{ open: boolean; status?: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin === undefined ? {} : { origin });
    ws.once('open', () => resolve({ open: true, ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ open: false, status: res.statusCode });
      ws.terminate();
    });
    ws.once('error', () => resolve({ open: false }));
  });
}

describe('the harness server', () => {
  let root: string;
  let secretFile: string;
  let server: WebServer;
  const invoked: { command: unknown; payload: unknown }[] = [];
  let emit: (event: EventName, body: unknown) => void = () => undefined;

  beforeAll(async () => {
    const base = mkdtempSync(join(tmpdir(), 'packdesk-web-'));
    root = join(base, 'renderer');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><html><head><title>t</title><script type="module" src="./assets/app.js"></script></head><body></body></html>');
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(root, 'assets', 'app.css'), 'body{}');
    writeFileSync(join(root, 'assets', 'icon.svg'), '<svg/>');
    secretFile = join(base, 'secret.txt');
    writeFileSync(secretFile, 'outside the root');
    symlinkSync(secretFile, join(root, 'assets', 'link.txt'));
    server = await startWebServer({
      rendererDir: root,
      log: createLogger([]),
      bridge: bridgeScript,
      async handle(command, payload): Promise<Reply<unknown>> {
        invoked.push({ command, payload });
        return { ok: true, value: { echoed: command } };
      },
      subscribe(listener) {
        emit = listener;
        return () => {
          emit = () => undefined;
        };
      },
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(join(root, '..'), { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and hands out a URL carrying the token in the fragment', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#t=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(40);
  });

  it('serves index.html with the bridge script in its head and a strict CSP', async () => {
    const res = await get(server.port, '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    // Deferred, just before the app's module: the parser never waits for it, and it runs before the module (document order).
    expect(res.body).toContain('<script defer src="/packdesk-bridge.js"></script>\n    <script type="module"');
    // The contract module the bridge imports after the first frame is not preloaded: compiling it held that frame back.
    expect(res.body).not.toContain('packdesk-contract.js');
    expect(res.body).not.toContain(server.token);
    const csp = String(res.headers['content-security-policy']);
    for (const part of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' https: data:",
      `connect-src 'self' ws://127.0.0.1:${server.port}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(part);
    expect(csp).not.toContain('unsafe');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves assets with their content types and the bridge as a script', async () => {
    expect((await get(server.port, '/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get(server.port, '/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await get(server.port, '/assets/icon.svg')).headers['content-type']).toBe('image/svg+xml');
    const bridge = await get(server.port, '/packdesk-bridge.js');
    expect(bridge.status).toBe(200);
    expect(bridge.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bridge.body).toContain('packdesk');
  });

  it('lets the browser keep what does not change (hashed assets for good, the bridge and contract asked again), never index.html', async () => {
    const page = await get(server.port, '/');
    expect(page.headers['cache-control']).toBe('no-store');
    const asset = await get(server.port, '/assets/app.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['/packdesk-bridge.js', '/packdesk-contract.js', '/assets/app.js']) {
      const first = await get(server.port, path);
      expect(first.status).toBe(200);
      expect(typeof first.headers.etag).toBe('string');
      if (path !== '/assets/app.js') expect(first.headers['cache-control']).toBe('no-cache');
      const again = await get(server.port, path, { 'if-none-match': String(first.headers.etag) });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      // The security headers come with a 304 too.
      expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
      const stale = await get(server.port, path, { 'if-none-match': '"something-else"' });
      expect(stale.status).toBe(200);
    }
    const contract = await get(server.port, '/packdesk-contract.js');
    expect(contract.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(contract.body).toContain('parseReply');
  });

  it.each(['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/assets/..%5c..%5csecret.txt', '/assets/link.txt', '/assets', '/nothing.js', '/%00', '/%E0%A4%A'])(
    'refuses %s',
    async (path) => {
      const res = await get(server.port, path);
      expect([400, 404]).toContain(res.status);
      expect(res.body).not.toContain('outside the root');
    },
  );

  it('refuses another Host (DNS rebinding) and methods other than GET/HEAD', async () => {
    expect((await get(server.port, '/', { host: `evil.example:${server.port}` })).status).toBe(421);
    const post = await new Promise<number>((resolve) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/', method: 'POST' }, (res) => resolve(res.statusCode ?? 0));
      req.end('x');
    });
    expect(post).toBe(405);
  });

  const ipc = (token: string | null): string => `ws://127.0.0.1:${server.port}/ipc${token === null ? '' : `?t=${encodeURIComponent(token)}`}`;

  it('refuses a WebSocket without the token, with a wrong one, or from another origin', async () => {
    const origin = server.origin;
    expect(await connect(ipc(null), origin)).toMatchObject({ open: false, status: 401 });
    expect(await connect(ipc('wrong'), origin)).toMatchObject({ open: false, status: 401 });
    expect(await connect(ipc(`${server.token.slice(0, -1)}${server.token.endsWith('A') ? 'B' : 'A'}`), origin)).toMatchObject({ open: false, status: 401 });
    expect(await connect(ipc(server.token), 'http://evil.example')).toMatchObject({ open: false, status: 403 });
    expect(await connect(ipc(server.token), `http://localhost:${server.port}`)).toMatchObject({ open: false, status: 403 });
    expect(await connect(ipc(server.token), undefined)).toMatchObject({ open: false, status: 403 });
    expect(await connect(`ws://127.0.0.1:${server.port}/other?t=${server.token}`, origin)).toMatchObject({ open: false, status: 404 });
    expect(invoked).toEqual([]);
  });

  it('carries invokes and events for a page with the token on its own origin', async () => {
    const { open, ws } = await connect(ipc(server.token), server.origin);
    expect(open).toBe(true);
    const frames: unknown[] = [];
    ws!.on('message', (d) => frames.push(JSON.parse(String(d))));
    ws!.send(JSON.stringify({ type: 'invoke', id: 7, command: 'app.info', payload: {} }));
    await expect.poll(() => frames.length).toBe(1);
    expect(frames[0]).toEqual({ type: 'reply', id: 7, reply: { ok: true, value: { echoed: 'app.info' } } });
    emit('sync.status', { hello: 1 });
    await expect.poll(() => frames.length).toBe(2);
    expect(frames[1]).toEqual({ type: 'event', event: 'sync.status', body: { hello: 1 } });
    ws!.close();
  });

  it('closes a socket that sends a malformed frame, without running anything', async () => {
    const before = invoked.length;
    for (const bad of ['not json', JSON.stringify({ type: 'invoke', id: 'x', command: 'app.info', payload: {} }), JSON.stringify({ type: 'invoke', id: 1, command: 'app.info', payload: {}, extra: 1 })]) {
      const { ws } = await connect(ipc(server.token), server.origin);
      const closed = new Promise<number>((resolve) => ws!.once('close', (code) => resolve(code)));
      ws!.send(bad);
      expect([1003, 1008]).toContain(await closed);
    }
    expect(invoked.length).toBe(before);
  });

  it('inserts the bridge, deferred, before the app\'s module script, or into <head> without one', () => {
    const tags = '<script defer src="/packdesk-bridge.js"></script>';
    expect(withBridge('<head><title>t</title><script type="module" src="./a.js"></script></head>')).toBe(
      `<head><title>t</title>${tags}\n    <script type="module" src="./a.js"></script></head>`,
    );
    expect(withBridge('<html><head lang="x"></head></html>')).toBe(`<html><head lang="x">  ${tags}\n  </head></html>`);
    expect(withBridge('<html><body></body></html>')).toBe(`${tags}\n<html><body></body></html>`);
  });
});
