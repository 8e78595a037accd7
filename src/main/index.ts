/**
 * The Electron main process: thin glue around the app host (src/main/core/host). It owns what
 * only Electron can do — the single instance, the window, the app:// protocol, the security
 * handlers, ipcMain, the updater, kiosk and login items — and delegates every decision to the
 * pure, tested modules beside it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BrowserWindow, Menu, Notification, app, dialog, ipcMain, net, powerMonitor, protocol, session } from 'electron';
import { autoUpdater } from 'electron-updater';
import { startSandbox } from '../../sandbox';
import { createAppHost, type AppHost } from './core/host';
import { createLogger, createRotatingFileSink, stderrSink, type Logger } from './core/log';
import { UPDATE_STATUS_FILE, feedProblem, feedUrlOf } from './core/update';
import { applyAutoLaunch } from './autolaunch';
import { parseEvent } from '../shared/ipc';
import { createNewOrderAttention } from './attention';
import { forwardEvents, wireCommands } from './ipc';
import { createOnlineSignal } from './online';
import { createElectronFiles } from './files';
import { createElectronPrinting } from './printing';
import { registerAppScheme, serveApp } from './protocol';
import { createFirstScreenDrawer, firstScreenBuild, loadFirstScreenBuild, type FirstScreenDrawer } from './core/ui';
import { guardWebContents, hardenSession, trustedOrigins } from './security';
import { createUpdateController, updateSupport } from './updater';
import { createMainWindow, entryUrl, focusWindow, setKiosk } from './window';

// Both must happen before the app is ready: app:// gets its privileges only at registration, and
// the sandbox is forced on for every renderer, whatever a window's options say.
registerAppScheme(protocol);
app.enableSandbox();
// The page's `gc`, for its one collection after a busy spell once quiet (renderer memory/rest.ts):
// what a busy hour left in the renderer stayed there, 40-80 MB on an old counter PC. Renderers
// only: the main process's own is exposed by the host (core/host/heap-trim.ts).
app.commandLine.appendSwitch('js-flags', '--expose-gc');

const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const origins = trustedOrigins(devServerUrl, app.isPackaged);
const rendererRoot = path.join(__dirname, '../renderer');
const preloadPath = path.join(__dirname, '../preload/index.js');

if (!app.requestSingleInstanceLock()) {
  // Another Packdesk owns the outbox; it is brought to the front by its 'second-instance' handler.
  app.quit();
} else {
  void main();
}

async function main(): Promise<void> {
  const dataDir = app.getPath('userData');
  // The shell's own lines (blocked navigation, foreign IPC, updates) go to logs/shell.log beside
  // the host's packdesk.log; in `npm run dev` to the terminal too.
  const shellFile = createRotatingFileSink({ dir: path.join(dataDir, 'logs'), name: 'shell' });
  const shellLog = createLogger(app.isPackaged ? [shellFile] : [shellFile, stderrSink], { scope: 'shell' });
  process.on('unhandledRejection', (reason) => shellLog.error('unhandled rejection', { error: reason instanceof Error ? reason : String(reason) }));

  let window: BrowserWindow | null = null;
  let host: AppHost | null = null;
  let stopped = false;

  app.on('second-instance', () => {
    if (window) focusWindow(window);
  });
  // Every web contents ever created gets the navigation, redirect, window and webview guards.
  app.on('web-contents-created', (_event, contents) => {
    guardWebContents(contents, origins, (what, url) => shellLog.warn(`blocked ${what}`, { url: url.slice(0, 200) }));
  });
  app.on('window-all-closed', () => app.quit());
  // The drawing of the queue's first screen (core/ui/firstScreen) is loaded while Electron gets ready, not on the page's path.
  setImmediate(() => loadFirstScreenBuild(firstScreenBuild(rendererRoot)));

  // What draws the window: where Chromium will not use a PC's graphics, tiles are rasterized on
  // the CPU, a large part of the first screen's time on a one-core counter PC (docs/ui.md). Known
  // only once the GPU process has reported, which can happen more than once (after a GPU crash
  // Chromium falls back): said each time it changes. Read by build/README.md's checklist.
  let graphicsSaid = '';
  app.on('gpu-info-update', () => {
    const gpu = app.getGPUFeatureStatus();
    const said = { rasterization: gpu.rasterization, compositing: gpu.gpu_compositing };
    const key = JSON.stringify(said);
    if (key === graphicsSaid) return;
    graphicsSaid = key;
    shellLog.info('graphics', said);
  });

  await app.whenReady();
  if (process.platform === 'win32') app.setAppUserModelId('com.packdesk.terminal');
  // No application menu in a packaged build: nothing to reach devtools or reload from.
  if (app.isPackaged) Menu.setApplicationMenu(null);
  hardenSession(session.defaultSession);
  // Once the page has its document, the host lists the queue while the page compiles its script
  // (unless a listing still holds), so its first ask for the queue is answered from it.
  // The page's HTML carries the queue's first screen drawn by the host (core/ui/firstScreen), so
  // the packer sees the queue before the app's script has run; none until the host has started.
  let firstScreen: FirstScreenDrawer | null = null;
  serveApp(protocol, rendererRoot, () => host?.prepareQueue(), () => firstScreen?.draw() ?? Promise.resolve(null));

  // The very file electron-updater reads in a packaged build: a feed from another machine over
  // http is never used; http on 127.0.0.1 only in training (the controller checks at every read).
  const unsupported = updateSupport({ platform: process.platform, isPackaged: app.isPackaged, appImage: process.env['APPIMAGE'] });
  const appUpdateYml = unsupported === null ? readTextOrNull(path.join(process.resourcesPath, 'app-update.yml')) : null;
  const updates = createUpdateController({
    updater: autoUpdater,
    currentVersion: app.getVersion(),
    log: shellLog,
    disabledReason: unsupported ?? feedProblem(appUpdateYml, { localHttp: true }),
    feedUrl: feedUrlOf(appUpdateYml),
    pendingInstallFile: path.join(dataDir, 'update-pending.json'),
    // `packdesk doctor` reads it: what the manager sees in settings.
    statusFile: path.join(dataDir, UPDATE_STATUS_FILE),
    beforeInstall: async () => {
      stopped = true;
      await host?.stop();
    },
    afterFailedInstall: async () => {
      stopped = false;
      await host?.start();
    },
  });
  const online = createOnlineSignal({
    isOnline: () => net.isOnline(),
    onWake: (cb) => {
      powerMonitor.on('resume', cb);
      powerMonitor.on('unlock-screen', cb);
      return () => {
        powerMonitor.off('resume', cb);
        powerMonitor.off('unlock-screen', cb);
      };
    },
  });

  try {
    host = await createAppHost({
      shell: 'electron',
      dataDir,
      version: app.getVersion(),
      // The default vaults: training's built-in credentials in memory, the OS keychain (keytar)
      // for staging and production, never a file.
      // Training mode's order service runs inside the app, on 127.0.0.1.
      startTraining: (log) => startSandbox({ log }),
      // The installer puts its own nats-server (for a store hub) beside the app, outside the asar.
      ...(app.isPackaged ? { resourcesPath: process.resourcesPath } : {}),
      online,
      updates,
      kiosk: { leave: () => window && setKiosk(window, false) },
      // The window's page is what prints: the renderer lays the slip or pick list out for print first.
      printing: createElectronPrinting(() => (window && !window.isDestroyed() ? window.webContents : null)),
      // The shift's CSV goes where the manager chooses, through the system's save dialog over the window.
      files: createElectronFiles({
        dialog: { showSaveDialog: (o) => (window && !window.isDestroyed() ? dialog.showSaveDialog(window, o) : dialog.showSaveDialog(o)) },
        documents: () => app.getPath('documents'),
      }),
      ...(app.isPackaged ? {} : { log: createLogger([stderrSink]) }),
    });
    await host.start();
  } catch (err) {
    shellLog.error('Packdesk could not start', { error: err instanceof Error ? err : String(err) });
    dialog.showErrorBox('Packdesk could not start', 'The terminal could not open its data folder or start its engine. Restart the computer; if this keeps happening, call support.');
    app.exit(1);
    return;
  }
  const started = host;

  const applyShellSettings = (): void => {
    const settings = started.settings();
    if (window) setKiosk(window, settings.kiosk);
    applyLoginItem(settings.autoLaunch, shellLog);
  };
  applyLoginItem(started.settings().autoLaunch, shellLog);

  wireCommands({
    ipcMain,
    host: started,
    mainContentsId: () => (window && !window.isDestroyed() ? window.webContents.id : null),
    origins,
    log: shellLog,
    afterCommand: (command, reply) => {
      if (command === 'settings.update' && reply.ok) applyShellSettings();
    },
  });
  forwardEvents(started, () => (window && !window.isDestroyed() ? window.webContents : null));
  // A new order while another program is in front: the taskbar flashes and the system notifies.
  const attention = createNewOrderAttention({
    window: () => window,
    notify: Notification.isSupported()
      ? (title, body, onClick) => {
          const note = new Notification({ title, body });
          note.on('click', onClick);
          note.show();
        }
      : null,
    language: () => started.settings().language,
  });
  started.subscribe((event, body) => {
    if (event !== 'orders.changed') return;
    const changed = parseEvent('orders.changed', body);
    if (changed) attention.ordersChanged(changed.orders);
  });

  firstScreen = createFirstScreenDrawer(firstScreenBuild(rendererRoot), (command, payload) => started.handle(command, payload), shellLog);
  window = createMainWindow(BrowserWindow, { preloadPath, kiosk: started.settings().kiosk, devTools: !app.isPackaged });
  // Drawn once while the window's renderer process starts (the first drawing runs colder), so the page's request finds it quick.
  setImmediate(() => void firstScreen?.warm());
  window.once('ready-to-show', () => window?.show());
  window.on('closed', () => {
    window = null;
  });
  window.loadURL(entryUrl(devServerUrl, app.isPackaged)).catch((err: unknown) => shellLog.error('the UI could not be loaded', { error: err instanceof Error ? err : String(err) }));

  updates.start(() => {
    const settings = started.settings();
    const engine = started.engine();
    return {
      terminalId: started.info().terminalId,
      channel: settings.updateChannel,
      quietHour: settings.quietHour,
      sendingCount: engine?.sendingCount() ?? 0,
      waitingCount: engine?.status().waiting ?? 0,
      lastTapAt: engine?.lastTapAt() ?? null,
      environment: settings.environment,
    };
  });

  // Quit waits for the engine to stop, so an in-flight send finishes and SQLite closes cleanly.
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    updates.stop();
    online.stop();
    void started
      .stop()
      .catch((err: unknown) => shellLog.error('stopping the host failed', { error: err instanceof Error ? err : String(err) }))
      .finally(() => app.quit());
  });
}

/** Applies the auto-launch setting; a failure is logged, never fatal. */
function applyLoginItem(enabled: boolean, log: Logger): void {
  try {
    applyAutoLaunch(
      enabled,
      { platform: process.platform, execPath: process.execPath, appImage: process.env['APPIMAGE'], xdgConfigHome: process.env['XDG_CONFIG_HOME'], home: os.homedir() },
      {
        setLoginItemSettings: (s) => app.setLoginItemSettings(s),
        writeFile: (file, text) => {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, text, { mode: 0o644 });
        },
        removeFile: (file) => rmSync(file, { force: true }),
      },
    );
  } catch (err) {
    log.warn('auto-launch could not be applied', { enabled, error: err instanceof Error ? err : String(err) });
  }
}

/** A file's text, or null when it cannot be read. */
function readTextOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
