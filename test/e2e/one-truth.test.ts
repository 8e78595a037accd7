/**
 * One truth on every counter (issue 39, item 4), in Chromium: a training store of two counters on
 * a real hub, Ravi packing at Counter 1 (a unit cut, then packed). At Counter 2 the order's timeline
 * lists Counter 1's taps with counter and packer, items by their names; a slip reprinted there says
 * "Packed by Ravi" and "was 3: Item unavailable" as Counter 1's would; a tap waiting at Counter 1 is
 * worded in Counter 2's language; the printed shift summary and the CSV name counters by their
 * names, never by terminal ids.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/shared/protocol';
import type { TrainingStore } from '../../src/web/store';
import { recordPrintRequests } from '../support/chromium';
import { connectChromium } from '../support/shared-chromium';
import { pdfText, printToPdf } from './pdf';
import { readyTrainingStore } from './store';
import { appliedTo, downloadText, openCounterPage, orderPool, scan, shot, until, openFromTopBar } from './support';

let store: TrainingStore;
let browser: Browser;
let dataDir: string;
let two: Page;
let terminals: string[];

const storeOf = (o: Order): string => o.fulfillments.find((f) => f.type === 'STORE')!.fulfillmentId;

async function tapAt(n: 0 | 1, orderId: string, input: unknown): Promise<void> {
  const reply = await store.counters[n]!.host.handle('taps.submit', { orderId, input });
  if (!reply.ok) throw new Error(reply.problem.message);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'packdesk-e2e-truth-'));
  store = await readyTrainingStore({
    counters: 2,
    dataDir,
    sandboxOptions: { orderCount: 20 },
    host: { settingsOverride: { undoWindowMs: 0 }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500 } },
  });
  const engine = store.counters[0]!.host.engine()!;
  const added = await engine.staff.add('Ravi');
  if (!added.ok) throw new Error(added.problem.message);
  if (!engine.staff.signInByBadge(added.value.badge).ok) throw new Error('Ravi could not sign in');
  terminals = store.counters.map((c) => c.host.info().terminalId);
  browser = await connectChromium();
  two = await openCounterPage(browser, store.counters[1]!.url, 1024, recordPrintRequests);
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await store?.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an order packed at Counter 1, seen from Counter 2', () => {
  let order: Order;
  let cut: Order['items'][number];

  it("lists Counter 1's taps in its timeline with counter and packer, items by their names", async () => {
    order = orderPool(store.sandbox)((o) => o.orderState === 'Created' && o.items.some((i) => i.quantity.count >= 3) && o.fulfillments.some((f) => f.type === 'DELIVERY'));
    cut = order.items.find((i) => i.quantity.count >= 3)!;
    await tapAt(0, order.id, { kind: 'orderState', state: 'ACCEPTED' });
    await tapAt(0, order.id, { kind: 'fulfilment', fulfilmentId: storeOf(order), state: 'PACKING' });
    await tapAt(0, order.id, { kind: 'units', itemId: cut.itemId, units: cut.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' });
    await tapAt(0, order.id, { kind: 'fulfilment', fulfilmentId: storeOf(order), state: 'PACKED' });
    await until(`${order.id} packed at the service`, () => appliedTo(store.sandbox, order.id).length >= 4, 15_000);

    await scan(two, order.id);
    await two.getByTestId('order-history').click();
    const timeline = two.getByTestId('timeline');
    await timeline.locator('[data-kind="tap"]').nth(3).waitFor({ timeout: 10_000 });
    const text = await timeline.innerText();
    expect(text).toContain('Accept order: tapped · Ravi at Counter 1');
    expect(text).toContain(`${cut.name}`);
    expect(text).toContain('Mark packed: tapped · Ravi at Counter 1');
    for (const id of terminals) expect(text).not.toContain(id);
    expect(text).not.toContain(cut.itemId);
    await shot(two, '96-timeline-other-counter-en-1024');
  });

  it('reprints its slip with "Packed by Ravi" and the cut, as Counter 1 would', async () => {
    await two.getByTestId('reprint-slip').click();
    const slip = two.locator('[data-testid="print-root"][data-document="packingSlip"]');
    await slip.getByTestId('slip-packed-by').waitFor({ state: 'attached', timeout: 10_000 });
    const text = pdfText(await printToPdf(two, dataDir, 'slip-counter-2'));
    expect(text).toContain('Ravi');
    expect(text).toContain(`was ${cut.quantity.count}: Item unavailable`);
    await two.keyboard.press('Escape');
  });

  it("words a tap waiting at Counter 1 in Counter 2's language, items by their names", async () => {
    const next = orderPool(store.sandbox)((o) => o.orderState === 'Created' && o.id !== order.id && o.items.some((i) => i.quantity.count >= 2));
    const item = next.items.find((i) => i.quantity.count >= 2)!;
    await tapAt(0, next.id, { kind: 'orderState', state: 'ACCEPTED' });
    await until(`${next.id} accepted at the service`, () => appliedTo(store.sandbox, next.id).length >= 1);
    store.sandbox.faults.set({ outage: 'refuse' });
    try {
      await tapAt(0, next.id, { kind: 'units', itemId: item.itemId, units: item.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' });
      await two.getByTestId('language-hi').click();
      await scan(two, next.id);
      const line = two.getByTestId('elsewhere-lines');
      await line.getByText('काउंटर 1 पर किया गया', { exact: false }).waitFor({ timeout: 10_000 });
      expect(await line.innerText()).toContain(item.name!);
      await shot(two, '97-waiting-elsewhere-hi-1024');
    } finally {
      store.sandbox.faults.set({ outage: 'none' });
      await two.getByTestId('language-en').click();
    }
  });

  it('names counters by their names in the printed shift summary and the CSV, never by terminal ids', async () => {
    await two.keyboard.press('Escape');
    await openFromTopBar(two, 'shift');
    const screen = two.getByTestId('shift-screen');
    await screen.getByTestId('shift-body').waitFor();
    await screen.getByTestId('shift-counters').getByText('Counter 1').waitFor({ timeout: 10_000 });
    await screen.getByTestId('shift-print').click();
    await two.locator('[data-testid="print-root"][data-document="shiftSummary"]:not([data-height-mm=""])').waitFor({ state: 'attached' });
    // The paper's words as laid out for the printer (a PDF's text reads a name wrapped in its column out of order).
    const read = await two.locator('[data-testid="print-root"][data-document="shiftSummary"]').evaluate((root) => ({
      text: root.textContent ?? '',
      counter: [...(root.querySelector('[data-testid="paper-counters"] tbody tr')?.children ?? [])].map((cell) => cell.textContent ?? ''),
    }));
    expect(read.text).toContain('Counter 2 · printed');
    expect(read.counter.slice(0, 3)).toEqual(['Counter 1', '2', '1']);
    for (const id of terminals) expect(read.text).not.toContain(id);

    // The counters' table as a CSV (downloaded by the browser in the harness): a row per counter, by name.
    await screen.getByTestId('shift-export').click();
    const coming = two.waitForEvent('download');
    await two.getByTestId('export-counters').click();
    const csv = await downloadText(await coming);
    const names = csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[1]);
    // Only Counter 1 tapped today: its row, by name.
    expect(names).toEqual(['Counter 1']);
    for (const id of terminals) expect(csv).not.toContain(id);
  }, 60_000);
});
