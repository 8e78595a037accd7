/**
 * One terminal's updater for the feed tests (test/main/updater-feed*.test.ts): a feed on 127.0.0.1,
 * the terminal's folders and running AppImage, electron-updater's real class with the controller
 * around it, and the status as settings and doctor read it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { MemorySink, createLogger } from '../../src/main/core/log';
import { readUpdateStatus, updateHealth } from '../../src/main/core/update';
import { createUpdateController, type UpdateContext, type UpdateControllerOptions } from '../../src/main/updater';
import type { UpdateStatus } from '../../src/shared/ipc';
import { manualTimers } from './clock';
import { type Cleanup, tempDir } from './engine';
import {
  installerBody,
  pendingDir,
  provideElectronAutoUpdaterEvent,
  realUpdater,
  startUpdateFeed,
  terminalFolders,
  type TerminalFolders,
  type UpdateFeed,
  type UpdaterKind,
} from './update-feed';

export const NOW = Date.UTC(2025, 0, 10, 12, 0);
export const APPIMAGE_NAME = (v: string) => `Packdesk-${v}-x86_64.AppImage`;
export const EXE_NAME = (v: string) => `Packdesk-Setup-${v}.exe`;
export const quitEvents = provideElectronAutoUpdaterEvent();

// Nobody tapped for long, nothing waiting: the policy installs a ready update at once.
export const idle: UpdateContext = { terminalId: 'store-1-t1', channel: 'stable', quietHour: null, sendingCount: 0, waitingCount: 0, lastTapAt: null, environment: 'production' };

export interface Setup {
  readonly root: string;
  readonly feed: UpdateFeed;
  readonly folders: TerminalFolders;
  /** The running AppImage (APPIMAGE), and the file its replacement's script writes when started. */
  readonly appImage: string;
  readonly marker: string;
}

/** A feed on 127.0.0.1 and a terminal's folders, its running AppImage 1.0.0 in `apps/`. */
export async function setup(cleanup: Cleanup): Promise<Setup> {
  const root = tempDir(cleanup, 'packdesk-update-');
  const feed = await startUpdateFeed();
  cleanup.add(() => feed.close());
  const folders = terminalFolders(path.join(root, 'terminal'), feed.url);
  const marker = path.join(root, 'started');
  const appImage = path.join(root, 'apps', APPIMAGE_NAME('1.0.0'));
  fs.mkdirSync(path.dirname(appImage), { recursive: true });
  fs.writeFileSync(appImage, installerBody('1.0.0', marker), { mode: 0o755 });
  const before = process.env['APPIMAGE'];
  process.env['APPIMAGE'] = appImage;
  cleanup.add(() => (before === undefined ? delete process.env['APPIMAGE'] : (process.env['APPIMAGE'] = before)));
  return { root, feed, folders, appImage, marker };
}

/**
 * What the started installer wrote to the marker, once it has written a whole line (the shell
 * creates the file before it writes to it) and `also` holds; '' after 2 s without.
 */
export async function markerLine(s: Setup, also: () => boolean = () => true): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const text = fs.existsSync(s.marker) ? fs.readFileSync(s.marker, 'utf8') : '';
    if (text.endsWith('\n') && also()) return text.trim();
    await new Promise((r) => setTimeout(r, 10));
  }
  return fs.existsSync(s.marker) ? fs.readFileSync(s.marker, 'utf8').trim() : '';
}

/** One start of Packdesk: electron-updater's real class for `kind` and the controller around it. */
export function terminal(
  cleanup: Cleanup,
  s: Setup,
  options: { kind?: UpdaterKind; version?: string; context?: UpdateContext; folders?: TerminalFolders; controller?: Partial<UpdateControllerOptions> } = {},
) {
  const version = options.version ?? '1.0.0';
  const { updater, app } = realUpdater(options.kind ?? 'AppImage', version, options.folders ?? s.folders);
  const sink = new MemorySink();
  const clock = manualTimers();
  // The test changes what the terminal is doing between decisions.
  const ctx: { -readonly [K in keyof UpdateContext]: UpdateContext[K] } = { ...(options.context ?? idle) };
  const controller = createUpdateController({
    updater,
    currentVersion: version,
    log: createLogger([sink], { minLevel: 'debug' }),
    now: () => NOW,
    timers: clock.timers,
    hourOf: (ms) => new Date(ms).getUTCHours(),
    statusFile: path.join(s.root, 'data', 'update-status.json'),
    pendingInstallFile: path.join(s.root, 'data', 'update-pending.json'),
    ...options.controller,
  });
  const seen: UpdateStatus[] = [];
  controller.onStatus((st) => seen.push(st));
  // Every read of the feed electron-updater makes, as its own promise: a test waits for a scheduled
  // check to have ended (its answer heard and handled) instead of sleeping.
  const checks: Promise<unknown>[] = [];
  const check = updater.checkForUpdates.bind(updater);
  updater.checkForUpdates = () => {
    const reading = check();
    checks.push(reading.catch(() => undefined));
    return reading;
  };
  controller.start(() => ctx);
  cleanup.add(() => controller.stop());
  return { updater, app, controller, ctx, clock, sink, seen, checks, states: () => [...new Set(seen.map((x) => x.state))] };
}

/** Waits until the status satisfies `done` (downloads run in the background). */
export async function until(t: Terminal, done: (s: UpdateStatus) => boolean, what: string): Promise<UpdateStatus> {
  for (let i = 0; i < 1500; i++) {
    if (done(t.controller.status())) return t.controller.status();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`status never became ${what}: ${JSON.stringify(t.controller.status())}`);
}
export const settled = (s: UpdateStatus) => s.state === 'ready' || s.state === 'error' || s.state === 'installing' || s.state === 'idle';

/** What `packdesk doctor` says about updates, from the data folder. */
export function doctorLine(s: Setup) {
  return updateHealth(readUpdateStatus(path.join(s.root, 'data', 'update-status.json')), NOW);
}

/** The pending download folder's files (electron-updater's cache), without its bookkeeping. */
export function cached(folders: TerminalFolders): string[] {
  const dir = pendingDir(folders);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f !== 'update-info.json') : [];
}

export function publishAppImage(s: Setup, version: string, extra: { stagingPercentage?: number | string; sha512?: string; size?: number } = {}) {
  const file = { name: APPIMAGE_NAME(version), body: installerBody(version, s.marker) };
  s.feed.publish('latest-linux', { version, file, ...extra });
  return file;
}

/** Nothing was installed: the running AppImage is untouched, nothing started, no quit. */
export function expectNothingInstalled(s: Setup, t: Terminal) {
  expect(fs.readFileSync(s.appImage)).toEqual(installerBody('1.0.0', s.marker));
  expect(fs.readdirSync(path.dirname(s.appImage))).toEqual([APPIMAGE_NAME('1.0.0')]);
  expect(fs.existsSync(s.marker)).toBe(false);
  expect(t.app.quits).toBe(0);
}

export type Terminal = ReturnType<typeof terminal>;
