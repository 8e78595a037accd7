/**
 * What keeps a bad update from running: a feed that is not https is refused in packaged builds; an
 * update whose feed gives no sha512 is not installed (AppImage has no publisher signature, so the
 * checksum from the https feed is all there is); and when the installer fails after Packdesk quit,
 * the next start says so and keeps working on the old version. These drive the controller with a
 * scripted stand-in for exact event timing; the marker file is a real file on disk. The same paths
 * with electron-updater's real classes and a feed on 127.0.0.1: updater-feed.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, MemorySink } from '../../src/main/core/log';
import { feedAddressProblem, feedProblem } from '../../src/main/core/update';
import { createUpdateController, type UpdateContext } from '../../src/main/updater';
import { FakeUpdater, NOW } from '../support/updater';
import { manualTimers } from '../support/clock';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function markerPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-update-'));
  dirs.push(dir);
  return path.join(dir, 'update-pending.json');
}

// Nobody has tapped for long: the policy would install a ready update at once.
const context: UpdateContext = { terminalId: 'terminal-1', channel: 'stable', quietHour: null, sendingCount: 0, lastTapAt: null };
// A packer just tapped: only a manager's "install now" installs.
const busy: UpdateContext = { ...context, lastTapAt: NOW };
const settle = () => new Promise((r) => setTimeout(r, 0));

function controllerAt(version: string, pendingInstallFile: string, updater = new FakeUpdater()) {
  const sink = new MemorySink();
  const controller = createUpdateController({
    updater,
    currentVersion: version,
    log: createLogger([sink], { minLevel: 'debug' }),
    now: () => NOW,
    timers: manualTimers().timers,
    pendingInstallFile,
  });
  return { controller, updater, sink };
}

describe('an installer that fails after Packdesk quit', () => {
  it('is reported at the next start, which keeps working on the old version and does not retry by itself', async () => {
    const marker = markerPath();
    const first = controllerAt('1.0.0', marker);
    first.controller.start(() => busy);
    first.updater.feed = { version: '1.1.0' };
    first.updater.downloaded('1.1.0');
    await settle();
    expect(await first.controller.installNow()).toEqual({ ok: true, value: true });
    expect(first.updater.installs).toHaveLength(1);
    // Written before quitAndInstall, owner-only.
    expect(JSON.parse(fs.readFileSync(marker, 'utf8'))).toMatchObject({ from: '1.0.0', to: '1.1.0' });
    if (process.platform !== 'win32') expect(fs.statSync(marker).mode & 0o777).toBe(0o600);

    // The installer failed after the quit: Packdesk starts again as 1.0.0.
    const next = controllerAt('1.0.0', marker);
    next.controller.start(() => context);
    expect(next.controller.status()).toMatchObject({ state: 'error', currentVersion: '1.0.0' });
    expect(next.controller.status().message).toMatch(/Installing version 1\.1\.0 did not complete.*This version \(1\.0\.0\) keeps working/);
    expect(fs.existsSync(marker)).toBe(false);

    // The same download comes back: the schedule leaves it to a manager, who can still install it.
    next.updater.feed = { version: '1.1.0' };
    next.updater.downloaded('1.1.0');
    await settle();
    expect(next.updater.installs).toHaveLength(0);
    expect(next.controller.status().message).toMatch(/failed before; a manager can try again/);
    expect(await next.controller.installNow()).toEqual({ ok: true, value: true });
    expect(next.updater.installs).toHaveLength(1);
  });

  it('an install that completed says so once and leaves no marker', () => {
    const marker = markerPath();
    fs.writeFileSync(marker, JSON.stringify({ from: '1.0.0', to: '1.1.0', at: NOW }));
    const { controller } = controllerAt('1.1.0', marker);
    controller.start(() => context);
    expect(controller.status().state).not.toBe('error');
    expect(controller.status().message).toMatch(/Updated from version 1\.0\.0 to 1\.1\.0/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('an install refused on the spot removes the marker (this process carries on)', async () => {
    const marker = markerPath();
    const updater = new FakeUpdater();
    updater.quitAndInstall = () => {
      updater.emit('error', new Error('spawn ENOENT'));
    };
    const { controller } = controllerAt('1.0.0', marker, updater);
    controller.start(() => busy);
    updater.feed = { version: '1.1.0' };
    updater.downloaded('1.1.0');
    await settle();
    expect((await controller.installNow()).ok).toBe(false);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a damaged marker is ignored and removed', () => {
    const marker = markerPath();
    fs.writeFileSync(marker, '{not json');
    const { controller } = controllerAt('1.0.0', marker);
    controller.start(() => context);
    expect(controller.status().state).toBe('idle');
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('checksums', () => {
  it('an update whose feed gives no sha512 is not installed, even when a manager asks', async () => {
    const { controller, updater } = controllerAt('1.0.0', markerPath());
    controller.start(() => context);
    updater.feed = { version: '1.1.0' };
    updater.downloaded('1.1.0', false);
    await settle();
    expect(updater.installs).toHaveLength(0);
    expect(controller.status().message).toMatch(/no sha512 checksum/);
    await settle();
    const r = await controller.installNow();
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.message).toMatch(/no sha512 checksum/);
    expect(updater.installs).toHaveLength(0);
  });
});

describe('the update feed', () => {
  it('refuses a feed that is not https in a packaged build', () => {
    expect(feedProblem('provider: generic\nurl: http://updates.example.com/packdesk\nupdaterCacheDirName: packdesk-updater\n')).toMatch(/must be https/);
    expect(feedProblem('provider: generic\nurl: "HTTP://updates.example.com/packdesk"\n')).toMatch(/must be https/);
    expect(feedProblem('provider: generic\nurl: https://user:pw@updates.example.com/\n')).toMatch(/user name or password/);
    expect(feedProblem('provider: github\nowner: x\nrepo: y\n')).toMatch(/generic/);
    expect(feedProblem(null)).toMatch(/no update feed/i);
    expect(feedProblem('provider: generic\nurl: https://updates.example.com/packdesk\nupdaterCacheDirName: packdesk-updater\n')).toBeNull();
    expect(feedProblem("provider: generic\nurl: 'https://updates.example.com/packdesk'\n")).toBeNull();
  });

  it('accepts http only on this computer and only when asked for (training), never from another machine', () => {
    expect(feedAddressProblem('http://127.0.0.1:8123/', { localHttp: true })).toBeNull();
    expect(feedAddressProblem('http://localhost:8123/', { localHttp: true })).toBeNull();
    expect(feedAddressProblem('http://127.0.0.1:8123/')).toMatch(/must be https/);
    expect(feedAddressProblem('http://updates.example.com/', { localHttp: true })).toMatch(/must be https/);
    expect(feedAddressProblem('http://127.0.0.1.example.com/', { localHttp: true })).toMatch(/must be https/);
    expect(feedProblem('provider: generic\nurl: http://127.0.0.1:8123/\n', { localHttp: true })).toBeNull();
    expect(feedProblem('provider: generic\nurl: http://10.0.0.5/\n', { localHttp: true })).toMatch(/must be https/);
  });
});
