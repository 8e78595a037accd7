import { describe, expect, it } from 'vitest';
import { DEFAULT_TAP_QUIET_MS, decideInstall, type InstallInputs } from '../../../../src/main/core/update';

const NOW = Date.UTC(2025, 5, 3, 14, 30); // hourOf below reads UTC, so this is 14:xx
const hourOf = (ms: number): number => new Date(ms).getUTCHours();

const base: InstallInputs = {
  now: NOW,
  sendingCount: 0,
  lastTapAt: NOW - 60 * 60_000,
  quietHour: null,
  managerRequested: false,
  downloadedVersion: '1.3.0',
  currentVersion: '1.2.0',
  latestFeedVersion: '1.3.0',
};
const decide = (patch: Partial<InstallInputs>) => decideInstall({ ...base, ...patch }, { hourOf });

describe('decideInstall', () => {
  it('installs when idle: nothing sending, no recent tap, feed still offers the download', () => {
    expect(decide({})).toMatchObject({ install: true });
    expect(decide({ lastTapAt: null })).toMatchObject({ install: true });
  });

  it('never installs while anything is sending, whoever asks and whatever the hour', () => {
    for (const patch of [{}, { managerRequested: true }, { quietHour: 14 }, { managerRequested: true, quietHour: 14 }]) {
      const d = decide({ ...patch, sendingCount: 1 });
      expect(d.install).toBe(false);
      expect(d.reason).toMatch(/being sent/);
    }
    expect(decide({ sendingCount: 3 }).reason).toMatch(/3 taps are being sent/);
  });

  it('waits for taps waiting to be sent, at the quiet hour too; a manager installs with them kept', () => {
    for (const patch of [{}, { quietHour: 14 }]) {
      const d = decide({ ...patch, waitingCount: 2 });
      expect(d).toMatchObject({ install: false, reason: expect.stringMatching(/2 taps are waiting to be sent/) });
    }
    expect(decide({ waitingCount: 1 }).reason).toMatch(/1 tap is waiting/);
    expect(decide({ waitingCount: 1, managerRequested: true }).install).toBe(true);
    expect(decide({ waitingCount: 0 }).install).toBe(true);
  });

  it('waits after a recent tap', () => {
    const d = decide({ lastTapAt: NOW - 30_000 });
    expect(d.install).toBe(false);
    expect(d.reason).toMatch(/tapped/);
    expect(decide({ lastTapAt: NOW - DEFAULT_TAP_QUIET_MS + 1 }).install).toBe(false);
    expect(decide({ lastTapAt: NOW - DEFAULT_TAP_QUIET_MS }).install).toBe(true);
  });

  it('honours a custom quiet period', () => {
    const d = decideInstall({ ...base, lastTapAt: NOW - 90_000 }, { hourOf, tapQuietMs: 60_000 });
    expect(d.install).toBe(true);
  });

  it('a tap stamped far in the future (clock set back) does not block forever', () => {
    expect(decide({ lastTapAt: NOW + 24 * 60 * 60_000 }).install).toBe(true);
    expect(decide({ lastTapAt: NOW + 10_000 }).install).toBe(false);
  });

  it('installs at the quiet hour even after a recent tap, when nothing is sending', () => {
    expect(decide({ quietHour: 14, lastTapAt: NOW - 1_000 })).toMatchObject({ install: true, reason: expect.stringMatching(/Quiet hour \(14:00\)/) });
    expect(decide({ quietHour: 15, lastTapAt: NOW - 1_000 }).install).toBe(false);
    expect(decide({ quietHour: 0, lastTapAt: NOW - 1_000 }).install).toBe(false);
  });

  it('installs when the manager asks, even after a recent tap', () => {
    expect(decide({ managerRequested: true, lastTapAt: NOW - 1_000 })).toMatchObject({ install: true });
  });

  it('does nothing without a download', () => {
    expect(decide({ downloadedVersion: null, managerRequested: true })).toMatchObject({ install: false, reason: expect.stringMatching(/No update/) });
  });

  it('never downgrades or reinstalls the running version', () => {
    expect(decide({ downloadedVersion: '1.1.9', latestFeedVersion: '1.1.9', managerRequested: true }).install).toBe(false);
    expect(decide({ downloadedVersion: '1.2.0', latestFeedVersion: '1.2.0', managerRequested: true }).reason).toMatch(/not newer/);
    // A pre-release of the running version is older than it.
    expect(decide({ downloadedVersion: '1.2.0-beta.3', latestFeedVersion: '1.2.0-beta.3' }).install).toBe(false);
  });

  it('does not install a download the feed has superseded', () => {
    const d = decide({ latestFeedVersion: '1.3.1', managerRequested: true });
    expect(d.install).toBe(false);
    expect(d.reason).toMatch(/superseded by 1\.3\.1/);
  });

  it('does not install a release withdrawn from the feed', () => {
    const d = decide({ latestFeedVersion: '1.2.0' });
    expect(d.install).toBe(false);
    expect(d.reason).toMatch(/withdrawn/);
  });

  it('does not install when the feed could not be re-read', () => {
    expect(decide({ latestFeedVersion: null, managerRequested: true })).toMatchObject({ install: false, reason: expect.stringMatching(/feed/) });
  });

  it('refuses versions it cannot read', () => {
    expect(decide({ downloadedVersion: 'latest' }).install).toBe(false);
    expect(decide({ latestFeedVersion: 'garbage' }).install).toBe(false);
  });

  it('uses the local hour by default', () => {
    const local = new Date(2025, 5, 3, 3, 10).getTime();
    expect(decideInstall({ ...base, now: local, lastTapAt: local - 1_000, quietHour: 3 }).install).toBe(true);
  });
});
