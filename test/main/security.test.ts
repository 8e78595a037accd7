import { describe, expect, it, vi } from 'vitest';
import {
  APP_ORIGIN,
  cspHeader,
  guardWebContents,
  hardenSession,
  isAllowedNavigation,
  isAllowedSender,
  isTrustedUrl,
  originOf,
  trustedOrigins,
} from '../../src/main/security';

describe('cspHeader', () => {
  const directives = new Map(cspHeader().split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
  it('allows scripts and styles only from the app, images also from https', () => {
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('style-src')).toBe("'self'");
    expect(directives.get('img-src')).toBe("'self' https: data:");
    expect(directives.get('connect-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
  });
  it('never allows inline or eval', () => {
    expect(cspHeader()).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });
});

describe('origins', () => {
  it('reads the app origin from app:// URLs', () => {
    expect(originOf('app://packdesk/index.html')).toBe(APP_ORIGIN);
    expect(originOf('app://evil/index.html')).toBe('app://evil');
    expect(originOf('file:///etc/passwd')).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });

  it('trusts the dev server only when unpackaged and local', () => {
    expect(trustedOrigins('http://localhost:5173', false)).toEqual([APP_ORIGIN, 'http://localhost:5173']);
    expect(trustedOrigins('http://localhost:5173', true)).toEqual([APP_ORIGIN]);
    expect(trustedOrigins('http://example.com:5173', false)).toEqual([APP_ORIGIN]);
    expect(trustedOrigins('https://localhost:5173', false)).toEqual([APP_ORIGIN]);
    expect(trustedOrigins('::', false)).toEqual([APP_ORIGIN]);
    expect(trustedOrigins(undefined, false)).toEqual([APP_ORIGIN]);
  });

  it('compares whole origins, not prefixes', () => {
    expect(isTrustedUrl('app://packdesk.evil.com/index.html')).toBe(false);
    expect(isTrustedUrl('app://packdesk@evil/index.html')).toBe(false);
    expect(isTrustedUrl('https://packdesk/index.html')).toBe(false);
    expect(isTrustedUrl('app://packdesk/deep/page?x=1#y')).toBe(true);
  });
});

describe('isAllowedSender', () => {
  const good = { url: 'app://packdesk/index.html', isMainFrame: true, isMainWindow: true };
  it('accepts the main window top frame on the app origin', () => {
    expect(isAllowedSender(good)).toBe(true);
  });
  it.each([
    ['an iframe', { ...good, isMainFrame: false }],
    ['another window', { ...good, isMainWindow: false }],
    ['a frame that is gone', { ...good, url: null }],
    ['a file:// page', { ...good, url: 'file:///tmp/index.html' }],
    ['a web page', { ...good, url: 'https://evil.example/' }],
    ['another app:// host', { ...good, url: 'app://other/index.html' }],
    ['about:blank', { ...good, url: 'about:blank' }],
    ['the dev server when not trusted', { ...good, url: 'http://localhost:5173/' }],
  ])('refuses %s', (_what, sender) => {
    expect(isAllowedSender(sender)).toBe(false);
  });
  it('accepts the dev server only when it is a trusted origin', () => {
    expect(isAllowedSender({ ...good, url: 'http://localhost:5173/' }, trustedOrigins('http://localhost:5173', false))).toBe(true);
  });
});

describe('isAllowedNavigation', () => {
  it('allows only the app itself', () => {
    expect(isAllowedNavigation('app://packdesk/index.html')).toBe(true);
    for (const url of ['https://example.com', 'http://127.0.0.1:8080/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'app://other/']) {
      expect(isAllowedNavigation(url), url).toBe(false);
    }
  });
});

describe('hardenSession', () => {
  it('denies every permission request and check', () => {
    let request: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
    let check: ((c: unknown, p: string) => boolean) | undefined;
    let device: (() => boolean) | undefined;
    const session = {
      setPermissionRequestHandler: (h: typeof request) => (request = h),
      setPermissionCheckHandler: (h: typeof check) => (check = h),
      setDevicePermissionHandler: (h: typeof device) => (device = h),
    };
    hardenSession(session as never);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'clipboard-read', 'unknown']) {
      const cb = vi.fn();
      request!(null, permission, cb);
      expect(cb).toHaveBeenCalledWith(false);
      expect(check!(null, permission)).toBe(false);
    }
    expect(device!()).toBe(false);
  });
});

describe('guardWebContents', () => {
  function fakeContents() {
    const handlers = new Map<string, (event: { preventDefault: () => void }, url: string) => void>();
    let openHandler: ((d: { url: string }) => { action: string }) | undefined;
    return {
      on: (name: string, h: (event: { preventDefault: () => void }, url: string) => void) => handlers.set(name, h),
      setWindowOpenHandler: (h: typeof openHandler) => (openHandler = h),
      fire(name: string, url: string) {
        const event = { preventDefault: vi.fn() };
        handlers.get(name)!(event, url);
        return event.preventDefault.mock.calls.length > 0;
      },
      open: (url: string) => openHandler!({ url }),
    };
  }

  it('blocks navigation and redirects away from the app, allows a reload', () => {
    const contents = fakeContents();
    const blocked = vi.fn();
    guardWebContents(contents as never, [APP_ORIGIN], blocked);
    expect(contents.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-navigate', 'app://packdesk/index.html')).toBe(false);
    expect(contents.fire('will-attach-webview', '')).toBe(true);
    expect(blocked).toHaveBeenCalledWith('navigation', 'https://evil.example/');
    expect(blocked).toHaveBeenCalledWith('webview', '');
  });

  it('denies every new window, even to the app itself', () => {
    const contents = fakeContents();
    guardWebContents(contents as never, [APP_ORIGIN], () => undefined);
    expect(contents.open('https://example.com')).toEqual({ action: 'deny' });
    expect(contents.open('app://packdesk/index.html')).toEqual({ action: 'deny' });
  });
});
