/**
 * Finding any order, its timeline, and the shift in one picture, end to end in Chromium at 1024x768
 * and 1920x1080, in English and Hindi: an order found by its customer's name and by its last
 * digits; its history (arrival, taps, the service's confirmation, prints) and a reprint from there;
 * a shift scripted through the terminal's own commands, whose figures this test works out from what
 * it did, shown on the Shift screen, printed on 80 mm and A4 and read back with pdftotext, and
 * exported as CSV. Screenshots go to test-results/screenshots/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayBounds, dayOf } from '../../src/shared/days';
import type { OrderSummary, OrderView, OutboxEntryView, ShiftReport } from '../../src/shared/ipc';
import type { Order } from '../../src/shared/protocol';
import { keepAsPng, layoutText, pdfText, printToPdf } from './pdf';
import { appliedTo, downloadText, axe, MANAGER_PIN, openTerminal, orderPool, reloadTerminal, shot, tapStep, type Terminal, typeInFind, until, openFromTopBar } from './support';

const work = mkdtempSync(join(tmpdir(), 'packdesk-shift-'));

/** Waits until the async `check` answers a value other than undefined/false; polls every 100 ms. */
async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function call<T>(t: Terminal, command: string, payload: unknown): Promise<T> {
  const reply = await t.harness.host.handle(command, payload);
  if (!reply.ok) throw new Error(`${command} refused: ${reply.problem.message}`);
  return reply.value as T;
}

/** The nearest-rank percentile (the report's promise), worked out here on its own. */
function rank(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(p * sorted.length) - 1]!;
}

/** One tap through the terminal's own command, as the screen sends it; answers the queued entry. */
async function tap(t: Terminal, orderId: string, input: unknown): Promise<OutboxEntryView> {
  return call<OutboxEntryView>(t, 'taps.submit', { orderId, input });
}

/** The order's fulfilment of a type (STORE, DELIVERY). */
function fulfilmentOf(order: Order, type: string): string {
  const f = order.fulfillments.find((x) => x.type.toUpperCase() === type);
  if (!f) throw new Error(`order ${order.id} has no ${type} fulfilment`);
  return f.fulfillmentId;
}

async function viewOf(t: Terminal, orderId: string): Promise<OrderView & { order: Order }> {
  return eventually(`${orderId} has its body`, async () => {
    const v = await call<OrderView | null>(t, 'orders.get', { orderId });
    return v?.order ? (v as OrderView & { order: Order }) : undefined;
  });
}

describe('find, timeline and the shift', () => {
  let t: Terminal;
  let take: ReturnType<typeof orderPool>;

  beforeAll(async () => {
    t = await openTerminal({ viewport: { width: 1024, height: 768 }, orderCount: 30 });
    take = orderPool(t.sandbox);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("finds an order by its customer's name and by its last digits, and tells its history, with a reprint", async () => {
    const { page } = t;
    const order = take((o) => !!o.billing?.name && t.sandbox.orders().filter((x) => x.billing?.name === o.billing?.name).length === 1);
    await typeInFind(page, order.billing!.name!);
    await page.locator(`[data-testid="order-screen"][data-order-id="${order.id}"]`).waitFor();
    await page.locator('.back-button').click();
    await typeInFind(page, order.id.replace(/\D/g, '').slice(-5));
    const opened = page.locator(`[data-testid="order-screen"][data-order-id="${order.id}"]`);
    const list = page.getByTestId('found-orders');
    await Promise.race([opened.waitFor(), list.waitFor()]);
    if (await list.isVisible()) await list.locator(`[data-testid="found-order"]`, { hasText: order.id }).click();
    await opened.waitFor();

    await tapStep(page, 'ACCEPT');
    await until(`${order.id} accepted at the service`, () => appliedTo(t.sandbox, order.id).length >= 1);
    await page.getByTestId('print-slip').click();
    await eventually('the slip print kept', async () => (await call<{ events: { kind: string }[] }>(t, 'orders.timeline', { orderId: order.id })).events.some((e) => e.kind === 'print'));

    await page.getByTestId('order-history').click();
    const dialog = page.getByTestId('order-history-dialog');
    const events = dialog.getByTestId('timeline').locator('li');
    await eventually('the history confirms the Accept', async () => (await events.evaluateAll((li) => li.map((e) => e.getAttribute('data-kind')))).includes('confirmed'));
    const kinds = await events.evaluateAll((li) => li.map((e) => e.getAttribute('data-kind')));
    expect(kinds[0]).toBe('arrived');
    expect(kinds).toEqual(expect.arrayContaining(['tap', 'confirmed', 'print']));
    const text = await dialog.innerText();
    expect(text).toContain('Arrived on this terminal');
    expect(text).toContain('Packing slip printed');
    expect(text).toMatch(/Accept.*confirmed by the order service/);
    await shot(page, 'shift-01-history-1024-en');
    expect(await axe(page)).toEqual([]);

    // A reprint of the pick list from the history shows in it.
    await dialog.getByTestId('reprint-pick').click();
    await eventually('the pick list reprint in the history', async () =>
      (await events.evaluateAll((li) => li.map((e) => e.textContent ?? ''))).some((s) => s.includes('Pick list printed')),
    );

    // In Hindi (the language switch is outside the modal window: closed, switched, opened again).
    await page.keyboard.press('Escape');
    await page.getByTestId('language-hi').click();
    await page.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await page.getByTestId('order-history').click();
    await eventually('the history in Hindi', async () => (await dialog.innerText()).includes('इस टर्मिनल पर आया'));
    await shot(page, 'shift-02-history-1024-hi');
    await page.keyboard.press('Escape');
    await page.getByTestId('language-en').click();
  });

  it('shows a scripted shift as the terminal did it, in both languages at both widths, prints it and exports it', async () => {
    const { page } = t;
    const info = await call<{ terminalId: string }>(t, 'app.info', {});
    const day = dayOf(Date.now());
    const { from, to } = dayBounds(day);
    const inDay = (n: number): boolean => n >= from && n < to;

    // The script: four orders accepted; three of them packed, two of those handed to the rider; one rejected.
    const accepted = [take(), take(), take(), take()];
    const rejected = take();
    const added = new Map((await call<OrderSummary[]>(t, 'orders.list', {})).map((o) => [o.id, o.addedAt]));
    const toPack: number[] = [];
    let late = 0;
    let handedOver = 0;
    for (const [i, order] of accepted.entries()) {
      const accept = await tap(t, order.id, { kind: 'orderState', state: 'ACCEPTED' });
      if (i === 3) continue;
      const view = await viewOf(t, order.id);
      await tap(t, order.id, { kind: 'fulfilment', fulfilmentId: fulfilmentOf(view.order, 'STORE'), state: 'PACKING' });
      const before = Date.now();
      const packed = await tap(t, order.id, { kind: 'fulfilment', fulfilmentId: fulfilmentOf(view.order, 'STORE'), state: 'PACKED' });
      toPack.push(packed.createdAt - accept.createdAt);
      if (view.promisedPackedAt !== null && view.promisedPackedAt < before) late += 1;
      if (i < 2) {
        await tap(t, order.id, { kind: 'fulfilment', fulfilmentId: fulfilmentOf(view.order, 'DELIVERY'), state: 'OUT_FOR_DELIVERY' });
        handedOver += 1;
      }
    }
    await tap(t, rejected.id, { kind: 'orderState', state: 'CANCELLED', reason: 'ITEM_UNAVAILABLE' });
    // Orders the marketplace had cancelled already when they arrived today: cancelled elsewhere.
    const listed = await call<OrderSummary[]>(t, 'orders.list', {});
    let elsewhere = 0;
    for (const o of listed) {
      const v = await call<OrderView | null>(t, 'orders.get', { orderId: o.id });
      if (v?.order?.orderState.toUpperCase() !== 'CANCELLED' || o.id === rejected.id) continue;
      const when = v.order.updatedAt ? Date.parse(v.order.updatedAt) : o.addedAt;
      if (inDay(when)) elsewhere += 1;
    }
    const expected = {
      received: [...added.values()].filter(inDay).length,
      accepted: 5, // the four here and the one accepted in the history test above
      rejected: 1,
      cancelled: elsewhere,
      packed: 3,
      handedOver,
      late,
    };

    await openFromTopBar(page, 'shift');
    const screen = page.getByTestId('shift-screen');
    await screen.getByTestId('shift-body').waitFor();
    const counts = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        await screen.getByTestId('shift-counts').locator('[data-value]').evaluateAll((els) =>
          els.map((e) => [(e.getAttribute('data-testid') ?? '').replace('count-', ''), Number(e.getAttribute('data-value'))]),
        ),
      );
    expect(await counts()).toEqual(expected);
    const report = await call<ShiftReport>(t, 'shift.report', { day });
    // Arrival to Accept of this test's four, and the history test's one: the screen's median is the report's.
    expect(report.total.toAccept.count).toBe(5);
    expect(report.total.toPack).toEqual({ count: 3, medianMs: rank(toPack, 0.5), p90Ms: rank(toPack, 0.9) });
    await expect(screen.getByTestId('timing-toPack').getAttribute('data-median-ms')).resolves.toBe(String(rank(toPack, 0.5)));
    expect(report.byCounter.map((c) => c.counter)).toEqual([info.terminalId]);
    await expect(screen.getByTestId('shift-counters').locator('tbody tr').first().getAttribute('data-packed')).resolves.toBe('3');
    // The chart drew a bar for the hour the orders were packed in: its bars add up to the report's figures.
    const barSum = (kind: string): Promise<number> =>
      screen.getByTestId('shift-chart').locator(`rect.hour-chart-${kind}`).evaluateAll((rs) => rs.reduce((n, r) => n + Number(r.getAttribute('data-value')), 0));
    await expect(barSum('packed')).resolves.toBe(report.byHour.reduce((n, h) => n + h.packed, 0));
    await expect(barSum('received')).resolves.toBe(report.byHour.reduce((n, h) => n + h.received, 0));
    expect(report.byHour.reduce((n, h) => n + h.packed, 0)).toBeGreaterThan(0);
    await shot(page, 'shift-03-screen-1024-en');
    expect(await axe(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    expect(overflow).toBe(false);

    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'shift-04-screen-1920-en');

    await page.getByTestId('language-hi').click();
    await page.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await eventually('the Shift screen in Hindi', async () => (await screen.innerText()).includes('हर घंटे के ऑर्डर'));
    expect(await counts()).toEqual(expected);
    await shot(page, 'shift-05-screen-1920-hi');
    await page.setViewportSize({ width: 1024, height: 768 });
    await shot(page, 'shift-06-screen-1024-hi');
    expect(await axe(page)).toEqual([]);

    // Printed on the 80 mm roll, in Hindi: the words and the counts come back from the PDF.
    await screen.getByTestId('shift-print').click();
    await page.locator('[data-testid="print-root"][data-document="shiftSummary"]:not([data-height-mm=""])').waitFor({ state: 'attached' });
    const hiPdf = await printToPdf(page, work, 'shift-80mm-hi');
    keepAsPng(hiPdf, 'shift-07-paper-80mm-hi');
    const hiText = pdfText(hiPdf);
    expect(hiText).toContain('शिफ़्ट सारांश');
    // A one-counter store's summary names no counter, and never its terminal id.
    expect(hiText).not.toContain(info.terminalId);

    // On A4 in English (a manager's setting; the page reads it again).
    await call(t, 'settings.update', { pin: MANAGER_PIN, patch: { paper: 'a4' } });
    await page.getByTestId('language-en').click();
    await reloadTerminal(page);
    await openFromTopBar(page, 'shift');
    await screen.getByTestId('shift-body').waitFor();
    await screen.getByTestId('shift-print').click();
    await page.locator('[data-testid="print-root"][data-paper="a4"][data-document="shiftSummary"]:not([data-height-mm=""])').waitFor({ state: 'attached' });
    const enPdf = await printToPdf(page, work, 'shift-a4-en');
    keepAsPng(enPdf, 'shift-08-paper-a4-en');
    const enText = pdfText(enPdf);
    expect(enText).toContain('SHIFT SUMMARY');
    // Read as laid out: each count's name and number on one line.
    const lines = layoutText(enPdf).split('\n').map((l) => l.trim().replace(/\s+/g, ' '));
    for (const [words, n] of [['Received', expected.received], ['Accepted', expected.accepted], ['Rejected', expected.rejected], ['Cancelled', expected.cancelled], ['Packed', expected.packed], ['Handed to rider', expected.handedOver], ['Packed late', expected.late]] as const)
      expect(lines).toContain(`${words} ${n}`);
    expect(enText).toContain('ORDERS BY HOUR');

    // The CSV the manager takes away says the same (the day's totals, downloaded by the browser).
    await screen.getByTestId('shift-export').click();
    const coming = page.waitForEvent('download');
    await page.getByTestId('export-day').click();
    const csv = (await downloadText(await coming)).replace(/^\uFEFF/, '').split('\r\n');
    expect(csv[0]!.split(',').slice(0, 3)).toEqual(['Day', 'Received', 'Accepted']);
    expect(csv[1]!.split(',').slice(0, 8)).toEqual(
      [day, expected.received, expected.accepted, expected.rejected, expected.cancelled, expected.packed, expected.handedOver, expected.late].map(String),
    );
    expect(t.problems).toEqual([]);
  });
});
