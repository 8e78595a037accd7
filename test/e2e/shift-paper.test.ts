/**
 * The printed shift summary on an 80 mm roll (issue 40, item 9), in a store of two counters, in
 * English and Hindi: every packer's and counter's name prints whole on one line (it broke mid-word,
 * "Priy/a", "Cou/nter/1"), and every table stays inside the roll's printed width (the share tables
 * were wider than the roll). Read back with pdftotext (the words and where each is drawn) and kept
 * as a PNG to look at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainingStore } from '../../src/web/store';
import { recordPrintRequests } from '../support/chromium';
import { connectChromium } from '../support/shared-chromium';
import { keepAsPng, layoutText, pdfText, pdfWords, printToPdf } from './pdf';
import { readyTrainingStore } from './store';
import { MANAGER_PIN, openCounterPage, openFromTopBar, orderPool, scan, tapStep, showLanguage } from './support';

/** Two packers: a short name and a long one (a South Indian name in full). */
const PACKERS = [
  { name: 'Priya', pin: '5791' },
  { name: 'Venkataraman Subramanian', pin: '6802' },
];

let store: TrainingStore;
let browser: Browser;
let dataDir: string;
let one: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-shift-paper-'));
  store = await readyTrainingStore({
    counters: 2,
    dataDir,
    sandboxOptions: { orderCount: 20 },
    host: { settingsOverride: { undoWindowMs: 0, paper: 'thermal80' }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500 } },
  });
  browser = await connectChromium();
  // Its window.print() recorded, not run: the test prints the same page to PDF.
  one = await openCounterPage(browser, store.counters[0]!.url, 1024, recordPrintRequests);
  const two = await openCounterPage(browser, store.counters[1]!.url, 1024);
  const take = orderPool(store.sandbox);
  const [hub, other] = store.counters;
  for (const p of PACKERS) {
    const added = await hub!.host.handle('staff.add', { pin: MANAGER_PIN, name: p.name, packerPin: p.pin });
    if (!added.ok) throw new Error(added.problem.message);
  }
  // Each packer accepts an order at each counter: both counters and both packers have rows.
  for (const [page, host] of [
    [one, hub!.host],
    [two, other!.host],
  ] as const) {
    for (const p of PACKERS) {
      const signed = await host.handle('staff.signIn', { packerPin: p.pin });
      if (!signed.ok) throw new Error(signed.problem.message);
      const order = take();
      await scan(page, order.id);
      await tapStep(page, 'ACCEPT');
      await page.keyboard.press('Escape');
    }
  }
  await two.close();
}, 180_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await store?.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the shift summary on an 80 mm roll', () => {
  for (const language of ['en', 'hi'] as const) {
    it(`prints every name whole and every table inside the roll (${language})`, async () => {
      await showLanguage(one, language);
      await openFromTopBar(one, 'shift');
      await one.locator('[data-testid="shift-counters"] tbody tr').nth(1).waitFor({ timeout: 20_000 });
      await one.getByTestId('shift-print').click();
      await one.locator('[data-testid="print-root"][data-document="shiftSummary"]:not([data-height-mm=""])').waitFor({ state: 'attached' });
      const pdf = await printToPdf(one, dataDir, `shift-paper-${language}`);
      keepAsPng(pdf, `shift-paper-80mm-${language}`);

      // Each name whole on one printed line.
      const lines = layoutText(pdf).split('\n');
      const counters = language === 'en' ? ['Counter 1', 'Counter 2'] : ['काउंटर 1', 'काउंटर 2'];
      for (const name of [...PACKERS.map((p) => p.name), ...counters])
        expect(lines.some((l) => l.replace(/\s+/g, ' ').includes(name)), `"${name}" whole on a line of:\n${lines.join('\n')}`).toBe(true);
      expect(pdfText(pdf)).not.toMatch(/Priy a|Cou nter|Venkat\S* ?\n/);

      // Every word inside the printed width: 80 mm less the 4 mm margins, in points.
      const words = pdfWords(pdf);
      const margin = (4 / 25.4) * 72;
      const outside = words.filter((w) => w.xMin < margin - 1 || w.xMax > w.pageWidth - margin + 1).map((w) => `"${w.word}" ${Math.round(w.xMin)}-${Math.round(w.xMax)} of ${Math.round(w.pageWidth)}`);
      expect(outside).toEqual([]);
      await one.keyboard.press('Escape');
    }, 60_000);
  }
});
