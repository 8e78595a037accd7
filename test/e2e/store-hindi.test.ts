/**
 * Two counters in Hindi (issue 40, item 12): the hub's counter names ("Counter 1") read as Hindi
 * inside Hindi sentences ("काउंटर 1 उन्हें जाँचता है", not "Counter 1 उन्हें जाँचता है"), and at 1024
 * px the queue row of an order another counter is packing keeps its words in its row (the claim
 * chip pushed the row's facts to a third line, onto the next order). English too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainingStore } from '../../src/web/store';
import { launchChromium } from '../support/chromium';
import { spillingRows } from './geometry';
import { readyTrainingStore } from './store';
import { openCounterPage, openSettings, orderPool, scan, shot, tapStep } from './support';

let store: TrainingStore;
let browser: Browser;
let dataDir: string;
let one: Page;
let two: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-store-hindi-'));
  store = await readyTrainingStore({
    counters: 2,
    dataDir,
    sandboxOptions: { orderCount: 20 },
    host: { settingsOverride: { undoWindowMs: 0 }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500 } },
  });
  browser = await launchChromium();
  one = await openCounterPage(browser, store.counters[0]!.url, 1024);
  two = await openCounterPage(browser, store.counters[1]!.url, 1024);
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await store?.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two counters, in Hindi and English', () => {
  it('says the hub\'s counter names in Hindi inside Hindi sentences', async () => {
    await two.getByTestId('language-hi').click();
    await two.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    const intake = await two.getByTestId('sync-intake').innerText();
    expect(intake).toContain('काउंटर 1');
    expect(intake).not.toContain('Counter');
    await expect(two.getByTestId('sync-counter').innerText()).resolves.toBe('काउंटर 2');
    await shot(two, 'store-hindi-sync-bar-1024');
    // In English the names are as the hub gave them.
    await one.getByTestId('sync-counter').waitFor();
    await expect(one.getByTestId('sync-counter').innerText()).resolves.toBe('Counter 1 · store hub');
  }, 60_000);

  it("keeps a row's words in its row at 1024 when another counter is packing the order", async () => {
    const order = orderPool(store.sandbox)((o) => o.items.some((i) => i.prescriptionRequired === true));
    await scan(two, order.id);
    await tapStep(two, 'ACCEPT');
    const row = one.locator(`[data-testid="order-row"][data-order-id="${order.id}"]`);
    await row.getByTestId('mark-claimed').waitFor({ timeout: 15_000 });
    const problems: string[] = [];
    for (const language of ['en', 'hi'] as const) {
      const switchTo = one.getByTestId(`language-${language}`);
      if ((await switchTo.count()) > 0) await switchTo.click();
      await one.locator(`html[lang="${language}-IN"]`).waitFor({ state: 'attached' });
      for (const width of [1024, 1366]) {
        await one.setViewportSize({ width, height: 768 });
        await row.scrollIntoViewIfNeeded();
        problems.push(...(await spillingRows(one)).map((p) => `${language}, ${width}: ${p}`));
        // The title and one line of facts: the claim chip on that line, not on a third.
        const facts = await row.locator('.row-facts').evaluate((el) => {
          const tops = new Set([...el.children].filter((c) => c.getBoundingClientRect().width > 2).map((c) => Math.round(c.getBoundingClientRect().top / 8)));
          return tops.size;
        });
        if (facts > 1) problems.push(`${language}, ${width}: the facts take ${facts} lines`);
        await shot(one, `store-hindi-claimed-row-${language}-${width}`);
      }
    }
    if (latinCounter(await row.getByTestId('mark-claimed').innerText())) problems.push('the claim chip names the counter in Latin letters in Hindi');
    expect(problems).toEqual([]);
  }, 90_000);
});

describe("the hub PC's Counters panel", () => {
  it('keeps room between "Show the join code" and "Stop being the store hub", in both languages', async () => {
    await openSettings(one);
    const show = one.getByTestId('hub-show-code');
    const leave = one.getByTestId('hub-leave');
    await show.waitFor();
    const problems: string[] = [];
    for (const language of ['en', 'hi'] as const) {
      const switchTo = one.getByTestId(`language-${language}`);
      if ((await switchTo.count()) > 0) await switchTo.click();
      await one.locator(`html[lang="${language}-IN"]`).waitFor({ state: 'attached' });
      for (const width of [1024, 1366, 1920]) {
        await one.setViewportSize({ width, height: width === 1920 ? 1080 : 768 });
        await show.scrollIntoViewIfNeeded();
        const a = (await show.boundingBox())!;
        const b = (await leave.boundingBox())!;
        // Side by side or one above the other, never touching.
        const across = Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width));
        const down = Math.max(b.y - (a.y + a.height), a.y - (b.y + b.height));
        if (Math.max(across, down) < 8) problems.push(`${language}, ${width}: ${Math.round(Math.max(across, down))} px apart`);
        await shot(one, `store-hub-panel-${language}-${width}`);
      }
    }
    await one.setViewportSize({ width: 1024, height: 768 });
    await one.keyboard.press('Escape');
    expect(problems).toEqual([]);
  }, 60_000);
});

/** True when Hindi words carry the hub's English "Counter". */
function latinCounter(text: string): boolean {
  return /Counter/.test(text);
}
