/**
 * What the app shows after a damaged data file was salvaged: the browser harness starts on a data
 * folder whose training data file has really damaged pages; the sync bar leads with how many taps
 * were recovered, and the outbox shows the whole notice (set-aside file, taps that could not be read).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox';
import { MemoryVault } from '../../src/main/core/auth';
import { createEngine } from '../../src/main/core/engine';
import { damagePages, leafPages } from '../support/damage';
import { openTerminal, shot, type Terminal } from './support';

const offline = { update: async () => ({ kind: 'transient' as const, message: 'offline', noAnswer: false }), probe: async () => false };

/** A staging data file with 120 queued taps, two of its outbox pages then overwritten (training starts afresh each time). */
async function leaveDamagedFile(dataDir: string): Promise<void> {
  const engineDir = join(dataDir, 'environments', 'staging');
  const engine = createEngine({ dataDir: engineDir, sender: offline, terminalId: 'T-old', undoWindowMs: 60_000 });
  for (let i = 0; i < 120; i++) engine.submitTap(`ORD-OLD-${1000 + i}`, { kind: 'orderState', state: 'ACCEPTED' });
  await engine.stop();
  const file = join(engineDir, 'packdesk.sqlite');
  const leaves = leafPages(file, 'outbox');
  damagePages(file, [leaves[1]!, leaves[2]!]);
}

describe('a salvaged data file, on screen', () => {
  let terminal: Terminal;
  let box: Sandbox;
  beforeAll(async () => {
    box = await startSandbox({ orderCount: 10 });
    terminal = await openTerminal({
      prepare: leaveDamagedFile,
      settings: { environment: 'staging', authUrl: box.url, baseUrl: box.url },
      vaultFor: () => new MemoryVault({ credentials: { clientId: 'training', clientSecret: 'training-secret' } }),
      sandbox: box,
    });
  }, 60_000);
  afterAll(async () => {
    await terminal?.close();
    await box?.close();
  });

  it('the sync bar leads with the taps recovered; the outbox shows the whole notice', async () => {
    const { page } = terminal;
    const line = page.getByTestId('sync-message');
    await expect.poll(async () => (await line.textContent()) ?? '', { timeout: 30_000 }).toMatch(/^The terminal's data file was damaged and a new one was started\. Taps recovered: \d+; could not be read: \d+\./);
    // Taps were lost and support is needed: the bar is in alarm, though the connection is fine.
    await expect.poll(async () => (await page.getByTestId('sync-connectivity').textContent())?.trim(), { timeout: 30_000 }).toBe('Online');
    await expect(page.getByTestId('sync-bar').getAttribute('class')).resolves.toContain('sync-alarm');
    await shot(page, 'salvage-sync-bar');
    // On a loaded machine a click can land while the bar redraws; a manager would tap again.
    const notice = page.locator('.outbox-message');
    for (let attempt = 1; ; attempt++) {
      await page.getByTestId('sync-bar').click();
      const opened = await notice.waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (opened) break;
      if (attempt === 3) throw new Error('the outbox did not open after three taps on the sync bar');
    }
    // The manager reads the notice in words; the engine's whole sentence is under the details for support.
    const details = page.getByTestId('outbox-message-details');
    await details.locator('summary').click();
    const text = (await details.textContent()) ?? '';
    expect(text).toMatch(/Recovered (\d+) of 120 taps \(\d+ still to send\)[^.]*; (\d+) could not be read and were not sent by this terminal/);
    expect(text).toMatch(/set aside as .*packdesk\.sqlite\.broken-/);
    const [, recovered, lost] = /Recovered (\d+) of 120 taps[^;]*; (\d+) could not/.exec(text)!;
    expect(Number(recovered) + Number(lost)).toBe(120);
    expect(Number(lost)).toBeGreaterThan(0);
    await shot(page, 'salvage-outbox');
    expect(terminal.problems).toEqual([]);
  }, 90_000);
});
