/**
 * A store that splits heals out loud (issue 39, item 1), in Chromium: a training store of two
 * counters (`npm start -- --counters 2`), Ravi signed in at Counter 1 and Priya at Counter 2. The
 * hub PC's nats-server is frozen (SIGSTOP: a hub PC that hangs, a switch that drops) while both
 * take the same new order and start on it; when it answers again (SIGCONT), both counters raise a
 * red alarm with its tone naming both counters and both packers, until it is settled at either one;
 * the other is told what to put back. In the timeline, the Shift figures and in Hindi too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShiftReport } from '../../src/shared/ipc';
import type { TrainingStore } from '../../src/web/store';
import { connectChromium } from '../support/shared-chromium';
import { readyTrainingStore } from './store';
import { axe, COUNT_TONES, orderPool, openCounterPage, scan, shot, tapStep, tones } from './support';

let store: TrainingStore;
let browser: Browser;
let dataDir: string;
let one: Page;
let two: Page;
let frozen: number | null = null;

const serious = (findings: Awaited<ReturnType<typeof axe>>) => findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');

/** A packer on the store's list, signed in at a counter as a badge scan would. */
async function signIn(n: 0 | 1, name: string): Promise<void> {
  const engine = store.counters[n]!.host.engine()!;
  const added = await engine.staff.add(name);
  if (!added.ok) throw new Error(added.problem.message);
  const signed = engine.staff.signInByBadge(added.value.badge);
  if (!signed.ok) throw new Error(signed.problem.message);
}

async function report(n: 0 | 1): Promise<ShiftReport> {
  const reply = await store.counters[n]!.host.handle('shift.report', {});
  if (!reply.ok) throw new Error(reply.problem.message);
  return reply.value as ShiftReport;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-twice-'));
  store = await readyTrainingStore({
    counters: 2,
    dataDir,
    sandboxOptions: { orderCount: 20 },
    host: { settingsOverride: { undoWindowMs: 0 }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500 }, hubTuning: { awayAfterMs: 3_000 } },
  });
  await signIn(0, 'Ravi');
  await signIn(1, 'Priya');
  browser = await connectChromium();
  const counting = async (page: Page): Promise<void> => {
    await page.addInitScript(COUNT_TONES);
  };
  one = await openCounterPage(browser, store.counters[0]!.url, 1024, counting);
  two = await openCounterPage(browser, store.counters[1]!.url, 1024, counting);
}, 120_000);

afterAll(async () => {
  if (frozen !== null) process.kill(frozen, 'SIGCONT');
  await browser?.close().catch(() => undefined);
  await store?.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an order taken at two counters while the hub PC hangs', () => {
  it('is raised on both counters, loudly, naming both counters and packers, until settled at either; the other puts its items back', async () => {
    const order = orderPool(store.sandbox)((o) => o.orderState === 'Created');
    for (const page of [one, two]) await scan(page, order.id);

    const pid = store.counters[0]!.host.hub.status().server?.pid;
    if (!pid) throw new Error('the hub program is not running');
    process.kill(pid, 'SIGSTOP');
    frozen = pid;
    for (const page of [one, two]) await page.locator('[data-testid="hub-notice"][data-mode="away"]').waitFor({ timeout: 20_000 });
    // Both packers take the order and start on it; each counter says the others cannot be checked.
    await one.getByTestId('claims-unchecked').waitFor();
    await tapStep(one, 'ACCEPT');
    await tapStep(two, 'ACCEPT');
    await tapStep(one, 'PACKING');
    expect(await one.getByTestId('conflict-panel').count()).toBe(0);
    const before = await Promise.all([tones(one), tones(two)]);

    process.kill(pid, 'SIGCONT');
    frozen = null;
    for (const page of [one, two]) {
      const panel = page.locator('[data-testid="conflict-panel"][data-settled="false"]');
      await panel.waitFor({ timeout: 30_000 });
      const words = await panel.innerText();
      expect(words).toContain('Ravi at Counter 1');
      expect(words).toContain('Priya at Counter 2');
      expect(words).toContain('could not see each other');
      // Red, and the big button is not offered while nobody has settled who keeps the order.
      expect(await panel.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(179, 38, 30)');
      expect(await page.getByTestId('next-step').count()).toBe(0);
    }
    // Loud: the alarm's tone on both counters, again a few seconds later.
    await expect.poll(() => tones(one), { timeout: 12_000, interval: 250 }).toBeGreaterThanOrEqual(before[0]! + 12);
    await expect.poll(() => tones(two), { timeout: 12_000, interval: 250 }).toBeGreaterThanOrEqual(before[1]! + 12);
    await shot(one, '90-packed-twice-en-1024');
    expect(serious(await axe(one))).toEqual([]);

    // In Hindi on Counter 2.
    await two.getByTestId('language-hi').click();
    await two.locator('[data-testid="conflict-panel"]').getByText('दो बार पैक हुआ', { exact: false }).waitFor();
    expect(await two.getByTestId('conflict-panel').innerText()).toContain('काउंटर 1 पर Ravi और काउंटर 2 पर Priya');
    await shot(two, '90-packed-twice-hi-1024');
    await two.getByTestId('language-en').click();

    // On another screen the dock names it.
    await one.keyboard.press('Escape');
    await one.locator('[data-testid="alarm-banner"][data-kind="conflict"]').waitFor();
    expect(await one.getByTestId('alarm-banner').innerText()).toContain(`Order ${order.id} was packed twice`);
    await one.locator(`[data-testid="order-row"][data-order-id="${order.id}"] [data-testid="mark-conflict"]`).waitFor();
    await shot(one, '91-packed-twice-queue-en-1024');
    await one.getByTestId('alarm-banner').getByRole('button').click();

    // Settled at Counter 2: Counter 1 keeps it. Counter 1 goes quiet; Counter 2 is told what to put back.
    await two.locator('[data-testid="conflict-keep"][data-counter="Counter 1"]').click();
    await one.getByTestId('conflict-panel').waitFor({ state: 'detached', timeout: 15_000 });
    const putBack = two.locator('[data-testid="conflict-panel"][data-settled="true"]');
    await putBack.waitFor({ timeout: 15_000 });
    expect(await putBack.innerText()).toContain('Counter 1 keeps this order (Priya decided at Counter 2');
    expect(await two.getByTestId('conflict-put-back').locator('li').count()).toBeGreaterThan(0);
    await shot(two, '92-packed-twice-put-back-en-1024');
    // Counter 1 holds the order and goes on with it; Counter 2 sees it there.
    await one.locator('[data-testid="next-step"][data-step="PACKED"]').waitFor({ timeout: 15_000 });
    await two.getByTestId('conflict-put-back-done').click();
    await putBack.waitFor({ state: 'detached' });
    await two.getByTestId('claim-banner').waitFor({ timeout: 15_000 });

    // Kept in the order's timeline, on both counters alike, and in the Shift figures.
    for (const page of [one, two]) {
      await page.getByTestId('order-history').click();
      const timeline = page.getByTestId('timeline');
      await timeline.locator('[data-kind="conflict"]').waitFor();
      expect(await timeline.locator('[data-kind="conflict"]').innerText()).toContain('Ravi at Counter 1 and Priya at Counter 2');
      expect(await timeline.locator('[data-kind="settled"]').innerText()).toContain('Counter 1 keeps the order');
      await page.keyboard.press('Escape');
    }
    for (const n of [0, 1] as const) expect((await report(n)).hub?.packedTwice).toBe(1);
  }, 180_000);
});
