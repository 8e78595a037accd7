/**
 * The one Packdesk window. Its options are a pure function (tested); creating it, loading the
 * UI and guarding its web contents are the thin Electron part.
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { APP_ENTRY_URL, secureWebPreferences } from './security';

export interface WindowSettings {
  readonly preloadPath: string;
  readonly kiosk: boolean;
  /** Developer tools: only in unpackaged runs. */
  readonly devTools: boolean;
  readonly iconPath?: string;
}

/** The BrowserWindow options: kiosk (full screen, no way out without the PIN) from settings. */
export function mainWindowOptions(settings: WindowSettings): BrowserWindowConstructorOptions {
  return {
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
    ...(settings.iconPath ? { icon: settings.iconPath } : {}),
    webPreferences: secureWebPreferences(settings.preloadPath, { devTools: settings.devTools }),
  };
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
