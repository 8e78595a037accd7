/**
 * The updater against a feed that is wrong (issue 38): a rollout percentage that is not a number
 * from 0 to 100 stops the rollout and is said; 150 is everyone; a channel file cut short is said
 * as such, not as a damaged download; a channel file over 1 MB is not read whole. electron-updater's
 * own AppImageUpdater against a feed on 127.0.0.1 (test/support/update-feed.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cleanup } from '../support/engine';
import { channelYaml, installerBody } from '../support/update-feed';
import { APPIMAGE_NAME, cached, doctorLine, expectNothingInstalled, publishAppImage, settled, setup as feedSetup, type Setup, terminal as feedTerminal, type Terminal, until } from '../support/update-terminal';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const setup = (): Promise<Setup> => feedSetup(cleanup);
const terminal = (s: Setup, options?: Parameters<typeof feedTerminal>[2]): Terminal => feedTerminal(cleanup, s, options);

describe('a rollout percentage that is not a number from 0 to 100', () => {
  it.each(['stop', '"stop"', 'O', 'null', '0%', '-5', '.nan'])('stagingPercentage: %s stops the rollout: nothing is downloaded or installed, and it is said', async (raw) => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0', { stagingPercentage: raw });
    const t = terminal(s);
    await t.controller.checkNow();
    const held = await until(t, settled, 'settled');
    expect(held.state).toBe('idle');
    if (raw === '-5') expect(held.message).toMatch(/The rollout of version 1\.1\.0 is stopped; it is not installed on this terminal\./);
    else expect(held.message).toMatch(/The update feed's rollout percentage for version 1\.1\.0 is not a number from 0 to 100 \(stagingPercentage: .+\), so the rollout is taken as stopped: it is not installed on this terminal\. This version keeps working\./);
    expect(held.message).not.toMatch(/% %/);
    expect(s.feed.downloadsOf(file.name)).toBe(0);
    expect(cached(s.folders)).toEqual([]);
    expectNothingInstalled(s, t);
  });

  it('stagingPercentage 150 is everyone, as documented', async () => {
    const s = await setup();
    publishAppImage(s, '1.1.0', { stagingPercentage: 150 });
    const t = terminal(s, { context: { terminalId: 'store-1-t1', channel: 'stable', quietHour: null, sendingCount: 0, waitingCount: 0, lastTapAt: Date.UTC(2025, 0, 10, 12, 0) - 30_000 } });
    await t.controller.checkNow();
    expect(await until(t, settled, 'ready')).toMatchObject({ state: 'ready', availableVersion: '1.1.0' });
  });
});

describe('a channel file cut short, or far too large', () => {
  it('a latest-linux.yml cut off in the middle of its checksum is said as a feed cut short, and nothing is downloaded', async () => {
    const s = await setup();
    const file = { name: APPIMAGE_NAME('1.1.0'), body: installerBody('1.1.0', s.marker) };
    const whole = channelYaml({ version: '1.1.0', file });
    // The upload stopped inside the files' sha512 line: what the feed serves ends there.
    const cut = whole.slice(0, whole.indexOf('sha512: ') + 'sha512: '.length + 40);
    s.feed.publish('latest-linux', { version: '1.1.0', file });
    s.feed.publishText('latest-linux', cut);
    const t = terminal(s);
    await t.controller.checkNow();
    const failed = await until(t, settled, 'an error');
    expect(failed.state).toBe('error');
    expect(failed.message).toMatch(/The update feed's entry for version 1\.1\.0 is cut short or damaged \(the checksum of Packdesk-1\.1\.0-x86_64\.AppImage is 40 characters, not the 88 of a sha512\), so nothing was downloaded; the next check reads it again\. This version keeps working\./);
    expect(failed.message).not.toMatch(/damaged \(its checksum does not match/);
    expect(s.feed.downloadsOf(file.name)).toBe(0);
    expect(doctorLine(s)).toMatchObject({ ok: false, detail: expect.stringMatching(/cut short/) });
    expectNothingInstalled(s, t);
  });

  it('a latest-linux.yml whose connection drops half way is said as the feed cut short while it was read', async () => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0');
    s.feed.publishText('latest-linux', channelYaml({ version: '1.1.0', file }), 'cut');
    const t = terminal(s);
    await t.controller.checkNow();
    const failed = await until(t, settled, 'an error');
    expect(failed.state).toBe('error');
    expect(failed.message).toMatch(/The update feed's latest-linux\.yml was cut short while it was read, so nothing was downloaded; the next check reads it again\. This version keeps working\./);
    expect(s.feed.downloadsOf(file.name)).toBe(0);
  });

  it('a 50 MB latest-linux.yml is not read past 1 MB: said, nothing downloaded', async () => {
    const s = await setup();
    const file = publishAppImage(s, '1.1.0');
    const huge = `${channelYaml({ version: '1.1.0', file })}# ${'x'.repeat(50 * 1024 * 1024)}\n`;
    s.feed.publishText('latest-linux', huge);
    const t = terminal(s);
    await t.controller.checkNow();
    const failed = await until(t, settled, 'an error');
    expect(failed.state).toBe('error');
    expect(failed.message).toMatch(/The update feed's latest-linux\.yml is larger than 1 MB \(a real one is under 2 kB\), so it was not read and nothing was downloaded; the next check tries again\. This version keeps working\./);
    expect(s.feed.downloadsOf(file.name)).toBe(0);
  });
});
