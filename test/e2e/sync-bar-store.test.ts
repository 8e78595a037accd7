/**
 * The sync bar tells each counter the same story (issue 39, item 6), in Chromium: a training store
 * of two counters on a real hub. The order service goes away for a while (connections refused):
 * the counter that takes in orders and the other one both say the service is away, neither says
 * "Orders come in through the store hub", and nothing says "0 taps are kept". When the service
 * answers again, new orders are checked within one poll interval of "Online", not at the end of the
 * backoff the outage built up (the intake's jitter is held at its longest, so that backoff is long).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntakeStatus } from '../../src/shared/ipc';
import type { TrainingStore } from '../../src/web/store';
import { connectChromium } from '../support/shared-chromium';
import { readyTrainingStore } from './store';
import { openCounterPage, shot, until } from './support';

const INTERVAL_MS = 2_000;

let store: TrainingStore;
let browser: Browser;
let dataDir: string;
let pages: Page[];

async function outage(mode: 'refuse' | 'none'): Promise<void> {
  const res = await fetch(`${store.sandbox.adminUrl}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outage: mode }) });
  if (!res.ok) throw new Error(`faults refused: ${res.status}`);
}

const holderIndex = (): number => store.counters.findIndex((c) => c.host.hub.status().intakeHolder?.counterId === c.host.hub.status().counterId);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-syncbar-'));
  store = await readyTrainingStore({
    counters: 2,
    dataDir,
    sandboxOptions: { orderCount: 10, changesMinIntervalMs: 0 },
    host: {
      settingsOverride: { undoWindowMs: 0, intakeIntervalMs: INTERVAL_MS },
      // The longest of each backoff's jitter: an outage of 15 s leaves intake's next try 16 s or more away.
      engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500, intakeMinIntervalMs: 200, random: () => 0.99 },
    },
  });
  browser = await connectChromium();
  pages = [await openCounterPage(browser, store.counters[0]!.url, 1024), await openCounterPage(browser, store.counters[1]!.url, 1024)];
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await store?.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the sync bar of every counter', () => {
  it('says the order service is away on every counter during an outage, never "0 taps are kept", and checks for orders within one interval of its return', async () => {
    const holder = holderIndex();
    expect(holder).toBeGreaterThanOrEqual(0);
    const other = 1 - holder;
    await outage('refuse');
    try {
      for (const page of pages) await page.locator('[data-testid="sync-connectivity"]').filter({ hasText: 'Offline' }).waitFor({ timeout: 20_000 });
      // The counter that takes in orders says it cannot check; the other says the same, naming who checks.
      await pages[holder]!.getByTestId('sync-intake').filter({ hasText: 'New orders cannot be checked' }).waitFor({ timeout: 10_000 });
      const away = pages[other]!.locator('[data-testid="sync-intake"][data-hub="elsewhere-away"]');
      await away.waitFor({ timeout: 15_000 });
      expect(await away.innerText()).toContain('The order service does not answer');
      for (const page of pages) {
        const bar = await page.getByTestId('sync-bar').innerText();
        expect(bar).not.toContain('Orders come in through the store hub');
        expect(bar).not.toMatch(/\b0 taps? (are|is) kept/);
        expect(await page.getByTestId('sync-message').innerText()).toContain('Taps made now are kept');
      }
      await shot(pages[other]!, '100-sync-outage-elsewhere-en-1024');
      await pages[other]!.getByTestId('language-hi').click();
      await away.getByText('ऑर्डर सर्विस जवाब नहीं दे रही', { exact: false }).waitFor();
      expect(await pages[other]!.getByTestId('sync-message').innerText()).toContain('अभी किए गए टैप सुरक्षित रहेंगे');
      await shot(pages[other]!, '100-sync-outage-elsewhere-hi-1024');
      await pages[other]!.getByTestId('language-en').click();
      // Until intake's backoff has grown past a few intervals: its next try more than 15 s after its last
      // (the holder's own intake status), far beyond the one interval the test allows once Online.
      await until('intake backed off more than 15 s', async () => {
        const status = await store.counters[holder]!.host.handle('intake.status', {});
        if (!status.ok) throw new Error(status.problem.message);
        const { nextAt, lastTriedAt } = status.value as IntakeStatus;
        return nextAt !== null && lastTriedAt !== null && nextAt - lastTriedAt > 15_000;
      }, 60_000);
    } finally {
      await outage('none');
    }

    const page = pages[holder]!;
    await page.locator('[data-testid="sync-connectivity"]').filter({ hasText: 'Online' }).waitFor({ timeout: 30_000 });
    const onlineAt = Date.now();
    // New orders are checked within one poll interval of Online (and a little for the page to hear it).
    await page.locator('[data-testid="sync-intake"]:not(.sync-problem)').filter({ hasText: 'Orders checked' }).waitFor({ timeout: INTERVAL_MS + 3_000 });
    expect(Date.now() - onlineAt).toBeLessThan(INTERVAL_MS + 3_000);
    await until('the other counter back to the store hub line', async () => (await pages[other]!.getByTestId('sync-intake').getAttribute('data-hub')) === 'elsewhere', 15_000);
  }, 120_000);
});
