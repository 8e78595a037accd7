/**
 * The updater controller driving electron-updater's own AppImageUpdater and NsisUpdater against an
 * update feed served on 127.0.0.1 (test/support/update-feed.ts): real downloads into real cache
 * folders, electron-updater's own sha512 check, the AppImage really replaced and started, the
 * status the manager sees in settings and `packdesk doctor` reads from the data folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/main/core/log';
import { isWithinRollout, rolloutBucket } from '../../src/main/core/update';
import { createUpdateController, type UpdateContext } from '../../src/main/updater';
import { manualTimers } from '../support/clock';
import { Cleanup, newOrderIds, sandbox, serviceEngine } from '../support/engine';
import { installerBody, pendingDir, realUpdater, sha512Of, terminalFolders } from '../support/update-feed';
import {
  APPIMAGE_NAME,
  cached,
  doctorLine,
  EXE_NAME,
  expectNothingInstalled,
  idle,
  markerLine,
  NOW,
  publishAppImage,
  quitEvents,
  settled,
  setup as feedSetup,
  type Setup,
  terminal as feedTerminal,
  type Terminal,
  until,
} from '../support/update-terminal';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const setup = (): Promise<Setup> => feedSetup(cleanup);
const terminal = (s: Setup, options?: Parameters<typeof feedTerminal>[2]): Terminal => feedTerminal(cleanup, s, options);

describe('AppImageUpdater against a feed on 127.0.0.1', () => {
  it('finds 1.1.0, downloads it in the background, verifies it, replaces the AppImage and starts it; each step in the status and in doctor', async () => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0');
    let quitForUpdate = 0;
    const onQuit = () => quitForUpdate++;
    quitEvents.on('before-quit-for-update', onQuit);
    cleanup.add(() => quitEvents.off('before-quit-for-update', onQuit));
    // A packer is mid-order: downloaded and verified, not installed yet.
    const t = terminal(s, { context: { ...idle, lastTapAt: NOW - 30_000 } });
    await t.controller.checkNow();
    const ready = await until(t, settled, 'ready');
    expect(ready).toMatchObject({ state: 'ready', currentVersion: '1.0.0', availableVersion: '1.1.0', lastCheckAt: NOW });
    expect(ready.message).toMatch(/Version 1\.1\.0 is ready\. A packer tapped in the last 5 minutes/);
    expect(t.states()).toEqual(['checking', 'downloading', 'ready']);
    expect(t.seen.some((x) => /Downloading version 1\.1\.0 \(100 %\)/.test(x.message ?? ''))).toBe(true);
    // electron-updater's verified download, byte for byte the published file.
    expect(cached(s.folders)).toEqual([file.name]);
    expect(fs.readFileSync(path.join(pendingDir(s.folders), file.name)).equals(file.body)).toBe(true);
    expect(doctorLine(s)).toMatchObject({ ok: true, detail: expect.stringMatching(/^version 1\.0\.0, 1\.1\.0 downloaded: ready \(Version 1\.1\.0 is ready/) });
    expectNothingInstalled(s, t);

    // The packer is done: the policy allows, the feed is read again, electron-updater installs.
    t.ctx.lastTapAt = NOW - 10 * 60_000;
    t.clock.advance(60_000);
    await until(t, (x) => x.state === 'installing', 'installing');
    const started = await markerLine(s, () => t.app.quits > 0);
    expect(t.app.quits).toBe(1);
    expect(quitForUpdate).toBe(1);
    // The old AppImage is gone, the new one (version in its name) is in its folder and was started.
    expect(fs.readdirSync(path.dirname(s.appImage))).toEqual([APPIMAGE_NAME('1.1.0')]);
    expect(fs.readFileSync(path.join(path.dirname(s.appImage), APPIMAGE_NAME('1.1.0'))).equals(file.body)).toBe(true);
    expect(started).toBe('1.1.0');
    expect(t.controller.status().message).toMatch(/Installing version 1\.1\.0: Nothing is being sent and nobody has tapped for a while/);
    expect(doctorLine(s).detail).toMatch(/installing/);
    expect(s.feed.downloadsOf(file.name)).toBe(1);
  });

  it('a file whose sha512 does not match the feed is refused and deleted, said in words; the next check downloads it again', async () => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0', { sha512: sha512Of(Buffer.from('another file')) });
    const t = terminal(s, { context: { ...idle, lastTapAt: NOW - 30_000 } });
    await t.controller.checkNow();
    const failed = await until(t, settled, 'an error');
    expect(failed).toMatchObject({ state: 'error', availableVersion: '1.1.0' });
    expect(failed.message).toMatch(/damaged \(its checksum does not match the feed\), so it was deleted and not installed; the next check downloads it again\. This version keeps working\./);
    expect(cached(s.folders)).toEqual([]);
    expect(doctorLine(s)).toMatchObject({ ok: false, detail: expect.stringMatching(/error \(The downloaded update was damaged/) });
    expectNothingInstalled(s, t);

    // The feed is put right; the next check (the 4-hourly one) takes it.
    publishAppImage(s, '1.1.0');
    t.clock.advance(30_000);
    await until(t, (x) => x.state === 'ready', 'ready');
    expect(s.feed.downloadsOf(file.name)).toBe(2);
    expect(cached(s.folders)).toEqual([file.name]);
  });

  it('a feed that lies about the size: the download is deleted and not installed, said in words', async () => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0', { size: 123 });
    const t = terminal(s);
    await t.controller.checkNow();
    const failed = await until(t, settled, 'an error');
    expect(failed.state).toBe('error');
    expect(failed.message).toBe(
      `The update feed says version 1.1.0 is 123 bytes but the file is ${file.body.length} bytes, so it was deleted and not installed; the next check tries again. This version keeps working.`,
    );
    expect(cached(s.folders)).toEqual([]);
    expect(await t.controller.installNow()).toMatchObject({ ok: false, problem: { message: 'No update is ready to install.' } });
    expectNothingInstalled(s, t);
  });

  it.each([
    ['the feed is unreachable', (s: Setup) => s.feed.close(), /^Could not reach the update server; trying again later\. This version keeps working\.$/],
    ['the file is missing (404)', (s: Setup) => s.feed.serve(APPIMAGE_NAME('1.1.0'), 'missing'), /names a file that is not on the server \(404\), so nothing was downloaded; the next check tries again/],
    ['the download is cut off', (s: Setup) => s.feed.serve(APPIMAGE_NAME('1.1.0'), 'cut'), /^The download was cut off before the end, so nothing was installed; the next check downloads it again\. This version keeps working\.$/],
  ] as const)('%s: a clear status, nothing installed', async (_name, breakIt, words) => {
    const s = await setup();
    publishAppImage(s, '1.1.0');
    await breakIt(s);
    const t = terminal(s);
    await t.controller.checkNow();
    const failed = await until(t, settled, 'an error');
    expect(failed.state).toBe('error');
    expect(failed.message).toMatch(words);
    expect(cached(s.folders)).toEqual([]);
    expect(doctorLine(s).ok).toBe(false);
    expectNothingInstalled(s, t);
  });

  it.each([
    ['the same version', '1.0.0', 'Version 1.0.0 is the newest on the update feed; nothing to install.'],
    ['an older version', '0.9.0', 'The update feed offers version 0.9.0, not newer than this 1.0.0; nothing to install (no downgrades).'],
  ])('a feed with %s: says so, downloads nothing', async (_name, version, words) => {
    const s = await setup();
    const file = publishAppImage(s, version);
    const t = terminal(s);
    await t.controller.checkNow();
    expect(t.controller.status()).toMatchObject({ state: 'idle', availableVersion: null, message: words, lastCheckAt: NOW });
    expect(s.feed.downloadsOf(file.name)).toBe(0);
    expect(doctorLine(s)).toMatchObject({ ok: true, detail: expect.stringContaining(words) });
    expectNothingInstalled(s, t);
  });
});

describe('staged rollouts', () => {
  it('stagingPercentage 30 reaches exactly the terminals whose bucket is inside it', async () => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0', { stagingPercentage: 30 });
    const ids = Array.from({ length: 16 }, (_, i) => `store-${1 + (i % 4)}-terminal-${i}`);
    const reached: string[] = [];
    for (const id of ids) {
      const folders = terminalFolders(path.join(s.root, id), s.feed.url);
      const t = terminal(s, { folders, context: { ...idle, terminalId: id, lastTapAt: NOW - 1_000 } });
      await t.controller.checkNow();
      const st = await until(t, settled, 'settled');
      if (st.state === 'ready') reached.push(id);
      else expect(st.message).toMatch(/Version 1\.1\.0 is being released to 30 % of terminals first \(staged rollout\); this terminal gets it when the rollout widens/);
      // electron-updater keeps its own staging id in userData; the bucket is the terminal id's.
      expect(fs.existsSync(path.join(folders.userData, '.updaterId'))).toBe(true);
    }
    const inside = ids.filter((id) => isWithinRollout(rolloutBucket(id), 30));
    expect(reached).toEqual(inside);
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.length).toBeLessThan(ids.length);
    expect(s.feed.downloadsOf(file.name)).toBe(inside.length);
  });
});

describe('stopping a staged rollout', () => {
  it('stagingPercentage 0 keeps a terminal that already downloaded the release from installing it; widening it again installs from the download', async () => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0', { stagingPercentage: 100 });
    const t = terminal(s, { context: { ...idle, lastTapAt: NOW - 60_000 } });
    await t.controller.checkNow();
    expect(await until(t, settled, 'ready')).toMatchObject({ state: 'ready', availableVersion: '1.1.0' });

    // The chain stops the rollout while the terminal waits for a quiet moment.
    publishAppImage(s, '1.1.0', { stagingPercentage: 0 });
    t.ctx.lastTapAt = null;
    t.clock.advance(60_000);
    await until(t, (x) => x.state === 'idle', 'idle');
    expect(t.controller.status().message).toBe('The rollout of version 1.1.0 is stopped; it is not installed on this terminal. This version keeps working.');
    expect(await t.controller.installNow()).toMatchObject({ ok: false, problem: { message: 'No update is ready to install.' } });
    // The next scheduled check reads the feed again and still leaves it: once electron-updater's
    // check has ended, the status went through checking back to idle, nothing downloaded between.
    const reads = s.feed.requests.length;
    const checks = t.checks.length;
    const heard = t.seen.length;
    t.clock.advance(4 * 60 * 60_000);
    expect(t.checks.length).toBe(checks + 1);
    await t.checks.at(-1);
    expect(s.feed.requests.length).toBeGreaterThan(reads);
    expect(t.seen.slice(heard).map((x) => x.state)).toEqual(['checking', 'idle']);
    expect(t.controller.status().state).toBe('idle');
    expectNothingInstalled(s, t);
    expect(doctorLine(s).detail).toMatch(/rollout of version 1\.1\.0 is stopped/);

    // Released to everyone again: installed from the file already downloaded (electron-updater
    // reuses it when the feed entry is as before; any other change to it means a new download).
    publishAppImage(s, '1.1.0', { stagingPercentage: 100 });
    t.clock.advance(4 * 60 * 60_000);
    await until(t, (x) => x.state === 'installing', 'installing');
    expect(await markerLine(s)).toBe('1.1.0');
    expect(s.feed.downloadsOf(file.name)).toBe(1);
  });
});

describe('NsisUpdater against a feed on 127.0.0.1', () => {
  it('finds, downloads and verifies the installer, then runs it silently with --force-run and quits', async () => {
    const s = await setup();
    const body = Buffer.from(`#!/bin/sh\necho "$@" > '${s.marker}'\n# ${'y'.repeat(40_000)}\n`);
    s.feed.publish('latest', { version: '1.1.0', file: { name: EXE_NAME('1.1.0'), body } });
    const t = terminal(s, { kind: 'NSIS', context: { ...idle, lastTapAt: NOW - 1_000 } });
    await t.controller.checkNow();
    expect(await until(t, settled, 'ready')).toMatchObject({ state: 'ready', availableVersion: '1.1.0' });
    const installer = path.join(pendingDir(s.folders), EXE_NAME('1.1.0'));
    expect(fs.readFileSync(installer).equals(body)).toBe(true);
    expect(s.feed.requests).toEqual(['GET /latest.yml', `GET /${EXE_NAME('1.1.0')}`]);
    // An .exe is runnable on Windows; here the test marks the script so.
    fs.chmodSync(installer, 0o755);
    expect(await t.controller.installNow()).toEqual({ ok: true, value: true });
    expect(await markerLine(s, () => t.app.quits > 0)).toBe('--updated /S --force-run');
    expect(t.app.quits).toBe(1);
  });

  it('an installer that fails the publisher signature check is refused and deleted, said in words', async () => {
    const s = await setup();
    const folders = terminalFolders(path.join(s.root, 'signed'), s.feed.url, 'Packdesk Retail Pvt Ltd');
    s.feed.publish('latest', { version: '1.1.0', file: { name: EXE_NAME('1.1.0'), body: installerBody('1.1.0', s.marker) } });
    const t = terminal(s, { kind: 'NSIS', folders });
    // Windows' Authenticode check (Get-AuthenticodeSignature) cannot run here: electron-updater's
    // hook for it answers as it does for an installer signed by someone else.
    const asked: string[][] = [];
    (t.updater as unknown as { verifyUpdateCodeSignature: (names: string[], file: string) => Promise<string | null> }).verifyUpdateCodeSignature = async (names) => {
      asked.push(names);
      return 'publisherNames: Packdesk Retail Pvt Ltd, raw info: {"Status":"NotSigned"}';
    };
    await t.controller.checkNow();
    const failed = await until(t, settled, 'an error');
    expect(asked).toEqual([['Packdesk Retail Pvt Ltd']]);
    expect(failed).toMatchObject({ state: 'error', message: expect.stringMatching(/^The downloaded update failed its signature check and was not installed\. This version keeps working\.$/) });
    expect(cached(folders)).toEqual([]);
    expect(t.app.quits).toBe(0);
  });
});

/** Moves the schedule on (`advance`) and waits until the controller said its decision (a new status). */
async function decided(t: Terminal, advance: () => void): Promise<void> {
  const heard = t.seen.length;
  advance();
  await until(t, () => t.seen.length > heard, 'a new decision');
}

describe('when the update installs', () => {
  it('a downloaded update waits across a restart while a packer is busy, is not downloaded again, and installs once the terminal is quiet', async () => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0');
    const busy = { ...idle, lastTapAt: NOW - 60_000 };
    const first = terminal(s, { context: busy });
    await first.controller.checkNow();
    expect(await until(first, settled, 'ready')).toMatchObject({ state: 'ready' });
    first.controller.stop();

    // Packdesk restarts (a power cut, the end of the day): a new process, the same folders.
    const second = terminal(s, { context: busy });
    await second.controller.checkNow();
    const ready = await until(second, settled, 'ready');
    expect(ready).toMatchObject({ state: 'ready', availableVersion: '1.1.0', message: expect.stringMatching(/tapped/) });
    expect(s.feed.downloadsOf(file.name)).toBe(1);
    expectNothingInstalled(s, second);

    // A tap is being sent: not even the quiet hour installs.
    second.ctx.lastTapAt = NOW - 60 * 60_000;
    second.ctx.sendingCount = 1;
    await decided(second, () => second.clock.advance(60_000));
    expect(second.controller.status().message).toMatch(/1 tap is being sent/);
    // Sent; one more is waiting to be sent: still not.
    second.ctx.sendingCount = 0;
    second.ctx.waitingCount = 1;
    await decided(second, () => second.clock.advance(60_000));
    expect(second.controller.status().message).toMatch(/1 tap is waiting to be sent/);
    expectNothingInstalled(s, second);
    // All sent, nobody tapping: installed.
    second.ctx.waitingCount = 0;
    second.clock.advance(60_000);
    await until(second, (x) => x.state === 'installing', 'installing');
    expect(await markerLine(s)).toBe('1.1.0');
    expect(s.feed.downloadsOf(file.name)).toBe(1);
  });

  it('quitting to install never loses a tap: one committed just before is in the data file and sent after the restart', async () => {
    const s = await setup();
    publishAppImage(s, '1.1.0');
    const box = await sandbox(cleanup);
    const dataDir = path.join(s.root, 'data');
    const engine = serviceEngine(cleanup, box, dataDir);
    const orderId = newOrderIds(box)[0]!;
    // The tap is committed; the engine has not sent it yet (its send loop is not running).
    const tapped = engine.engine.submitTap(orderId, { kind: 'orderState', state: 'ACCEPTED' });
    expect(tapped.ok).toBe(true);
    const liveContext = (): UpdateContext => ({
      ...idle,
      sendingCount: engine.engine.sendingCount(),
      waitingCount: engine.engine.status().waiting,
      lastTapAt: engine.engine.lastTapAt(),
    });
    const { updater, app } = realUpdater('AppImage', '1.0.0', s.folders);
    const controller = createUpdateController({
      updater,
      currentVersion: '1.0.0',
      log: createLogger([]),
      now: Date.now,
      timers: manualTimers().timers,
      pendingInstallFile: path.join(dataDir, 'update-pending.json'),
      // What src/main/index.ts does: the engine stops (SQLite closes) before electron-updater quits.
      beforeInstall: () => engine.close(),
    });
    controller.start(liveContext);
    cleanup.add(() => controller.stop());
    await controller.checkNow();
    for (let i = 0; i < 500 && controller.status().state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 10));
    // The schedule waits: the tap is waiting to be sent, and it was just made.
    expect(controller.status().message).toMatch(/waiting to be sent|tapped/);
    expect(app.quits).toBe(0);
    // The manager installs now; the waiting tap is kept.
    expect(await controller.installNow()).toEqual({ ok: true, value: true });
    for (let i = 0; i < 200 && app.quits === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(app.quits).toBe(1);

    // Between the quit and the restart: the tap is in the SQLite file, waiting.
    const db = new Database(path.join(dataDir, 'packdesk.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT order_id, state FROM outbox').all();
    db.close();
    expect(rows).toEqual([{ order_id: orderId, state: 'queued' }]);
    expect(box.orders().find((o) => o.id === orderId)?.orderState.toUpperCase()).toBe('CREATED');

    // Packdesk 1.1.0 starts on the same data folder and sends it.
    const after = serviceEngine(cleanup, box, dataDir);
    await after.engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(box.orders().find((o) => o.id === orderId)?.orderState.toUpperCase()).toBe('ACCEPTED');
    expect(after.engine.status().waiting).toBe(0);
  });
});

describe('an install electron-updater refuses on the spot', () => {
  it('(the running AppImage is gone) restarts the engine, keeps this version, removes the install note and says so', async () => {
    const s = await setup();
    publishAppImage(s, '1.1.0');
    const order: string[] = [];
    const t = terminal(s, {
      context: { ...idle, lastTapAt: NOW - 1_000 },
      controller: { beforeInstall: async () => void order.push('stop engine'), afterFailedInstall: async () => void order.push('start engine') },
    });
    await t.controller.checkNow();
    expect(await until(t, settled, 'ready')).toMatchObject({ state: 'ready' });
    fs.rmSync(s.appImage);
    const result = await t.controller.installNow();
    expect(result).toMatchObject({ ok: false, problem: { message: expect.stringMatching(/Update failed: ENOENT.*This version keeps working\./) } });
    expect(order).toEqual(['stop engine', 'start engine']);
    expect(t.app.quits).toBe(0);
    expect(fs.existsSync(path.join(s.root, 'data', 'update-pending.json'))).toBe(false);
    expect(t.controller.status()).toMatchObject({ state: 'error', availableVersion: '1.1.0' });
    // The schedule does not try the same broken install every minute.
    expect(await t.controller.considerInstall(false)).toMatchObject({ install: false, reason: expect.stringMatching(/failed before; a manager can try again/) });
    expect(order).toHaveLength(2);
  });
});

describe('doctor on updates switched off', () => {
  it('off by design is fine; off because of the build\'s feed is a problem', async () => {
    const s = await setup();
    const statusOf = (disabledReason: string) => {
      const t = terminal(s, { controller: { disabledReason } });
      t.controller.stop();
      return doctorLine(s);
    };
    expect(statusOf("This installation (.deb) is updated through the system's package manager.")).toMatchObject({ ok: true });
    expect(statusOf('The update feed address must be https (installers are checked against checksums read from it); updates are off.')).toMatchObject({
      ok: false,
      fix: expect.stringMatching(/https PACKDESK_UPDATE_URL/),
    });
    expect(s.feed.requests).toEqual([]);
  });
});

describe('the feed address at run time', () => {
  it('an http feed is refused outside training, in words, without a request; training may use one on 127.0.0.1', async () => {
    const s = await setup();
    publishAppImage(s, '1.1.0');
    const t = terminal(s, { context: { ...idle, environment: 'production' }, controller: { feedUrl: s.feed.url } });
    await t.controller.checkNow();
    expect(t.controller.status()).toMatchObject({
      state: 'error',
      message:
        'The update feed address must be https (installers are checked against checksums read from it); updates are off on this terminal (production) until the feed address is fixed. This version keeps working.',
    });
    expect(s.feed.requests).toEqual([]);
    expect(doctorLine(s)).toMatchObject({ ok: false, detail: expect.stringMatching(/must be https/) });
    t.ctx.environment = 'staging';
    await t.controller.checkNow();
    expect(s.feed.requests).toEqual([]);

    t.ctx.environment = 'training';
    await t.controller.checkNow();
    // Nobody is tapping, so the download is installed at once; the test waits for the installer it
    // started to have run (its marker written) so that nothing writes into the folder being removed.
    await until(t, (x) => x.state === 'installing', 'installing');
    expect(await markerLine(s, () => t.app.quits > 0)).toBe('1.1.0');
    expect(s.feed.requests[0]).toBe('GET /latest-linux.yml');
  });
});
