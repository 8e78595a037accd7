/**
 * The built UI (out/renderer, made by `npm run build` before the tests) served through the real
 * app:// handler: strict CSP kept in the page, no inline script, every referenced asset served
 * with its type and the CSP header.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../src/main/protocol';
import { cspHeader } from '../../src/main/security';
import { REPO_ROOT } from '../support/paths';

const root = path.join(REPO_ROOT, 'out', 'renderer');
const html = (): string => {
  const file = path.join(root, 'index.html');
  if (!existsSync(file)) throw new Error('out/renderer/index.html is missing: run `npm run build` first (npm test does).');
  return readFileSync(file, 'utf8');
};

describe('the built renderer', () => {
  it('keeps a strict CSP in the page and has no inline script', () => {
    const page = html();
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(page)?.[1];
    expect(csp).toBeDefined();
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    for (const tag of page.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/\bsrc="/);
    expect(page).not.toMatch(/<script\b[^>]*>[^<\s]/);
  });

  /** The app's script: main.tsx's chunk (the page's entry) and start.tsx's, which it imports. */
  const appScript = (): { entry: string; start: string } => {
    const entry = /<script\b[^>]*\bsrc="\.\/(assets\/index-[^"]+\.js)"/.exec(html())?.[1];
    expect(entry).toBeDefined();
    const start = readdirSync(path.join(root, 'assets')).find((f) => /^start-[^/]+\.js$/.test(f));
    expect(start).toBeDefined();
    return { entry: readFileSync(path.join(root, entry!), 'utf8'), start: readFileSync(path.join(root, 'assets', start!), 'utf8') };
  };

  it('starts without zod: the preload or the harness bridge checks what crosses, and building the schemas held up the first screen', () => {
    const { entry, start } = appScript();
    expect(start).toMatch(/react-dom/);
    expect(entry + start).not.toMatch(/\$ZodType|ZodError/);
  });

  it("has a small entry (it runs before the page's first frame) and ships the app minified (1,069 kB unminified, about 290 kB minified)", () => {
    const { entry, start } = appScript();
    expect(entry.length).toBeLessThan(10_000);
    expect(entry).not.toMatch(/react-dom/);
    expect(start.length).toBeLessThan(700_000);
    expect(start).not.toMatch(/^\/\/ node_modules\//m);
  });

  it('serves the page and every asset it references over app:// with the CSP header', async () => {
    const handler = createAppProtocolHandler(root);
    const page = await handler(new Request('app://packdesk/index.html'));
    expect(page.status).toBe(200);
    const refs = [...html().matchAll(/(?:src|href)="(\.\/[^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const url = new URL(ref, 'app://packdesk/index.html').toString();
      expect(url.startsWith('app://packdesk/')).toBe(true);
      const res = await handler(new Request(url));
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(cspHeader());
      expect(res.headers.get('content-type'), url).toMatch(ref.endsWith('.js') ? /^text\/javascript/ : ref.endsWith('.css') ? /^text\/css/ : /./);
    }
  });
});
