/**
 * Settings -> Chain in Chromium, on a training store of two counters (Counter 1 the hub): the
 * manager links the store hub to a practice centre on 127.0.0.1 (a real nats-server with a leaf
 * node port; training allows a plain address and no credentials) and sees "Linked"; a file that
 * is not a credentials file gets a clear error beside its field and nothing is saved; Counter 2
 * says only the hub PC links, and shows the hub's word on the link; Unlink. English at 1024, Hindi
 * at 1920, screenshots of both; axe finds nothing serious.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTrainingStore, type TrainingStore } from '../../src/web/store';
import { connectChromium } from '../support/shared-chromium';
import { Cleanup } from '../support/engine';
import { type Central, startCentral } from '../fleet/fleet-world';
import { axe, MANAGER_PIN, shot, until, openCounterPage, openSettings } from './support';

let store: TrainingStore;
let browser: Browser;
let dataDir: string;
let central: Central;
const cleanup = new Cleanup();

function counterPage(n: 0 | 1, width: number): Promise<Page> {
  return openCounterPage(browser, store.counters[n]!.url, width);
}

async function openChain(page: Page): Promise<void> {
  await openSettings(page);
  await page.getByTestId('chain-panel').scrollIntoViewIfNeeded();
}

const serious = async (page: Page) => (await axe(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-chain-'));
  central = await startCentral(cleanup);
  store = await startTrainingStore({ counters: 2, dataDir, sandboxOptions: { orderCount: 6 }, host: { hubTuning: { awayAfterMs: 3_000 } } });
  for (const c of store.counters) {
    const pin = await c.host.handle('pin.set', { newPin: MANAGER_PIN });
    if (!pin.ok) throw new Error(pin.problem.message);
  }
  await until('both counters connected', () => store.counters.every((c) => c.host.hub.status().mode === 'connected'), 20_000);
  browser = await connectChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await store?.close().catch(() => undefined);
  await cleanup.run();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Settings -> Chain', () => {
  it('on the hub counter: a bad file is refused beside its field, then the store links to the centre and unlinks', async () => {
    const page = await counterPage(0, 1024);
    await openChain(page);
    await page.locator('[data-testid="chain-state"][data-state="none"]').waitFor();
    expect(await page.getByTestId('chain-training').count()).toBe(1);

    // Not a credentials file: said beside the field, nothing linked.
    const junk = join(dataDir, 'not-creds.txt');
    writeFileSync(junk, 'hello, this is a shopping list\n');
    await page.getByTestId('chain-url').fill(central.leafUrl);
    await page.getByTestId('chain-store-id').fill('store 12');
    await page.getByTestId('chain-creds').setInputFiles(junk);
    await page.getByTestId('chain-save').click();
    expect(await page.getByTestId('chain-error-storeId').innerText()).toContain('letters, digits, - and _ only');
    expect(await page.getByTestId('chain-error-credentials').innerText()).toContain('not a NATS credentials file');
    await shot(page, '80-chain-errors-en-1024');
    expect(await serious(page)).toEqual([]);
    const after = await store.counters[0]!.host.handle('chain.status', {});
    expect(after.ok && (after.value as { state: string }).state).toBe('none');

    // Training: a plain address and no credentials.
    await page.getByTestId('chain-store-id').fill('store-12');
    await page.getByTestId('chain-creds').setInputFiles([]);
    await page.getByTestId('chain-save').click();
    await page.locator('[data-testid="chain-state"][data-state="linked"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('chain-state').innerText()).toMatch(/^Linked to 127\.0\.0\.1:\d+ as store-12 since /);
    await shot(page, '81-chain-linked-en-1024');
    expect(await serious(page)).toEqual([]);

    // Counter 2 is not the hub: it says so, and shows the hub's word on the link.
    const two = await counterPage(1, 1024);
    await openChain(two);
    await two.getByTestId('chain-not-hub').waitFor();
    expect(await two.getByTestId('chain-not-hub').innerText()).toContain('Only the store hub PC links to the chain');
    await two.locator('[data-testid="chain-state"][data-state="linked"]').waitFor({ timeout: 15_000 });
    expect(await two.getByTestId('chain-form').count()).toBe(0);
    await two.close();

    await page.getByTestId('chain-unlink').click();
    await page.locator('[data-testid="chain-state"][data-state="none"]').waitFor({ timeout: 30_000 });
    // The message follows the state by a moment (the link's answer, then the hub's restart said).
    await page.getByTestId('chain-message').filter({ hasText: 'Unlinked' }).waitFor();
    expect(await page.getByTestId('chain-message').innerText()).toContain('Unlinked');
    await page.close();
  }, 120_000);

  it('in Hindi at 1920: the form, an error and the linked state', async () => {
    const page = await counterPage(0, 1920);
    await page.getByTestId('language-hi').click();
    await page.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await openChain(page);
    await page.locator('[data-testid="chain-state"][data-state="none"]').waitFor();
    expect(await page.getByTestId('chain-state').innerText()).toBe('चेन से नहीं जुड़ा है।');
    await page.getByTestId('chain-save').click();
    expect(await page.getByTestId('chain-error-url').innerText()).toContain('केंद्र का पता');
    await shot(page, '82-chain-errors-hi-1920');
    await page.getByTestId('chain-url').fill(central.leafUrl);
    await page.getByTestId('chain-store-id').fill('store-12');
    await page.getByTestId('chain-save').click();
    await page.locator('[data-testid="chain-state"][data-state="linked"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('chain-state').innerText()).toContain('जुड़ा है');
    await shot(page, '83-chain-linked-hi-1920');
    expect(await serious(page)).toEqual([]);
    await page.getByTestId('chain-unlink').click();
    await page.locator('[data-testid="chain-state"][data-state="none"]').waitFor({ timeout: 30_000 });
    await page.close();
  }, 120_000);
});
