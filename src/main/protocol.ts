/**
 * Serves the built UI (out/renderer) on app://packdesk/ instead of file://, so the page has a real
 * origin, a CSP header on every response, and no access to the rest of the disk. The request ->
 * file decision and the handler are pure of Electron (they use the fetch API's Request/Response),
 * so they are tested under Node; `registerAppScheme`/`serveApp` attach them to Electron's protocol.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Protocol } from 'electron';
import { contentTypeFor, withFirstScreen, type FirstScreen } from './core/ui';
import { APP_HOST, APP_SCHEME, cspHeader } from './security';

export { contentTypeFor };

/**
 * Maps an app:// request URL to a file under `root`, or null when it must not be served: another
 * scheme or host, an undecodable path, NUL bytes, backslashes, or anything resolving outside root.
 */
export function resolveAppPath(root: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  // Backslashes are separators on Windows and NUL truncates paths in native code: refuse both
  // rather than trying to normalise them.
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const relative = pathname === '' || pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, '');
  const base = path.resolve(root);
  const target = path.resolve(base, relative);
  const rel = path.relative(base, target);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return target;
}

/**
 * Headers sent with every UI response. No Cross-Origin-Opener-Policy: it severs the link between
 * our page and a cross-origin window that opened it or that it opened, and the terminal has no
 * such window (security.ts refuses every window.open, nothing can open app://; the harness's page
 * is on loopback behind its token, and a window holding it could read nothing: same-origin policy,
 * site isolation). What it did cost: Chromium gives a document that comes with it a browsing
 * context group of its own, so the page's renderer process could only be started once the answer
 * was in (a trace shows the tab's first process left and a second commit); in the harness that was
 * about 150 ms more to the queue's first paint on every load (A/B in one profile, 12 loads each,
 * and bench/ui-packer.ts; docs/ui.md).
 */
export function securityHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': cspHeader(),
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

/**
 * Builds the app:// request handler over a folder; `read` is injectable for tests. `pageLoading`
 * runs (in a task of its own) once the page's document has been handed over: the page then loads
 * and compiles its script for a while before it asks for anything, and work the host does now
 * (the queue's listing) is off the path to its first screen, as the browser harness does when a
 * page's socket connects. `firstScreen` draws the queue into index.html (null: the page as built).
 */
export function createAppProtocolHandler(
  root: string,
  read: (file: string) => Promise<Uint8Array> = (file) => readFile(file),
  pageLoading?: () => void,
  firstScreen?: () => Promise<FirstScreen | null>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const text = (status: number, body: string): Response =>
      new Response(body, { status, headers: securityHeaders('text/plain; charset=utf-8') });
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method not allowed');
    const file = resolveAppPath(root, request.url);
    if (file === null) return text(404, 'Not found');
    let body: Uint8Array;
    try {
      body = await read(file);
    } catch {
      return text(404, 'Not found');
    }
    const page = request.method === 'GET' && path.basename(file) === 'index.html';
    // The queue's first screen inside the page's root (core/ui/firstScreen): painted before the app's script runs.
    if (page && firstScreen) body = new TextEncoder().encode(withFirstScreen(new TextDecoder().decode(body), await firstScreen()));
    if (page && pageLoading) setTimeout(pageLoading, 0);
    return new Response(request.method === 'HEAD' ? null : (body as BodyInit), { status: 200, headers: securityHeaders(contentTypeFor(file)) });
  };
}

/** Declares app:// as a standard, secure scheme; must run before the app is ready. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    // standard: real origin and relative URLs; secure: counts as a secure context like https.
    // No bypassCSP, and no corsEnabled (which would let other origins read app:// responses):
    // the UI's own module scripts are same-origin and need neither. codeCache: V8 keeps the
    // compiled bundle (about 0.5 MB, minified) between starts, as it does for https pages; without it every start
    // compiles it again (Electron enables it for custom schemes only when asked, with standard).
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** Serves `root` on app:// through the session's protocol; `pageLoading` and `firstScreen` as in createAppProtocolHandler. */
export function serveApp(protocol: Pick<Protocol, 'handle'>, root: string, pageLoading?: () => void, firstScreen?: () => Promise<FirstScreen | null>): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler(root, undefined, pageLoading, firstScreen));
}
