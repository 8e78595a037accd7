/**
 * A scripted stand-in for electron-updater's AppUpdater, for controller rules that need exact event
 * timing. electron-updater's real classes run against a feed on 127.0.0.1 in
 * test/main/updater-feed.test.ts (test/support/update-feed.ts).
 */
import { EventEmitter } from 'node:events';
import type { AppUpdaterLike, UpdateInfoLike, UpdaterLogger } from '../../src/main/updater';

/**
 * Stands in for electron-updater's AppUpdater: same properties, same events, and the same quirk
 * that setting `channel` switches allowDowngrade on.
 */
export class FakeUpdater extends EventEmitter implements AppUpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  allowDowngrade = false;
  allowPrerelease = true;
  logger: UpdaterLogger | null = null;
  isUserWithinRollout: (info: UpdateInfoLike) => boolean | Promise<boolean> = () => true;
  active = true;
  feed: UpdateInfoLike | Error = { version: '1.0.0' };
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  private _channel: string | null = null;
  get channel(): string | null {
    return this._channel;
  }
  set channel(value: string | null) {
    this._channel = value;
    this.allowDowngrade = true;
  }
  isUpdaterActive(): boolean {
    return this.active;
  }
  async checkForUpdates() {
    this.checks++;
    this.emit('checking-for-update');
    if (this.feed instanceof Error) {
      this.emit('error', this.feed);
      throw this.feed;
    }
    const info = this.feed;
    if (info.version === '1.0.0') {
      this.emit('update-not-available', info);
      return { updateInfo: info };
    }
    this.emit('update-available', info);
    return { updateInfo: info, downloadPromise: Promise.resolve([]) };
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
  }
  /** Simulates the background download finishing. */
  /**
   * Simulates the background download finishing. Like electron-updater's UpdateInfo from an
   * electron-builder feed, it carries each file's sha512 unless `withChecksums` is false.
   */
  downloaded(version: string, withChecksums = true): void {
    const sha512 = 'q'.repeat(86) + '==';
    const files = [{ url: `Packdesk-${version}.AppImage`, size: 1, ...(withChecksums ? { sha512 } : {}) }];
    this.emit('update-downloaded', { version, downloadedFile: '/tmp/x', files, ...(withChecksums ? { sha512 } : {}) });
  }
}

/** The fixed "now" of the updater tests. */
export const NOW = Date.UTC(2025, 0, 10, 12, 0);
