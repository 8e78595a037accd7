/**
 * What the manager sees of a real update in Settings → Updates: electron-updater's own
 * AppImageUpdater, driven by the controller, against a feed on 127.0.0.1, shown by the built
 * renderer in Chromium. A damaged download first, then the good one, then "install now".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/main/core/log';
import { createUpdateController } from '../../src/main/updater';
import { manualTimers } from '../support/clock';
import { installerBody, pendingDir, provideElectronAutoUpdaterEvent, realUpdater, sha512Of, startUpdateFeed, terminalFolders, type UpdateFeed } from '../support/update-feed';
import { openTerminal, shot, until, type Terminal, openSettings } from './support';

const NAME = 'Packdesk-1.1.0-x86_64.AppImage';

describe('Settings → Updates with a real update', () => {
  let t: Terminal;
  let feed: UpdateFeed;
  let root: string;
  let folders: ReturnType<typeof terminalFolders>;
  let app: ReturnType<typeof realUpdater>['app'];
  let controller: ReturnType<typeof createUpdateController>;
  const appImageBefore = process.env['APPIMAGE'];

  beforeAll(async () => {
    provideElectronAutoUpdaterEvent();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-e2e-update-'));
    feed = await startUpdateFeed();
    folders = terminalFolders(path.join(root, 'terminal'), feed.url);
    const appImage = path.join(root, 'apps', 'Packdesk-1.0.0-x86_64.AppImage');
    fs.mkdirSync(path.dirname(appImage));
    fs.writeFileSync(appImage, installerBody('1.0.0', path.join(root, 'started')), { mode: 0o755 });
    process.env['APPIMAGE'] = appImage;
    // The feed names a file whose sha512 is another file's.
    feed.publish('latest-linux', { version: '1.1.0', file: { name: NAME, body: installerBody('1.1.0', path.join(root, 'started')) }, sha512: sha512Of(Buffer.from('other')) });
    const real = realUpdater('AppImage', '1.0.0', folders);
    app = real.app;
    controller = createUpdateController({ updater: real.updater, currentVersion: '1.0.0', log: createLogger([]), timers: manualTimers().timers });
    t = await openTerminal({ updates: controller });
    const host = t.harness.host;
    controller.start(() => ({
      terminalId: host.info().terminalId,
      channel: 'stable',
      quietHour: null,
      sendingCount: 0,
      waitingCount: 0,
      // A packer is at work: the update waits for the manager or a quiet moment.
      lastTapAt: Date.now(),
      environment: 'training',
    }));
  }, 60_000);

  afterAll(async () => {
    controller?.stop();
    await t?.close();
    await feed?.close();
    if (appImageBefore === undefined) delete process.env['APPIMAGE'];
    else process.env['APPIMAGE'] = appImageBefore;
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('shows a damaged download in words, then the good one ready, and installs it when the manager asks', async () => {
    const { page } = t;
    await openSettings(page);
    const panel = page.getByRole('region', { name: 'Updates' });
    await panel.waitFor();

    await controller.checkNow();
    await until('the damaged download', () => controller.status().state === 'error');
    await expect.poll(() => panel.textContent()).toMatch(/Version 1\.0\.0 · Updating failed · new version 1\.1\.0/);
    await panel.locator('summary').click();
    await expect.poll(() => panel.textContent()).toMatch(/The downloaded update was damaged \(its checksum does not match the feed\), so it was deleted and not installed; the next check downloads it again\. This version keeps working\./);
    expect(await panel.getByRole('button', { name: 'Install update now' }).count()).toBe(0);

    // The release is uploaded again, right this time; the next check takes it.
    feed.publish('latest-linux', { version: '1.1.0', file: { name: NAME, body: installerBody('1.1.0', path.join(root, 'started')) } });
    await controller.checkNow();
    await until('ready', () => controller.status().state === 'ready');
    await expect.poll(() => panel.textContent()).toMatch(/An update is ready to install · new version 1\.1\.0/);
    await expect.poll(() => panel.textContent()).toMatch(/Version 1\.1\.0 is ready\. A packer tapped in the last 5 minutes; waiting for a quiet moment\./);
    await expect.poll(() => panel.textContent()).toMatch(/Last checked/);
    await shot(page, 'settings-update-ready');
    expect(fs.readdirSync(pendingDir(folders))).toContain(NAME);

    await panel.getByRole('button', { name: 'Install update now' }).click();
    await expect.poll(() => panel.textContent()).toMatch(/Packdesk restarts to finish the update\./);
    await expect.poll(() => panel.textContent()).toMatch(/Installing the update…/);
    await until('the quit for the update', () => app.quits === 1);
    expect(fs.readdirSync(path.join(root, 'apps'))).toEqual([NAME]);
    expect(t.problems).toEqual([]);
  });
});
