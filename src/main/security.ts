/**
 * The Electron security checklist as data and pure decisions, so each rule has a test under plain
 * Node; `hardenSession` and `guardWebContents` only attach these decisions to Electron objects.
 * Only `import type` from electron here: tests load this file without the Electron binary.
 */
import type { Session, WebContents } from 'electron';
import { uiContentSecurityPolicy } from './core/ui';

/** The UI's scheme and host: app://packdesk/index.html. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'packdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** The Content-Security-Policy for every UI response: scripts only from the app, item pictures from https. */
export function cspHeader(): string {
  return uiContentSecurityPolicy();
}

/**
 * The origins the UI may be served from: the app:// origin always, and the electron-vite dev
 * server only in an unpackaged run (`npm run dev`), never in a packaged build.
 */
export function trustedOrigins(devServerUrl: string | undefined, isPackaged: boolean): readonly string[] {
  const origins = [APP_ORIGIN];
  if (!isPackaged && devServerUrl) {
    try {
      const u = new URL(devServerUrl);
      if (u.protocol === 'http:' && (u.hostname === 'localhost' || u.hostname === '127.0.0.1')) origins.push(u.origin);
    } catch {
      // An unreadable dev URL is simply not trusted.
    }
  }
  return origins;
}

/** The origin of a URL, for origin comparison; null for anything unparseable or opaque. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    // Node's URL reports non-special schemes as origin "null"; rebuild it from the parts instead.
    if (u.protocol === `${APP_SCHEME}:`) return u.host ? `${APP_SCHEME}://${u.host}` : null;
    return u.origin === 'null' ? null : u.origin;
  } catch {
    return null;
  }
}

/** Whether a URL belongs to one of the trusted UI origins. */
export function isTrustedUrl(url: string, origins: readonly string[] = [APP_ORIGIN]): boolean {
  const origin = originOf(url);
  return origin !== null && origins.includes(origin);
}

/** What the IPC layer knows about the frame that sent a message. */
export interface SenderFacts {
  /** The sending frame's URL, or null when the frame is gone. */
  readonly url: string | null;
  /** The frame is its page's top frame (not an iframe). */
  readonly isMainFrame: boolean;
  /** The frame belongs to the app's one window. */
  readonly isMainWindow: boolean;
}

/** Whether an IPC message may be acted on: only the main window's top frame, on a trusted origin. */
export function isAllowedSender(sender: SenderFacts, origins: readonly string[] = [APP_ORIGIN]): boolean {
  return sender.isMainWindow && sender.isMainFrame && sender.url !== null && isTrustedUrl(sender.url, origins);
}

/**
 * Whether the window may navigate to a URL. The UI is a single page served from its own origin,
 * so only URLs there (a reload) are allowed; links out, redirects and dropped files are refused.
 */
export function isAllowedNavigation(url: string, origins: readonly string[] = [APP_ORIGIN]): boolean {
  return isTrustedUrl(url, origins);
}

/** Every permission request and check is refused: the UI needs none (no camera, notifications, ...). */
export function isPermissionGranted(_permission: string): boolean {
  return false;
}

/** Attaches the deny-all permission handlers to a session. */
export function hardenSession(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(isPermissionGranted(permission)));
  session.setPermissionCheckHandler((_contents, permission) => isPermissionGranted(permission));
  session.setDevicePermissionHandler(() => false);
}

type Guardable = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * Blocks navigation away from the app, redirects, new windows and webview attachment for one
 * web contents; `onBlocked` hears about each refusal (for the log).
 */
export function guardWebContents(contents: Guardable, origins: readonly string[], onBlocked: (what: string, url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, origins)) {
      event.preventDefault();
      onBlocked('navigation', url);
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url, origins)) {
      event.preventDefault();
      onBlocked('redirect', url);
    }
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    onBlocked('webview', '');
  });
  contents.setWindowOpenHandler(({ url }) => {
    onBlocked('new window', url);
    return { action: 'deny' };
  });
}
