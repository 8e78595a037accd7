import { describe, expect, it, vi } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';
import { createMainWindow, entryUrl, focusWindow, setKiosk } from '../../src/main/window';
import { applyAutoLaunch, autostartEntry, autostartFile, desktopExecQuote } from '../../src/main/autolaunch';
import { createOnlineSignal } from '../../src/main/online';

describe('createMainWindow', () => {
  class FakeBrowserWindow {
    constructor(readonly options: BrowserWindowConstructorOptions) {}
  }
  const create = (kiosk: boolean, devTools: boolean) => createMainWindow(FakeBrowserWindow, { preloadPath: '/app/out/preload/index.js', kiosk, devTools }).options;

  it('sets every security checklist item explicitly', () => {
    const prefs = create(true, false).webPreferences;
    expect(prefs).toEqual({
      preload: '/app/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: false,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('enableRemoteModule');
  });

  it('takes kiosk and devtools from its settings', () => {
    expect(create(true, false)).toMatchObject({ kiosk: true, fullscreen: true, show: false });
    expect(create(false, true)).toMatchObject({ kiosk: false, fullscreen: false, webPreferences: { devTools: true } });
  });

  it('loads app:// in packaged builds, whatever the environment says', () => {
    expect(entryUrl('http://localhost:5173', true)).toBe('app://packdesk/index.html');
    expect(entryUrl(undefined, false)).toBe('app://packdesk/index.html');
    expect(entryUrl('http://localhost:5173', false)).toBe('http://localhost:5173');
  });
});

describe('window control', () => {
  const fakeWindow = (destroyed = false, minimized = false) => ({
    isDestroyed: () => destroyed,
    isMinimized: () => minimized,
    setKiosk: vi.fn(),
    setFullScreen: vi.fn(),
    restore: vi.fn(),
    show: vi.fn(),
    focus: vi.fn(),
  });

  it('leaves kiosk and full screen together', () => {
    const win = fakeWindow();
    setKiosk(win, false);
    expect(win.setKiosk).toHaveBeenCalledWith(false);
    expect(win.setFullScreen).toHaveBeenCalledWith(false);
    setKiosk(win, true);
    expect(win.setKiosk).toHaveBeenLastCalledWith(true);
  });

  it('restores and focuses on a second launch; ignores a destroyed window', () => {
    const win = fakeWindow(false, true);
    focusWindow(win);
    expect(win.restore).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
    const gone = fakeWindow(true);
    focusWindow(gone);
    setKiosk(gone, false);
    expect(gone.focus).not.toHaveBeenCalled();
    expect(gone.setKiosk).not.toHaveBeenCalled();
  });
});

describe('auto-launch', () => {
  const linux = { platform: 'linux' as const, execPath: '/opt/Packdesk/packdesk', home: '/home/till' };

  it('writes an XDG autostart entry on Linux and removes it when switched off', () => {
    const io = { setLoginItemSettings: vi.fn(), writeFile: vi.fn(), removeFile: vi.fn() };
    applyAutoLaunch(true, linux, io);
    expect(io.writeFile).toHaveBeenCalledWith('/home/till/.config/autostart/packdesk.desktop', expect.stringContaining('Exec=/opt/Packdesk/packdesk\n'));
    applyAutoLaunch(false, linux, io);
    expect(io.removeFile).toHaveBeenCalledWith('/home/till/.config/autostart/packdesk.desktop');
    expect(io.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('points an AppImage entry at the AppImage, not its temporary mount', () => {
    const entry = autostartEntry({ ...linux, execPath: '/tmp/.mount_PackdeXYZ/packdesk', appImage: '/home/till/Apps/Packdesk 1.2.AppImage' });
    expect(entry).toContain('Exec="/home/till/Apps/Packdesk 1.2.AppImage"');
    expect(autostartFile({ ...linux, xdgConfigHome: '/cfg' })).toBe('/cfg/autostart/packdesk.desktop');
  });

  it('quotes Exec arguments as the Desktop Entry spec asks', () => {
    expect(desktopExecQuote('/opt/p')).toBe('/opt/p');
    expect(desktopExecQuote('/opt/my app')).toBe('"/opt/my app"');
    expect(desktopExecQuote('/opt/a"b$c')).toBe('"/opt/a\\\\"b\\\\$c"');
    expect(desktopExecQuote('/opt/100%')).toBe('/opt/100%%');
  });

  it('uses the login item API on Windows', () => {
    const io = { setLoginItemSettings: vi.fn(), writeFile: vi.fn(), removeFile: vi.fn() };
    applyAutoLaunch(true, { ...linux, platform: 'win32' }, io);
    expect(io.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
    expect(io.writeFile).not.toHaveBeenCalled();
  });
});

describe('createOnlineSignal', () => {
  it('reports the first value, changes only, and re-reads on wake', () => {
    let online = false;
    let tick: (() => void) | undefined;
    let wake: (() => void) | undefined;
    const signal = createOnlineSignal({
      isOnline: () => online,
      setInterval: (fn) => ((tick = fn), 1),
      clearInterval: vi.fn(),
      onWake: (cb) => ((wake = cb), () => (wake = undefined)),
    });
    expect(signal.current()).toBe(false);
    const seen: boolean[] = [];
    signal.subscribe((v) => seen.push(v));
    tick!();
    online = true;
    tick!();
    tick!();
    online = false;
    wake!();
    expect(seen).toEqual([true, false]);
    signal.stop();
    expect(wake).toBeUndefined();
  });

  it('keeps the last value when the check throws', () => {
    let fail = false;
    let tick: (() => void) | undefined;
    const signal = createOnlineSignal({
      isOnline: () => {
        if (fail) throw new Error('gone');
        return true;
      },
      setInterval: (fn) => ((tick = fn), 1),
      clearInterval: () => undefined,
    });
    fail = true;
    tick!();
    expect(signal.current()).toBe(true);
  });
});
