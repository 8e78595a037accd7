import { describe, expect, it } from 'vitest';
import { MemorySink, createLogger } from '../../src/main/core/log';
import { isWithinRollout, rolloutBucket } from '../../src/main/core/update';
import {
  createUpdateController,
  describeUpdateError,
  feedChannel,
  redactUrlCredentials,
  updateSupport,
  type UpdateContext,
} from '../../src/main/updater';
import { FakeUpdater, NOW } from '../support/updater';
import { manualTimers } from '../support/clock';

function setup(ctx: Partial<UpdateContext> = {}, extra: { beforeInstall?: () => Promise<void>; afterFailedInstall?: () => Promise<void> } = {}) {
  const updater = new FakeUpdater();
  const sink = new MemorySink();
  const clock = manualTimers();
  const context: UpdateContext = { terminalId: 'terminal-1', channel: 'stable', quietHour: null, sendingCount: 0, lastTapAt: null, ...ctx };
  const controller = createUpdateController({
    updater,
    currentVersion: '1.0.0',
    log: createLogger([sink], { minLevel: 'debug' }),
    now: () => NOW,
    timers: clock.timers,
    hourOf: (ms) => new Date(ms).getUTCHours(),
    ...extra,
  });
  const statuses: string[] = [];
  controller.onStatus((s) => statuses.push(s.state));
  return { updater, sink, clock, context, controller, statuses };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createUpdateController', () => {
  it('is disabled where the updater is inactive (unpackaged runs)', () => {
    const { updater, controller, context } = setup();
    updater.active = false;
    controller.start(() => context);
    expect(controller.status()).toMatchObject({ state: 'disabled', currentVersion: '1.0.0' });
  });

  it('configures the updater: background download, no install on quit, no downgrade even after a channel change', () => {
    const { updater, controller, context } = setup({ channel: 'beta' });
    controller.start(() => context);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(updater.allowPrerelease).toBe(false);
    expect(updater.channel).toBe('beta');
    expect(updater.allowDowngrade).toBe(false);
    expect(updater.logger).not.toBeNull();
  });

  it('decides the staged rollout from the terminal id', async () => {
    const { updater, controller, context } = setup({ terminalId: 'store-9-terminal-2' });
    controller.start(() => context);
    const bucket = rolloutBucket('store-9-terminal-2');
    for (const pct of [0, 1, 10, 33, 50, 77, 100, undefined]) {
      const info = pct === undefined ? { version: '2.0.0' } : { version: '2.0.0', stagingPercentage: pct };
      expect(await updater.isUserWithinRollout(info)).toBe(isWithinRollout(bucket, pct));
    }
  });

  it('checks after start and then every few hours', async () => {
    const { updater, controller, context, clock } = setup();
    controller.start(() => context);
    expect(updater.checks).toBe(0);
    clock.advance(30_000);
    expect(updater.checks).toBe(1);
    clock.advance(4 * 60 * 60_000);
    expect(updater.checks).toBe(2);
    controller.stop();
    clock.advance(24 * 60 * 60_000);
    expect(updater.checks).toBe(2);
    await settle();
    expect(controller.status().lastCheckAt).toBe(NOW);
  });

  it('downloads in the background and waits while a packer is busy', async () => {
    const { updater, controller, context } = setup({ lastTapAt: NOW - 10_000 });
    controller.start(() => context);
    updater.feed = { version: '1.1.0' };
    await controller.checkNow();
    expect(controller.status()).toMatchObject({ state: 'downloading', availableVersion: '1.1.0' });
    updater.emit('download-progress', { percent: 42.7 });
    expect(controller.status().message).toMatch(/42 %/);
    const checksBefore = updater.checks;
    updater.downloaded('1.1.0');
    await settle();
    expect(controller.status()).toMatchObject({ state: 'ready', availableVersion: '1.1.0' });
    expect(controller.status().message).toMatch(/tapped/);
    // The busy answer comes without touching the network.
    expect(updater.checks).toBe(checksBefore);
    expect(updater.installs).toEqual([]);
  });

  it('installs when idle, after re-reading the feed and stopping the engine first', async () => {
    const order: string[] = [];
    const { updater, controller, context, statuses } = setup({}, { beforeInstall: async () => void order.push('stop engine') });
    controller.start(() => context);
    updater.feed = { version: '1.1.0' };
    await controller.checkNow();
    const checksBefore = updater.checks;
    const origInstall = updater.quitAndInstall.bind(updater);
    updater.quitAndInstall = (a, b) => (order.push('quitAndInstall'), origInstall(a, b));
    updater.downloaded('1.1.0');
    await settle();
    await settle();
    expect(updater.checks).toBe(checksBefore + 1);
    expect(updater.installs).toEqual([[true, true]]);
    expect(order).toEqual(['stop engine', 'quitAndInstall']);
    expect(controller.status().state).toBe('installing');
    // The re-read did not flap the screen back to "downloading".
    expect(statuses.slice(statuses.indexOf('ready'))).toEqual(['ready', 'installing']);
  });

  it('restarts the engine and keeps this version when electron-updater refuses to install', async () => {
    const order: string[] = [];
    const { updater, controller, context } = setup(
      {},
      { beforeInstall: async () => void order.push('stop engine'), afterFailedInstall: async () => void order.push('start engine') },
    );
    controller.start(() => context);
    updater.feed = { version: '1.1.0' };
    await controller.checkNow();
    // What BaseUpdater.install does when the installer is gone: an 'error' event, no quit.
    updater.quitAndInstall = () => void updater.emit('error', new Error("No update filepath provided, can't quit and install"));
    updater.downloaded('1.1.0');
    await settle();
    await settle();
    expect(order).toEqual(['stop engine', 'start engine']);
    expect(controller.status()).toMatchObject({ state: 'error', message: expect.stringMatching(/keeps working/) });
    // The schedule does not stop and start the engine every minute for the same broken download.
    expect(await controller.considerInstall(false)).toMatchObject({ install: false, reason: expect.stringMatching(/failed before/) });
    expect(order).toHaveLength(2);
    // A manager may try again.
    await controller.considerInstall(true);
    expect(order).toEqual(['stop engine', 'start engine', 'stop engine', 'start engine']);
  });

  it('does not install a download the feed has superseded, and takes the newer one later', async () => {
    const { updater, controller, context } = setup({ lastTapAt: NOW - 10_000 });
    controller.start(() => context);
    updater.feed = { version: '1.1.0' };
    await controller.checkNow();
    updater.downloaded('1.1.0');
    await settle();
    updater.feed = { version: '1.2.0' };
    const decision = await controller.considerInstall(true);
    expect(decision).toMatchObject({ install: false, reason: expect.stringMatching(/superseded by 1\.2\.0/) });
    expect(updater.installs).toEqual([]);
    expect(controller.status()).toMatchObject({ state: 'downloading', availableVersion: '1.2.0' });
    updater.downloaded('1.2.0');
    await settle();
    expect(await controller.installNow()).toEqual({ ok: true, value: true });
    expect(updater.installs).toHaveLength(1);
  });

  it('does not install when the feed cannot be re-read; the running version keeps working', async () => {
    const { updater, controller, context } = setup({ lastTapAt: NOW - 10_000 });
    controller.start(() => context);
    updater.feed = { version: '1.1.0' };
    await controller.checkNow();
    updater.downloaded('1.1.0');
    await settle();
    updater.feed = Object.assign(new Error('net::ERR_INTERNET_DISCONNECTED'), {});
    const result = await controller.installNow();
    expect(result).toMatchObject({ ok: false, problem: { kind: 'invalid', message: expect.stringMatching(/feed/) } });
    expect(updater.installs).toEqual([]);
    expect(controller.status()).toMatchObject({ state: 'error', availableVersion: '1.1.0', message: expect.stringMatching(/update server.*keeps working/) });
  });

  it('never installs while a tap is sending, not even for the manager', async () => {
    const ctx: UpdateContext = { terminalId: 't', channel: 'stable', quietHour: 12, sendingCount: 1, lastTapAt: null };
    const { updater, controller } = setup();
    controller.start(() => ctx);
    updater.feed = { version: '1.1.0' };
    await controller.checkNow();
    updater.downloaded('1.1.0');
    await settle();
    const result = await controller.installNow();
    expect(result).toMatchObject({ ok: false, problem: { message: expect.stringMatching(/being sent/) } });
    expect(updater.installs).toEqual([]);
  });

  it('installs at the quiet hour from the schedule, once nothing is sending, even right after a tap', async () => {
    const { updater, controller, clock } = setup();
    const ctx = { terminalId: 't', channel: 'stable' as const, quietHour: 12, sendingCount: 2, lastTapAt: NOW - 1_000 };
    controller.start(() => ctx);
    updater.feed = { version: '1.1.0' };
    await controller.checkNow();
    updater.downloaded('1.1.0');
    await settle();
    expect(updater.installs).toEqual([]);
    expect(controller.status().message).toMatch(/2 taps are being sent/);
    // A minute later nothing is sending, and 12:00 UTC is the quiet hour.
    ctx.sendingCount = 0;
    clock.advance(60_000);
    await settle();
    await settle();
    expect(updater.installs).toEqual([[true, true]]);
  });

  it('says so when nothing is ready and when updates are off', async () => {
    const { updater, controller, context } = setup();
    controller.start(() => context);
    expect(await controller.installNow()).toMatchObject({ ok: false, problem: { message: 'No update is ready to install.' } });
    updater.active = false;
    expect(await controller.installNow()).toMatchObject({ ok: false, problem: { message: expect.stringMatching(/off/) } });
  });

  it('shows download and signature errors in the status and logs them redacted', async () => {
    const { updater, controller, context, sink } = setup();
    controller.start(() => context);
    const err = Object.assign(new Error('New version 1.1.0 is not signed by the application owner: https://user:hunter2pass@updates.example/x.exe?key=abcdef123456'), {
      code: 'ERR_UPDATER_INVALID_SIGNATURE',
    });
    updater.emit('error', err);
    expect(controller.status()).toMatchObject({ state: 'error', message: expect.stringMatching(/signature check.*keeps working/) });
    const logged = JSON.stringify(sink.records);
    expect(logged).toContain('update failed');
    expect(logged).not.toContain('hunter2pass');
    expect(logged).not.toContain('abcdef123456');
    expect(controller.status().message).not.toContain('hunter2pass');
  });

  it('passes electron-updater log lines through redaction', () => {
    const { updater, controller, context, sink } = setup();
    controller.start(() => context);
    updater.logger!.info('Downloading update from https://updates.example/Packdesk-1.1.0.exe?token=abcdef123456');
    expect(JSON.stringify(sink.records)).not.toContain('abcdef123456');
  });
});

describe('updateSupport', () => {
  it('updates Windows and AppImage installs; leaves .deb to the package manager and dev runs alone', () => {
    expect(updateSupport({ platform: 'win32', isPackaged: true, appImage: undefined })).toBeNull();
    expect(updateSupport({ platform: 'linux', isPackaged: true, appImage: '/home/p/Packdesk.AppImage' })).toBeNull();
    expect(updateSupport({ platform: 'linux', isPackaged: true, appImage: undefined })).toMatch(/package manager/);
    expect(updateSupport({ platform: 'win32', isPackaged: false, appImage: undefined })).toMatch(/development/);
    expect(updateSupport({ platform: 'darwin', isPackaged: true, appImage: undefined })).toMatch(/not supported/);
  });

  it('a disabled controller never checks the feed and never installs', async () => {
    const updater = new FakeUpdater();
    const controller = createUpdateController({ updater, currentVersion: '1.0.0', log: createLogger([]), disabledReason: 'off for deb', timers: manualTimers().timers });
    controller.start(() => ({ terminalId: 't', channel: 'stable', quietHour: null, sendingCount: 0, lastTapAt: null }));
    expect(controller.status()).toMatchObject({ state: 'disabled', message: 'off for deb' });
    await controller.checkNow();
    expect(await controller.installNow()).toMatchObject({ ok: false, problem: { message: 'off for deb' } });
    expect(updater.checks).toBe(0);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(updater.autoDownload).toBe(false);
  });
});

describe('describeUpdateError', () => {
  it('names the common failures in plain words and never echoes URLs with credentials', () => {
    expect(describeUpdateError(new Error('sha512 checksum mismatch, expected abc'))).toMatch(/damaged/);
    expect(describeUpdateError(Object.assign(new Error('Cannot find channel "beta.yml" update info: HttpError: 404'), { code: 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' }))).toMatch(/no release for this channel/);
    expect(describeUpdateError(new Error('getaddrinfo ENOTFOUND updates.example'))).toMatch(/Could not reach/);
    const other = describeUpdateError(new Error('Weird https://u:p4ssw0rd@h/x?sig=s3cr3t\nstack line'));
    expect(other).toMatch(/^Update failed: Weird/);
    expect(other).not.toMatch(/p4ssw0rd|s3cr3t|stack line/);
    expect(describeUpdateError('plain string')).toMatch(/plain string/);
  });

  it('maps settings channels to feed channels', () => {
    expect(feedChannel('stable')).toBe('latest');
    expect(feedChannel('beta')).toBe('beta');
  });

  it('redacts URL userinfo and query strings', () => {
    expect(redactUrlCredentials('see https://a:b@host/p?x=1 now')).toBe('see https://[redacted]@host/p?[redacted] now');
  });
});

