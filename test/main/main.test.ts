/**
 * The main process (src/main/index.ts) composed with the real app host, in training mode, with a
 * stand-in for the Electron module (the binary cannot run here). It checks the wiring end to end:
 * what happens before ready, the hardened session, app://, the window, every IPC channel with its
 * sender check in front of the real host, events to the window, kiosk, and a clean quit.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS, type CommandName, EVENT_NAMES } from '../../src/shared/ipc';
import { VALID_PAYLOADS, malformedPayloads } from '../support/payloads';
import { until } from '../support/until';

type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  const calls: string[] = [];
  const appHandlers = new Map<string, Listener[]>();
  const ipcHandlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
  const windows: FakeWindow[] = [];
  let ready!: () => void;
  const whenReady = new Promise<void>((r) => (ready = r));

  class FakeWindow {
    readonly options: Record<string, unknown>;
    readonly sent: [string, unknown][] = [];
    readonly printed: Record<string, unknown>[] = [];
    readonly webContents = {
      id: 41,
      isDestroyed: () => false,
      send: (channel: string, body: unknown) => this.sent.push([channel, body]),
      print: (options: Record<string, unknown>, callback: (success: boolean, reason: string) => void) => {
        this.printed.push(options);
        callback(true, '');
      },
      getPrintersAsync: async () => [{ name: 'EPSON_TM_T82', displayName: 'EPSON TM-T82', description: 'Receipt printer', options: {} }],
    };
    readonly loaded: string[] = [];
    kiosk: boolean;
    constructor(options: Record<string, unknown>) {
      this.options = options;
      this.kiosk = options['kiosk'] === true;
      windows.push(this);
    }
    // Another program (billing software) is in front: new orders flash the taskbar.
    focused = false;
    readonly flashes: boolean[] = [];
    isFocused() {
      return this.focused;
    }
    flashFrame(flag: boolean) {
      this.flashes.push(flag);
    }
    once() {}
    on() {}
    show() {}
    focus() {}
    restore() {}
    isMinimized() {
      return false;
    }
    isDestroyed() {
      return false;
    }
    setKiosk(on: boolean) {
      this.kiosk = on;
    }
    setFullScreen() {}
    async loadURL(url: string) {
      this.loaded.push(url);
    }
  }

  const notes: { title: string; body: string }[] = [];
  class FakeNotification {
    constructor(readonly options: { title: string; body: string }) {}
    static isSupported() {
      return true;
    }
    on() {}
    show() {
      notes.push(this.options);
    }
  }

  const state = { dataDir: '' };
  // An old PC whose graphics Chromium will not use: raster on the CPU.
  const gpu = { gpu_compositing: 'enabled', rasterization: 'disabled_software', webgl: 'enabled' };
  const electron = {
    app: {
      isPackaged: true,
      requestSingleInstanceLock: () => (calls.push('requestSingleInstanceLock'), true),
      enableSandbox: () => calls.push('enableSandbox'),
      commandLine: { appendSwitch: (name: string, value?: string) => calls.push(`appendSwitch ${name} ${value ?? ''}`) },
      getPath: (name: string) => (name === 'userData' ? state.dataDir : '/nonexistent'),
      getVersion: () => '1.4.0',
      whenReady: () => whenReady,
      on: (event: string, cb: Listener) => appHandlers.set(event, [...(appHandlers.get(event) ?? []), cb]),
      quit: () => calls.push('quit'),
      exit: (code: number) => calls.push(`exit ${code}`),
      setAppUserModelId: () => undefined,
      setLoginItemSettings: () => calls.push('setLoginItemSettings'),
      getGPUFeatureStatus: () => ({ ...gpu }),
    },
    protocol: {
      registerSchemesAsPrivileged: () => calls.push('registerSchemesAsPrivileged'),
      handle: (scheme: string) => calls.push(`protocol.handle ${scheme}`),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => calls.push('setPermissionRequestHandler'),
        setPermissionCheckHandler: () => calls.push('setPermissionCheckHandler'),
        setDevicePermissionHandler: () => calls.push('setDevicePermissionHandler'),
      },
    },
    ipcMain: {
      handle: (channel: string, h: (event: unknown, ...args: unknown[]) => Promise<unknown>) => ipcHandlers.set(channel, h),
      removeHandler: (channel: string) => ipcHandlers.delete(channel),
    },
    net: { isOnline: () => true },
    powerMonitor: { on: () => undefined, off: () => undefined },
    Menu: { setApplicationMenu: () => calls.push('setApplicationMenu') },
    dialog: { showErrorBox: (title: string) => calls.push(`showErrorBox ${title}`) },
    BrowserWindow: FakeWindow,
    Notification: FakeNotification,
  };

  class InactiveUpdater {
    autoDownload = false;
    autoInstallOnAppQuit = true;
    allowDowngrade = false;
    allowPrerelease = false;
    channel: string | null = null;
    logger = null;
    isUserWithinRollout() {
      return true;
    }
    // Unpackaged or no app-update.yml: electron-updater reports itself inactive.
    isUpdaterActive() {
      return false;
    }
    async checkForUpdates() {
      return null;
    }
    quitAndInstall() {}
    on() {}
  }

  return { calls, appHandlers, ipcHandlers, windows, notes, electron, state, gpu, ready: () => ready(), updater: new InactiveUpdater() };
});

vi.mock('electron', () => ({ ...fake.electron, default: fake.electron }));
vi.mock('electron-updater', () => ({ autoUpdater: fake.updater }));

const root = mkdtempSync(path.join(tmpdir(), 'packdesk-main-'));
fake.state.dataDir = path.join(root, 'userData');
const savedEnv = { XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'] };

/** What ipcMain hands a handler for a message from the app window's top frame. */
const appEvent = { sender: { id: 41 }, senderFrame: { url: 'app://packdesk/index.html', parent: null } };
const invoke = (command: CommandName, payload: unknown, event: unknown = appEvent) => fake.ipcHandlers.get(`packdesk:${command}`)!(event, payload);

beforeAll(async () => {
  process.env['XDG_CONFIG_HOME'] = path.join(root, 'config');
  await import('../../src/main/index');
  // Before ready: the scheme is privileged, the sandbox forced and the renderers given the page's
  // gc (renderer memory/rest.ts), nothing else yet.
  expect(fake.calls).toEqual(['registerSchemesAsPrivileged', 'enableSandbox', 'appendSwitch js-flags --expose-gc', 'requestSingleInstanceLock']);
  fake.ready();
  await until('the window', () => fake.windows.length === 1 && fake.windows[0]!.loaded.length === 1, 20_000);
});

afterAll(async () => {
  // Quit: the before-quit handler stops the host (sandbox, engine) and then quits for real.
  const beforeQuit = fake.appHandlers.get('before-quit') ?? [];
  const event = { preventDefault: vi.fn() };
  for (const h of beforeQuit) h(event);
  await until('quit', () => fake.calls.includes('quit'), 20_000);
  expect(event.preventDefault).toHaveBeenCalled();
  process.env['XDG_CONFIG_HOME'] = savedEnv.XDG_CONFIG_HOME;
  if (savedEnv.XDG_CONFIG_HOME === undefined) delete process.env['XDG_CONFIG_HOME'];
  rmSync(root, { recursive: true, force: true });
});

describe('the main process', () => {
  it('hardens the session, serves app://, hides the menu and loads the UI from app://', () => {
    for (const call of ['setPermissionRequestHandler', 'setPermissionCheckHandler', 'setDevicePermissionHandler', 'protocol.handle app', 'setApplicationMenu'])
      expect(fake.calls).toContain(call);
    expect(fake.windows[0]!.loaded).toEqual(['app://packdesk/index.html']);
    expect(fake.windows[0]!.options['webPreferences']).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, devTools: false });
    expect(fake.windows[0]!.options['webPreferences']).toMatchObject({ preload: expect.stringMatching(/preload[\\/]index\.js$/) });
    for (const event of ['second-instance', 'web-contents-created', 'window-all-closed', 'before-quit']) expect(fake.appHandlers.has(event), event).toBe(true);
  });

  it('says in the shell log what draws the window (raster on the graphics or on the CPU) once the GPU process has reported, and again when it changes', () => {
    const lines = () => readFileSync(path.join(fake.state.dataDir, 'logs', 'shell.log'), 'utf8').split('\n').filter((l) => l.includes('graphics'));
    const reported = () => (fake.appHandlers.get('gpu-info-update') ?? []).forEach((h) => h());
    expect(lines()).toHaveLength(0);
    reported();
    reported();
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toContain('disabled_software');
    expect(lines()[0]).toMatch(/compositing.{0,4}enabled/);
    // After a GPU crash Chromium falls back, and says so again.
    fake.gpu.rasterization = 'unavailable_software';
    fake.gpu.gpu_compositing = 'disabled_software';
    reported();
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toMatch(/compositing.{0,4}disabled_software/);
  });

  it('answers the app window through the real host: training mode, seeded orders, updates off', async () => {
    const info = (await invoke('app.info', {})) as { ok: boolean; value: { shell: string; environment: string; version: string } };
    expect(info).toMatchObject({ ok: true, value: { shell: 'electron', environment: 'training', version: '1.4.0' } });
    // Training's orders come in by themselves once the engine runs (intake's first pass).
    let orders = { ok: false, value: [] as unknown[] };
    const end = Date.now() + 20_000;
    while (orders.value.length === 0 && Date.now() < end) {
      orders = (await invoke('orders.list', {})) as { ok: boolean; value: unknown[] };
      if (orders.value.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(orders.ok).toBe(true);
    expect(orders.value.length).toBeGreaterThan(0);
    expect(await invoke('updates.status', {})).toMatchObject({ ok: true, value: { state: 'disabled', currentVersion: '1.4.0' } });
  });

  it('registers exactly the contract and refuses every command from a foreign sender', async () => {
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(Object.keys(COMMANDS).map((c) => `packdesk:${c}`).sort());
    const foreign = [
      { sender: { id: 99 }, senderFrame: { url: 'app://packdesk/index.html', parent: null } },
      { sender: { id: 41 }, senderFrame: { url: 'app://packdesk/index.html', parent: { url: 'app://packdesk/' } } },
      { sender: { id: 41 }, senderFrame: { url: 'https://evil.example/', parent: null } },
      { sender: { id: 41 }, senderFrame: null },
    ];
    for (const command of Object.keys(COMMANDS) as CommandName[]) {
      for (const event of foreign) {
        expect(await invoke(command, VALID_PAYLOADS[command], event), command).toMatchObject({ ok: false, problem: { code: 'FOREIGN_SENDER' } });
      }
    }
    // Setting the PIN from a foreign frame did not happen.
    expect(await invoke('app.info', {})).toMatchObject({ ok: true, value: { pinSet: false } });
  });

  it('refuses malformed payloads from the app window too', async () => {
    for (const command of Object.keys(COMMANDS) as CommandName[]) {
      for (const { label, payload } of malformedPayloads(command)) {
        expect(await invoke(command, payload), `${command} with ${label}`).toMatchObject({ ok: false, problem: { kind: 'invalid' } });
      }
    }
  });

  it('pushes host events to the window on the event channels', async () => {
    await until('an event', () => fake.windows[0]!.sent.some(([channel]) => channel.startsWith('packdesk:event:')), 20_000);
    const channels = new Set(EVENT_NAMES.map((name) => `packdesk:event:${name}`));
    for (const [channel] of fake.windows[0]!.sent) expect(channels.has(channel), channel).toBe(true);
  });

  it('applies the kiosk setting to the window and lets the manager leave kiosk with the PIN', async () => {
    expect(await invoke('pin.set', { newPin: '2468' })).toMatchObject({ ok: true });
    expect(await invoke('settings.update', { pin: '2468', patch: { kiosk: true } })).toMatchObject({ ok: true, value: { kiosk: true } });
    expect(fake.windows[0]!.kiosk).toBe(true);
    expect(await invoke('kiosk.leave', { pin: '1111' })).toMatchObject({ ok: false });
    expect(fake.windows[0]!.kiosk).toBe(true);
    expect(await invoke('kiosk.leave', { pin: '2468' })).toMatchObject({ ok: true });
    expect(fake.windows[0]!.kiosk).toBe(false);
  });

  it('prints the window through webContents.print: the dialog until a printer is set, then silently to it', async () => {
    const window = fake.windows[0]!;
    expect(await invoke('printers.list', {})).toEqual({ ok: true, value: [{ name: 'EPSON_TM_T82', displayName: 'EPSON TM-T82', description: 'Receipt printer' }] });
    expect(await invoke('print.run', { document: 'packingSlip', contentHeightMm: 100 })).toEqual({ ok: true, value: { outcome: 'printed' } });
    expect(window.printed.at(-1)).toMatchObject({ silent: false, pageSize: { width: 80_000, height: 108_000 } });
    const info = (await invoke('app.info', {})) as { value: { pinSet: boolean } };
    if (!info.value.pinSet) expect(await invoke('pin.set', { newPin: '2468' })).toMatchObject({ ok: true });
    expect(await invoke('settings.update', { pin: '2468', patch: { printer: 'EPSON_TM_T82', paper: 'a4' } })).toMatchObject({ ok: true, value: { printer: 'EPSON_TM_T82', paper: 'a4' } });
    expect(await invoke('print.run', { document: 'pickList', contentHeightMm: 400 })).toEqual({ ok: true, value: { outcome: 'printed' } });
    expect(window.printed.at(-1)).toMatchObject({ silent: true, deviceName: 'EPSON_TM_T82', pageSize: 'A4' });
    // A printer name that is not text, or an unknown paper, never reaches the settings file.
    expect(await invoke('settings.update', { pin: '2468', patch: { printer: 42 } })).toMatchObject({ ok: false, problem: { kind: 'invalid' } });
    expect(await invoke('settings.update', { pin: '2468', patch: { paper: 'letter' } })).toMatchObject({ ok: false, problem: { kind: 'invalid' } });
  });

  it('flashes the taskbar and notifies the system of new orders while another program is in front', async () => {
    // The training queue's first pass brings seeded orders waiting for Accept; the window is not focused.
    await until('a notification', () => fake.notes.length > 0, 20_000);
    expect(fake.notes[0]!.title).toMatch(/new orders? (is|are) waiting/);
    expect(fake.notes[0]!.body).toMatch(/^Open Packdesk to accept or reject ORD-/);
    expect(fake.windows[0]!.flashes).toEqual([true]);
  });

  it('guards every web contents that is created', () => {
    const contents = { on: vi.fn(), setWindowOpenHandler: vi.fn() };
    for (const h of fake.appHandlers.get('web-contents-created')!) h({}, contents);
    expect(contents.on.mock.calls.map(([name]) => name)).toEqual(['will-navigate', 'will-redirect', 'will-attach-webview']);
    const open = contents.setWindowOpenHandler.mock.calls[0]![0] as (d: { url: string }) => unknown;
    expect(open({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });
});
