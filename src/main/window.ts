/**
 * The one Packdesk window. Creation takes the BrowserWindow class as a parameter so tests can
 * capture the exact options under Node; the options are written as one literal at the `new
 * BrowserWindow(...)` call on purpose, so Electronegativity (which reads the built bundle) sees
 * every webPreferences value where the window is made.
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { APP_ENTRY_URL } from './security';

export interface WindowSettings {
  readonly preloadPath: string;
  readonly kiosk: boolean;
  /** Developer tools: only in unpackaged runs. */
  readonly devTools: boolean;
}

/** The BrowserWindow class, or a stand-in with the same constructor in tests. */
export type BrowserWindowClass<W> = new (options: BrowserWindowConstructorOptions) => W;

/** Creates the window: kiosk from settings, every security checklist item set explicitly. */
export function createMainWindow<W>(BrowserWindow: BrowserWindowClass<W>, settings: WindowSettings): W {
  return new BrowserWindow({
    title: 'Packdesk',
    width: 1280,
    height: 800,
    minWidth: 800,
    minHeight: 600,
    // Shown once the first paint is ready, so the packer never sees a white flash.
    show: false,
    backgroundColor: '#101418',
    autoHideMenuBar: true,
    kiosk: settings.kiosk,
    fullscreen: settings.kiosk,
    webPreferences: {
      preload: settings.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      // Middle-click opens links in new windows; those are denied anyway, this removes the path.
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: settings.devTools,
    },
  });
}

/** Where the window loads the UI from: the app:// origin, or the dev server in `npm run dev`. */
export function entryUrl(devServerUrl: string | undefined, isPackaged: boolean): string {
  return !isPackaged && devServerUrl ? devServerUrl : APP_ENTRY_URL;
}

/** Puts the window in or out of kiosk mode (the setting, or the manager leaving it with the PIN). */
export function setKiosk(win: Pick<BrowserWindow, 'isDestroyed' | 'setKiosk' | 'setFullScreen'>, on: boolean): void {
  if (win.isDestroyed()) return;
  win.setKiosk(on);
  if (!on) win.setFullScreen(false);
}

/** Brings the window to the front (a second launch of Packdesk lands here). */
export function focusWindow(win: Pick<BrowserWindow, 'isDestroyed' | 'isMinimized' | 'restore' | 'show' | 'focus'>): void {
  if (win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
