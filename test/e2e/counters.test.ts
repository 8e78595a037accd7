/**
 * Two counters of one store on a store hub, in Chromium: a training store as `npm start --
 * --counters 2` makes it (one practice order service, Counter 1 the hub on 127.0.0.1, Counter 2
 * joined by its join code). An order accepted on Counter 1 shows on Counter 2 at once as "Being
 * packed at Counter 1" with Take over instead of the big button; Take over moves it; Settings ->
 * Counters lists both; the hub PC gone: Counter 2 says so and takes in orders itself. Each screen in
 * English at 1024 and in Hindi at 1920; axe finds nothing serious.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTrainingStore, type TrainingStore } from '../../src/web/store';
import { execFileSync } from 'node:child_process';
import { recordPrintRequests, untilPrintRequests } from '../support/chromium';
import { connectChromium } from '../support/shared-chromium';
import { pdfText, printToPdf } from './pdf';
import { firstIntakePass } from '../support/intake';
import { appliedTo, axe, MANAGER_PIN, orderPool, scan, shot, tapStep, until, openCounterPage, openSettings } from './support';

let store: TrainingStore;
let browser: Browser;
let dataDir: string;
let one: Page;
let two: Page;
/** Counter 2 again, in Hindi at 1920 (from the Hindi test on). */
let wide: Page | undefined;
let next: ReturnType<typeof orderPool>;

function counterPage(n: 0 | 1, width: number): Promise<Page> {
  return openCounterPage(browser, store.counters[n]!.url, width, recordPrintRequests);
}

async function inHindi(page: Page): Promise<void> {
  await page.getByTestId('language-hi').click();
  await page.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
}

async function unlockSettings(page: Page): Promise<void> {
  await openSettings(page);
  await page.getByTestId('terminal-form').waitFor();
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-store-'));
  store = await startTrainingStore({
    counters: 2,
    dataDir,
    sandboxOptions: { orderCount: 30 },
    host: { settingsOverride: { undoWindowMs: 1500 }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500 }, hubTuning: { awayAfterMs: 3_000 } },
  });
  for (const c of store.counters) {
    const pin = await c.host.handle('pin.set', { newPin: MANAGER_PIN });
    if (!pin.ok) throw new Error(pin.problem.message);
  }
  // Orders reach every counter through the hub from the one counter that polls.
  await until('both counters connected, one of them polling', () => store.counters.every((c) => c.host.hub.status().mode === 'connected') && store.counters[0]!.host.hub.status().intakeHolder !== null, 20_000);
  const holder = store.counters.find((c) => c.host.hub.status().intakeHolder?.counterId === c.host.hub.status().counterId)!;
  await firstIntakePass(holder.host);
  next = orderPool(store.sandbox);
  const expected = store.sandbox.orders().length;
  await until('every order on both counters', () => store.counters.every((c) => (c.host.engine()?.listOrders().length ?? 0) >= expected), 30_000);
  browser = await connectChromium();
  one = await counterPage(0, 1024);
  two = await counterPage(1, 1024);
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await store?.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two counters of one store', () => {
  it('show an order accepted on Counter 1 as being packed there, on Counter 2 at once, with Take over in place of the big button', async () => {
    const order = next((o) => o.orderState === 'Created');
    await scan(one, order.id);
    await scan(two, order.id);
    await tapStep(one, 'ACCEPT');
    const banner = two.getByTestId('claim-banner');
    await banner.waitFor({ timeout: 3_000 });
    expect(await banner.innerText()).toContain('Counter 1');
    expect(await two.getByTestId('next-step').count()).toBe(0);
    await shot(two, '70-claim-banner-en-1024');
    expect((await axe(two)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
    // Counter 2's own tap on it is refused in words, and nothing reaches the service from there.
    await until(`${order.id} accepted at the service`, () => appliedTo(store.sandbox, order.id).length >= 1);
    // Take over: confirmed, then the big button is Counter 2's, and Counter 1 shows the claim moved.
    await two.getByTestId('take-over').click({ timeout: 5_000 });
    await two.getByTestId('take-over-confirm').click({ timeout: 5_000 });
    await two.getByTestId('next-step').waitFor({ timeout: 3_000 });
    await one.getByTestId('claim-banner').waitFor({ timeout: 3_000 });
    expect(await one.getByTestId('claim-banner').innerText()).toContain('Counter 2');
    // Counter 1's packer is told in words, not left to notice the banner.
    await one.getByText(`Counter 2 took order ${order.id} over`).waitFor({ timeout: 3_000 });
    await tapStep(two, 'PACKING');
    await until(`${order.id} packing at the service`, () => appliedTo(store.sandbox, order.id).length >= 2, 10_000);
  }, 60_000); // Longer than its steps' own timeouts together, so a step that never comes says which it was.

  it('list both counters under Settings -> Counters, with who takes in orders', async () => {
    await unlockSettings(one);
    await one.getByTestId('counters-table').waitFor();
    await one.locator('[data-testid="counter-row"][data-present="true"]').nth(1).waitFor({ timeout: 10_000 });
    await one.getByTestId('counters-panel').scrollIntoViewIfNeeded();
    await shot(one, '71-counters-en-1024');
    expect((await axe(one)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
  });

  it('print the join slip: the code in words and as a QR code a scanner reads back', async () => {
    await one.getByTestId('hub-show-code').click();
    const shown = (await one.getByTestId('join-code-text').innerText()).trim();
    expect(shown).toBe(store.joinCode);
    await shot(one, '74-join-code-en-1024');
    await one.getByTestId('join-slip-print').click();
    await untilPrintRequests(one, 1);
    const pdf = await printToPdf(one, dataDir, 'join-slip');
    // The code wraps at its dashes on an 80 mm roll (and pdftotext joins a line ending in a dash
    // to the next without it): compared without dashes and spaces.
    const letters = (text: string): string => text.replace(/[\s-]/g, '');
    expect(letters(pdfText(pdf))).toContain(letters(store.joinCode));
    const png = join(dataDir, 'join-slip');
    execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', pdf, png]);
    const read = execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', `${png}.png`], { encoding: 'utf8' }).trim();
    expect(read).toBe(store.joinCode);
    await one.keyboard.press('Escape');
  });

  it('in Hindi at 1920: the claim banner and the counters screen', async () => {
    wide = await counterPage(1, 1920);
    await inHindi(wide);
    const order = next((o) => o.orderState === 'Created');
    await scan(one, order.id);
    await tapStep(one, 'ACCEPT');
    await scan(wide, order.id);
    await wide.getByTestId('claim-banner').waitFor({ timeout: 3_000 });
    expect(await wide.getByTestId('claim-banner').innerText()).toContain('पैक हो रहा है');
    await shot(wide, '72-claim-banner-hi-1920');
    expect((await axe(wide)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
    await wide.keyboard.press('Escape');
    await unlockSettings(wide);
    await wide.locator('[data-testid="counter-row"][data-present="true"]').nth(1).waitFor({ timeout: 10_000 });
    expect(await wide.getByTestId('counters-panel').innerText()).toContain('काउंटर');
    await wide.getByTestId('counters-panel').scrollIntoViewIfNeeded();
    await shot(wide, '71-counters-hi-1920');
    expect((await axe(wide)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
  });

  it('with the hub PC gone: Counter 2 says so within 15 s and takes in orders itself', async () => {
    const counterTwo = store.counters[1]!.host;
    const started = Date.now();
    // Counter 1, the hub PC, shuts down (the hub process with it).
    await store.counters[0]!.close();
    await two.locator('[data-testid="hub-notice"][data-mode="away"]').waitFor({ timeout: 15_000 });
    expect(Date.now() - started).toBeLessThan(15_000);
    await shot(two, '73-hub-away-en-1024');
    const hindi = wide!;
    await hindi.locator('[data-testid="hub-notice"][data-mode="away"]').waitFor({ timeout: 5_000 });
    expect(await hindi.getByTestId('hub-notice').innerText()).toContain('स्टोर हब');
    await shot(hindi, '73-hub-away-hi-1920');
    expect((await axe(hindi)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
    expect(counterTwo.hub.status().mode).toBe('away');
    // Counter 2 polls the order service itself now: no new order waits for the hub.
    const changesCalls = (): number => store.sandbox.readLog().filter((r) => r.call === 'changes').length;
    const before = changesCalls();
    await counterTwo.handle('intake.checkNow', {});
    await until('Counter 2 asks the service for changes itself', () => changesCalls() > before, 15_000).catch(async (e: unknown) => {
      // Seen once in CI, not since: say what Counter 2's intake and hub link were doing.
      const intake = await counterTwo.handle('intake.status', {});
      const hub = counterTwo.hub.status();
      throw new Error(`${e instanceof Error ? e.message : String(e)}; Counter 2's intake: ${JSON.stringify(intake)}; its hub: ${JSON.stringify({ mode: hub.mode, since: hub.since, problem: hub.problem })}`);
    });
    expect(counterTwo.engine()).not.toBeNull();
  });
});
