/**
 * Glove-sized and small-screen layout, in Chromium: every control on every screen and dialog is
 * at least 56 px tall at 1024x768 (touch), 1366x768 and 1920x1080; the undo bar and notices never
 * cover a control; the queue shows at least six orders on a 768 px tall screen; the big button
 * stays where it is while a tap waits to be sent and after it went; an order row's words stay in
 * its own row, however many marks it carries.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { controlsUnderUndoBar, coveredControls, enabledControlsInView, rowsInView, smallControls, spillingRows, type ControlProblem } from './geometry';
import { walkEveryScreen } from './screens';
import { acceptOrder, appliedTo, nextStep, openTerminal, orderPool, scan, shot, tapStep, typeOrderId, until, withPrescription } from './support';

const VIEWPORTS = [
  { name: '1024x768-touch', width: 1024, height: 768, touch: true },
  { name: '1366x768', width: 1366, height: 768, touch: false },
  { name: '1920x1080', width: 1920, height: 1080, touch: false },
] as const;

/** Whether a filter's both ends, as far as its row shows it, are its own to tap (no arrow over them). */
const topmostAtChip = (page: Page, key: string): Promise<boolean> =>
  page.getByTestId(`filter-${key}`).evaluate((chip) => {
    const row = chip.parentElement!.getBoundingClientRect();
    const box = chip.getBoundingClientRect();
    const y = box.top + box.height / 2;
    const ends = [Math.max(box.left, row.left) + 4, Math.min(box.right, row.right) - 4];
    return ends.every((x) => chip.contains(document.elementFromPoint(x, y)));
  });

describe('layout for gloves and small screens', () => {
  for (const vp of VIEWPORTS) {
    it(`every control is at least 56 px tall on every screen at ${vp.name}`, async () => {
      const t = await openTerminal({ firstRun: true, viewport: { width: vp.width, height: vp.height }, touch: vp.touch });
      try {
        const small: Record<string, ControlProblem[]> = {};
        await walkEveryScreen(
          t,
          async (name) => {
            const found = await smallControls(t.page);
            if (found.length > 0) small[name] = found;
            await shot(t.page, `50-${vp.name}-${name}`);
          },
          { phantomId: 'ORD-0000071' },
        );
        expect(small).toEqual({});
        expect(t.problems).toEqual([]);
      } finally {
        await t.close();
      }
    }, 180_000);
  }

  it('shows at least six orders at 768 px tall, and the undo bar and notices never cover a control', async () => {
    // An undo window long enough to look under the bar at leisure.
    const t = await openTerminal({ viewport: { width: 1024, height: 768 }, touch: true, settings: { undoWindowMs: 6_000 } });
    try {
      const { page } = t;
      await expect(rowsInView(page)).resolves.toBeGreaterThanOrEqual(6);
      await shot(page, '51-queue-1024x768');

      const take = orderPool(t.sandbox);
      const order = take((o) => o.items.length >= 2);
      await acceptOrder(t, order);
      // Right after a tap: the undo bar is up for its window; nothing under it.
      await tapStep(page, 'PACKING');
      await page.getByTestId('undo-bar').waitFor();
      await expect(coveredControls(page)).resolves.toEqual([]);
      // Scrolled to the bottom of the order (the cancel button and the invoice field) with the bar still up.
      await page.locator('main.screen').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect(coveredControls(page)).resolves.toEqual([]);
      await expect(page.getByTestId('cancel-order').isVisible()).resolves.toBe(true);
      await shot(page, '52-undo-bar-order-bottom');

      // A cancelled order, with the undo bar of the cancel and its notice.
      await page.getByTestId('cancel-order').click();
      const dialog = page.getByTestId('cancel-dialog');
      await dialog.locator('[data-reason="CUSTOMER_CANCEL_REQUEST"]').click();
      await dialog.getByTestId('cancel-next').click();
      await dialog.getByTestId('cancel-confirm').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('undo-bar').waitFor();
      await page.locator('main.screen').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect(coveredControls(page)).resolves.toEqual([]);
      await shot(page, '53-undo-bar-cancelled');

      // Back in the queue while the bar is still up.
      await page.keyboard.press('Escape');
      await page.getByTestId('queue-list').waitFor();
      await expect(coveredControls(page)).resolves.toEqual([]);
      expect(t.problems).toEqual([]);
    } finally {
      await t.close();
    }
  }, 120_000);

  for (const vp of [
    { width: 1366, height: 768, touch: false },
    { width: 1024, height: 768, touch: true },
  ] as const) {
    it(`the undo bar never appears over a control that was in view before the tap, at ${vp.width}x${vp.height}`, async () => {
      const t = await openTerminal({ viewport: { width: vp.width, height: vp.height }, touch: vp.touch, settings: { undoWindowMs: 3_000 } });
      try {
        const { page } = t;
        const order = orderPool(t.sandbox)((o) => o.items.length >= 2);
        await typeOrderId(page, order.id);
        await nextStep(page, 'ACCEPT');
        const under: Record<string, string[]> = {};
        const tapAndLook = async (name: string, tap: () => Promise<void>): Promise<void> => {
          const before = await enabledControlsInView(page);
          await tap();
          await page.getByTestId('undo-bar').waitFor();
          const found = await controlsUnderUndoBar(page, before);
          if (found.length > 0) under[name] = found;
          await shot(page, `56-${vp.width}-undo-after-${name}`);
          await page.getByTestId('undo-bar').waitFor({ state: 'detached', timeout: 10_000 });
        };
        await tapAndLook('accept', () => tapStep(page, 'ACCEPT'));
        await tapAndLook('start-packing', () => tapStep(page, 'PACKING'));
        // Scrolled down to the invoice field and the cancel button, an invoice recorded.
        await page.locator('main.screen').evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await tapAndLook('invoice', async () => {
          await page.getByTestId('invoice-input').fill('INV-LAYOUT-1');
          await page.getByTestId('invoice-input').press('Enter');
        });
        expect(under).toEqual({});
        expect(t.problems).toEqual([]);
      } finally {
        await t.close();
      }
    }, 120_000);
  }

  for (const vp of [
    { width: 1024, touch: true },
    { width: 1366, touch: false },
    { width: 2560, touch: false },
  ] as const) {
    it(`says when filters do not fit, and brings them into view, at ${vp.width}x768`, async () => {
      const t = await openTerminal({ viewport: { width: vp.width, height: 768 }, touch: vp.touch });
      try {
        const { page } = t;
        // In the part of the row the arrows (over its right end) leave to be seen.
        const inView = (key: string): Promise<boolean> =>
          page.evaluate((k) => {
            const row = document.querySelector('.step-filters')?.getBoundingClientRect();
            const arrows = document.querySelector('.filter-scroll-end')?.getBoundingClientRect().width ?? 0;
            const chip = document.querySelector(`[data-testid="filter-${k}"]`)?.getBoundingClientRect();
            return !!row && !!chip && chip.left >= row.left - 0.5 && chip.right <= row.right - arrows + 0.5;
          }, key);
        const more = page.getByTestId('filters-more');
        const back = page.getByTestId('filters-back');
        await expect(inView('ALL')).resolves.toBe(true);
        if (vp.width === 2560) {
          // Every filter fits: no arrows.
          await expect(inView('DONE_TODAY')).resolves.toBe(true);
          await expect(more.count()).resolves.toBe(0);
          await expect(back.count()).resolves.toBe(0);
          return;
        }
        // The last filters are out of view, and the arrows say so; the one back is greyed out, and
        // no arrow covers the first filter.
        // The last filter is "Done today" (the queue's views follow its steps).
        await expect(inView('DONE_TODAY')).resolves.toBe(false);
        await more.waitFor();
        await expect(back.isDisabled()).resolves.toBe(true);
        const allAt = await page.getByTestId('filter-ALL').evaluate((chip) => chip.getBoundingClientRect().left);
        await expect(topmostAtChip(page, 'ALL')).resolves.toBe(true);
        for (let i = 0; i < 8 && !(await inView('DONE_TODAY')); i++) await more.click();
        await expect(inView('DONE_TODAY')).resolves.toBe(true);
        // At the end: the arrow on is greyed out, and the last filter is whole beside the arrows.
        await page.locator('[data-testid="filters-more"]:disabled').waitFor();
        await expect(topmostAtChip(page, 'DONE_TODAY')).resolves.toBe(true);
        await shot(page, `55-${vp.width}-filters-end`);
        for (let i = 0; i < 8 && !(await inView('ALL')); i++) await back.click();
        await expect(inView('ALL')).resolves.toBe(true);
        await page.locator('[data-testid="filters-back"]:disabled').waitFor();
        // The arrows lie over the row's end: back at the start, "All" is where it was.
        await expect(page.getByTestId('filter-ALL').evaluate((chip) => chip.getBoundingClientRect().left)).resolves.toBe(allAt);
        expect(t.problems).toEqual([]);
      } finally {
        await t.close();
      }
    }, 60_000);
  }

  for (const { width, language } of [
    { width: 1024, language: 'en' },
    { width: 1024, language: 'hi' },
    { width: 1366, language: 'en' },
    { width: 1366, language: 'hi' },
  ] as const) {
    it(`keeps each order row's words inside its row at ${width}x768 in ${language === 'en' ? 'English' : 'Hindi'}`, async () => {
      const t = await openTerminal({ viewport: { width, height: 768 }, touch: width === 1024, settings: { language } });
      try {
        const { page, sandbox } = t;
        // The queue as it opens: new orders, some with a prescription.
        await expect(spillingRows(page)).resolves.toEqual([]);
        // The most a row carries: many items, a prescription, and two taps waiting while the service is away.
        const order = orderPool(sandbox)((o) => withPrescription(o) && o.items.length >= 3);
        await acceptOrder(t, order);
        sandbox.faults.set({ outage: 'refuse' });
        await tapStep(page, 'PACKING');
        await tapStep(page, 'PACKED');
        await page.getByTestId('order-marks').getByTestId('mark-waiting').filter({ hasText: '(2)' }).waitFor();
        await page.keyboard.press('Escape');
        await page.getByTestId('filter-OUT_FOR_DELIVERY').click();
        const row = page.locator(`[data-testid="order-row"][data-order-id="${order.id}"]`);
        await row.getByTestId('mark-waiting').waitFor();
        await expect(row.locator('.badge-rx').count()).resolves.toBe(1);
        await expect(spillingRows(page)).resolves.toEqual([]);
        await shot(page, `54-${width}-${language}-row-marks`);
        sandbox.faults.set({ outage: 'none' });
        expect(t.problems).toEqual([]);
      } finally {
        await t.close();
      }
    }, 60_000);
  }

  for (const { width, language } of [
    { width: 1366, language: 'en' },
    { width: 1024, language: 'hi' },
  ] as const) {
    it(`keeps the big button in place through a tap at ${width}x768 in ${language === 'en' ? 'English' : 'Hindi'}`, async () => {
      const t = await openTerminal({ viewport: { width, height: 768 }, touch: width === 1024, settings: { language, undoWindowMs: 1_500 } });
      try {
        const { page } = t;
        const buttonTop = () => page.getByTestId('next-step').evaluate((el) => Math.round(el.getBoundingClientRect().top));
        // A prescription order: its mark shares the header's marks line with "Waiting to sync".
        const order = orderPool(t.sandbox)(withPrescription);
        await scan(page, order.id);
        await page.locator(`[data-testid="order-screen"][data-order-id="${order.id}"]`).waitFor();
        for (const [step, sent] of [['ACCEPT', 1], ['PACKING', 2]] as const) {
          await nextStep(page, step);
          const before = await buttonTop();
          await page.locator(`[data-testid="next-step"][data-step="${step}"]`).click();
          // The tap waiting: "Waiting to sync" in the header, one more tap in the sync bar.
          await page.getByTestId('mark-waiting').waitFor();
          expect({ step, top: await buttonTop() }).toEqual({ step, top: before });
          // Sent: the mark and the count are gone again.
          await until(`${step} of ${order.id} applied`, () => appliedTo(t.sandbox, order.id).length >= sent);
          await page.getByTestId('mark-waiting').waitFor({ state: 'detached' });
          expect({ step, top: await buttonTop() }).toEqual({ step, top: before });
        }
        expect(t.problems).toEqual([]);
      } finally {
        await t.close();
      }
    }, 60_000);
  }
});
