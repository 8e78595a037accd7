import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentTypeFor, createAppProtocolHandler, registerAppScheme, resolveAppPath, serveApp } from '../../src/main/protocol';
import { cspHeader } from '../../src/main/security';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'packdesk-protocol-'));
  root = path.join(base, 'renderer');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Packdesk</title>');
  writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'assets', 'app.css'), 'body{}');
  writeFileSync(path.join(base, 'secret.txt'), 'outside the root');
  writeFileSync(path.join(base, 'renderer-evil.txt'), 'sibling with a shared prefix');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveAppPath', () => {
  it('maps app://packdesk paths into the root', () => {
    expect(resolveAppPath(root, 'app://packdesk/')).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath(root, 'app://packdesk')).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath(root, 'app://packdesk/index.html?x=1#top')).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath(root, 'app://packdesk/assets/index-abc.js')).toBe(path.join(root, 'assets', 'index-abc.js'));
    expect(resolveAppPath(root, 'app://packdesk/assets/with%20space.png')).toBe(path.join(root, 'assets', 'with space.png'));
  });

  it.each([
    // The URL parser already folds dot segments (plain or %2e-encoded) at the root of the path.
    ['app://packdesk/../secret.txt', 'secret.txt'],
    ['app://packdesk/%2e%2e/secret.txt', 'secret.txt'],
    ['app://packdesk/%2E%2E/%2E%2E/etc/passwd', 'etc/passwd'],
    ['app://packdesk/../renderer-evil.txt', 'renderer-evil.txt'],
    ['app://packdesk/..', 'index.html'],
    ['app://packdesk/%2e%2e', 'index.html'],
  ])('keeps %s inside the root', (url, inside) => {
    expect(resolveAppPath(root, url)).toBe(path.join(root, inside));
  });

  it.each([
    // Encoded separators survive the URL parser and decode to "../": refused after resolving.
    'app://packdesk/assets/..%2f..%2fsecret.txt',
    'app://packdesk/..%2F..%2F..%2Fetc%2Fpasswd',
    'app://packdesk/..%5csecret.txt',
    'app://packdesk/assets%5c..%5c..%5csecret.txt',
    'app://packdesk/index.html%00.png',
    'app://packdesk/%E0%A4%A',
    'app://other/index.html',
    'https://packdesk/index.html',
    'file:///etc/passwd',
    'not a url',
  ])('refuses %s', (url) => {
    expect(resolveAppPath(root, url)).toBeNull();
  });

  it('never resolves outside the root for a batch of tricky paths', () => {
    const pieces = ['..', '%2e%2e', '%2E.', '.%2e', '%2f', '%5c', '/', '//', 'assets', 'secret.txt', '%00', '.', '%252e%252e'];
    for (let i = 0; i < 3000; i++) {
      let p = '';
      for (let j = 0; j < 5; j++) p += pieces[(i * 7 + j * 13 + ((i >> j) % 5)) % pieces.length] + (j % 2 ? '/' : '');
      const resolved = resolveAppPath(root, `app://packdesk/${p}`);
      if (resolved !== null) expect(resolved.startsWith(root + path.sep), p).toBe(true);
    }
  });
});

describe('contentTypeFor', () => {
  it('knows the built UI files', () => {
    expect(contentTypeFor('/x/index.html')).toMatch(/^text\/html/);
    expect(contentTypeFor('/x/a.JS')).toMatch(/^text\/javascript/);
    expect(contentTypeFor('/x/a.css')).toMatch(/^text\/css/);
    expect(contentTypeFor('/x/a.woff2')).toBe('font/woff2');
    expect(contentTypeFor('/x/a.bin')).toBe('application/octet-stream');
  });
});

describe('createAppProtocolHandler', () => {
  const handler = () => createAppProtocolHandler(root);

  it('serves the entry with the CSP and nosniff headers', async () => {
    const res = await handler()(new Request('app://packdesk/index.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(cspHeader());
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>Packdesk</title>');
  });

  it('serves assets with their type', async () => {
    const res = await handler()(new Request('app://packdesk/assets/index-abc.js'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('answers 404 with the CSP for missing files and traversal attempts', async () => {
    for (const url of ['app://packdesk/missing.js', 'app://packdesk/%2e%2e/secret.txt', 'app://packdesk/..%2fsecret.txt', 'app://other/index.html', 'app://packdesk/assets']) {
      const res = await handler()(new Request(url));
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe(cspHeader());
      expect(await res.text()).not.toContain('outside the root');
    }
  });

  it('refuses methods other than GET and HEAD', async () => {
    const res = await handler()(new Request('app://packdesk/index.html', { method: 'POST', body: 'x' }));
    expect(res.status).toBe(405);
  });

  it('answers HEAD without a body', async () => {
    const res = await handler()(new Request('app://packdesk/index.html', { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('turns read errors into 404 without details', async () => {
    const h = createAppProtocolHandler(root, () => Promise.reject(new Error('EACCES /very/private/path')));
    const res = await h(new Request('app://packdesk/index.html'));
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('private');
  });
});

describe('registerAppScheme and serveApp', () => {
  it('registers app:// as standard and secure, with V8\'s code cache, without CSP bypass', () => {
    const registerSchemesAsPrivileged = vi.fn();
    registerAppScheme({ registerSchemesAsPrivileged });
    const [schemes] = registerSchemesAsPrivileged.mock.calls[0]!;
    expect(schemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, codeCache: true }) }]);
    expect(schemes[0].privileges.bypassCSP).toBeUndefined();
  });

  it('tells the host a page is loading once its document is handed over (never for other files or HEAD)', async () => {
    // Only setTimeout is faked: the files are read for real, and the handler's task is run by hand.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const handle = vi.fn();
      const pageLoading = vi.fn();
      serveApp({ handle }, root, pageLoading);
      const handler = handle.mock.calls[0]![1] as (r: Request) => Promise<Response>;
      await handler(new Request('app://packdesk/', { method: 'HEAD' }));
      await handler(new Request('app://packdesk/assets/index-abc.js'));
      vi.runOnlyPendingTimers();
      expect(pageLoading).not.toHaveBeenCalled();
      const res = await handler(new Request('app://packdesk/'));
      expect(res.status).toBe(200);
      // In a task of its own: the document is on its way before the host's work starts.
      expect(pageLoading).not.toHaveBeenCalled();
      vi.runOnlyPendingTimers();
      expect(pageLoading).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands protocol.handle a working handler', async () => {
    const handle = vi.fn();
    serveApp({ handle }, root);
    expect(handle).toHaveBeenCalledWith('app', expect.any(Function));
    const res = await (handle.mock.calls[0]![1] as (r: Request) => Promise<Response>)(new Request('app://packdesk/'));
    expect(res.status).toBe(200);
  });
});
