/**
 * Two counters' words (issue 40): the sync bar names this counter ("Counter 1 · store hub" on the
 * hub PC, "Counter 2" on the other) at 1024x768, 1366x768 and 1920x1080, whole and inside the
 * bar's two lines (item 7); the hub's counter names ("Counter 1") read as Hindi inside Hindi
 * sentences ("काउंटर 1 उन्हें जाँचता है", not "Counter 1 उन्हें जाँचता है"), and at 1024 px the queue
 * row of an order another counter is packing keeps its title and one line of facts (the claim chip
 * took a third line) (item 12); the hub PC's Counters panel keeps room between its two buttons
 * (item 11). English and Hindi.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainingStore } from '../../src/web/store';
import { spillingRows } from './geometry';
import { type TwoCountersOnScreens, twoCountersOnScreens } from './store';
import { openSettings, orderPool, scan, shot, tapStep, showLanguage } from './support';

let store: TrainingStore;
let one: Page;
let two: Page;

let screens: TwoCountersOnScreens;

beforeAll(async () => {
  screens = await twoCountersOnScreens({ name: 'store-words', sandboxOptions: { orderCount: 20 } });
  ({ store, one, two } = screens);
}, 120_000);

afterAll(() => screens?.close());

describe("the sync bar names this counter", () => {
  it('says "Counter 1 · store hub" on the hub PC and "Counter 2" on the other, whole, in two lines, at every size and language', async () => {
    const want = {
      en: ['Counter 1 · store hub', 'Counter 2'],
      hi: ['काउंटर 1 · स्टोर हब', 'काउंटर 2'],
    };
    const problems: string[] = [];
    for (const language of ['en', 'hi'] as const) {
      for (const [n, page] of [one, two].entries()) {
        await showLanguage(page, language);
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

describe('two counters, in Hindi and English', () => {
  it('says the hub\'s counter names in Hindi inside Hindi sentences', async () => {
    await showLanguage(two, 'hi');
    const intake = await two.getByTestId('sync-intake').innerText();
    expect(intake).toContain('काउंटर 1');
    expect(intake).not.toContain('Counter');
    await expect(two.getByTestId('sync-counter').innerText()).resolves.toBe('काउंटर 2');
    await shot(two, 'store-hindi-sync-bar-1024');
    // In English the names are as the hub gave them.
    await showLanguage(one, 'en');
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
      await showLanguage(one, language);
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
      await showLanguage(one, language);
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
