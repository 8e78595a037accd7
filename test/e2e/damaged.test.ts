/**
 * The sync bar while the engine sets a damaged data file aside (STORE_DAMAGED). It shows only
 * for the moment the engine takes to open the file again, so the test holds the engine's own
 * events back and gives the page the status the engine sends then (the engine's current status
 * with the damage notice), and looks at it in both languages at 1024 and 1366.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../src/shared/ipc';
import { eventGate, openTerminal, shot, type Terminal } from './support';

describe('a damaged data file, as the sync bar says it', () => {
  let t: Terminal;
  const relay = eventGate();

  beforeAll(async () => {
    t = await openTerminal({ viewport: { width: 1366, height: 768 }, beforeOpen: (page) => relay.install(page) });
  });
  afterAll(async () => t?.close());

  it('is an alarm in words the staff read, in English and Hindi, at 1366 and 1024', async () => {
    const { page } = t;
    const now = await t.harness.host.handle('sync.status', {});
    if (!now.ok) throw new Error('no status');
    relay.hold();
    const damaged: SyncStatus = { ...(now.value as SyncStatus), message: 'The data file is damaged', notice: { code: 'STORE_DAMAGED' } };
    relay.send('sync.status', damaged);
    const bar = page.getByTestId('sync-bar');
    await bar.getByTestId('sync-message').filter({ hasText: "The terminal's data file is damaged" }).waitFor();
    await expect(bar.getAttribute('class')).resolves.toContain('sync-alarm');
    await expect(bar.getByTestId('sync-message').textContent()).resolves.toContain('call support');
    await shot(page, '57-store-damaged-1366-en');
    await page.setViewportSize({ width: 1024, height: 768 });
    await shot(page, '57-store-damaged-1024-en');
    await page.getByTestId('language-hi').click();
    await bar.getByTestId('sync-message').filter({ hasText: 'डेटा फ़ाइल खराब है' }).waitFor();
    await shot(page, '57-store-damaged-1024-hi');
    await page.setViewportSize({ width: 1366, height: 768 });
    await shot(page, '57-store-damaged-1366-hi');
    // The whole sentence is read: the bar wraps it rather than cutting it.
    const cut = await bar.getByTestId('sync-message').evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    expect(cut).toBe(false);
    expect(t.problems).toEqual([]);
  }, 60_000);
});
