/**
 * Which counter is this? (issue 40, item 7): in a store of two counters, the sync bar names this
 * counter ("Counter 1 · store hub" on the hub PC, "Counter 2" on the other), at 1024x768, 1366x768
 * and 1920x1080 in English and Hindi, whole and inside the bar's two lines. Before, nothing on
 * screen said which counter a packer stood at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainingStore } from '../../src/web/store';
import { launchChromium } from '../support/chromium';
import { readyTrainingStore } from './store';
import { openCounterPage, shot } from './support';

let store: TrainingStore;
let browser: Browser;
let dataDir: string;
let pages: Page[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-counter-name-'));
  store = await readyTrainingStore({
    counters: 2,
    dataDir,
    sandboxOptions: { orderCount: 20 },
    host: { settingsOverride: { undoWindowMs: 0 }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500 } },
  });
  browser = await launchChromium();
  pages = [await openCounterPage(browser, store.counters[0]!.url, 1024), await openCounterPage(browser, store.counters[1]!.url, 1024)];
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await store?.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the sync bar names this counter", () => {
  it('says "Counter 1 · store hub" on the hub PC and "Counter 2" on the other, whole, in two lines, at every size and language', async () => {
    const want = {
      en: ['Counter 1 · store hub', 'Counter 2'],
      hi: ['काउंटर 1 · स्टोर हब', 'काउंटर 2'],
    };
    const problems: string[] = [];
    for (const language of ['en', 'hi'] as const) {
      for (const [n, page] of pages.entries()) {
        const switchTo = page.getByTestId(`language-${language}`);
        if ((await switchTo.count()) > 0) await switchTo.click();
        await page.locator(`html[lang="${language}-IN"]`).waitFor({ state: 'attached' });
        for (const size of [
          { width: 1024, height: 768 },
          { width: 1366, height: 768 },
          { width: 1920, height: 1080 },
        ]) {
          await page.setViewportSize(size);
          const name = page.getByTestId('sync-counter');
          await name.waitFor();
          const text = await name.innerText();
          const where = `counter ${n + 1}, ${language}, ${size.width}`;
          if (text !== want[language][n]) problems.push(`${where}: "${text}"`);
          const look = await page.evaluate(() => {
            const el = document.querySelector<HTMLElement>('[data-testid="sync-counter"]')!;
            const bar = document.querySelector<HTMLElement>('[data-testid="sync-bar"]')!;
            const r = el.getBoundingClientRect();
            const lines = new Set([...bar.querySelectorAll<HTMLElement>('.sync-link, .sync-item')].map((i) => Math.round(i.getBoundingClientRect().top / 10))).size;
            return { cut: el.scrollWidth > el.clientWidth + 1, inside: r.left >= 0 && r.right <= window.innerWidth, lines };
          });
          if (look.cut || !look.inside) problems.push(`${where}: cut or outside the window`);
          if (look.lines > 2) problems.push(`${where}: the sync bar takes ${look.lines} lines`);
          await shot(page, `counter-name-${n + 1}-${language}-${size.width}`);
        }
        await page.setViewportSize({ width: 1024, height: 768 });
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
