/**
 * A scanner's Enter never presses a button (issue 40, item 4). On an order the big button has the
 * focus; a scanner's keys (faster than 35 ms a key) with their Enter held back by a busy machine
 * (400 ms) are a scan: the unit is counted and Start packing / Mark packed is not pressed. Before,
 * such an Enter pressed the focused Start packing: the order moved to Packing, the scan was lost,
 * and the timeline said "Start packing: tapped". A person's Enter (a second after the last key,
 * or on its own) still presses the button.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/protocol';
import { afterRepeatWindow, acceptOrder, appliedTo, nextStep, openTerminal, orderPool, scannerKeys, shot, until, untilTapsSettled, type Terminal } from './support';

describe("a scanner's Enter on an order with the big button focused", () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 20, viewport: { width: 1366, height: 768 }, settings: { scanToPack: true, undoWindowMs: 0 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The item's code as a scanner sends it, the Enter `enterAfterMs` later, with the big button focused. */
  async function scanLateEnter(code: string, enterAfterMs: number): Promise<void> {
    const { page } = t;
    await page.getByTestId('next-step').focus();
    await scannerKeys(page, code, { enter: false });
    await page.waitForTimeout(enterAfterMs);
    await page.keyboard.press('Enter');
  }

  it('counts the scan and presses neither Start packing nor Mark packed when the Enter comes late', async () => {
    const { page, sandbox } = t;
    const order = orderPool(sandbox)((o) => o.items.length >= 2 && o.items.every((i) => i.serviceProviderItemId !== undefined && i.quantity.count >= 1));
    const [first, second] = order.items as [Item, Item];
    await acceptOrder(t, order);
    await nextStep(page, 'PACKING');
    await page.getByTestId('pack-checklist').waitFor();

    await scanLateEnter(first.serviceProviderItemId as string, 400);
    await page.locator(`[data-testid="pack-row"][data-item-id="${first.itemId}"][data-scanned="1"]`).waitFor();
    // A pressed button would have said "Packing started" and sent the step.
    await untilTapsSettled(t, order.id);
    await expect(page.locator('[data-testid="next-step"]').getAttribute('data-step')).resolves.toBe('PACKING');
    expect(appliedTo(sandbox, order.id).filter((a) => a.type === 'ORDER_FULFILMENT_STATE_UPDATE')).toEqual([]);

    // A person's Enter on the focused button does the step.
    await page.getByTestId('next-step').focus();
    await page.keyboard.press('Enter');
    await nextStep(page, 'PACKED');
    await until('PACKING at the service', () => appliedTo(sandbox, order.id).some((a) => a.type === 'ORDER_FULFILMENT_STATE_UPDATE'));

    // With Mark packed focused, the same late Enter counts the second item and marks nothing packed.
    await afterRepeatWindow(page, 1_000); // a second after the person's Enter, as at a counter
    await scanLateEnter(second.serviceProviderItemId as string, 400);
    await page.locator(`[data-testid="pack-row"][data-item-id="${second.itemId}"][data-scanned="1"]`).waitFor();
    await untilTapsSettled(t, order.id);
    await expect(page.locator('[data-testid="next-step"]').getAttribute('data-step')).resolves.toBe('PACKED');
    expect(await page.getByTestId('unscanned-dialog').count()).toBe(0);
    await shot(page, 'scan-enter-late-mark-packed');

    // An Enter over a second after the scanner's keys is the person's own.
    await afterRepeatWindow(page);
    await scanLateEnter(first.serviceProviderItemId as string, 1_300);
    await page.getByTestId('unscanned-dialog').or(page.locator('[data-testid="next-step"][data-step="resting"]')).first().waitFor();
    expect(t.problems).toEqual([]);
  }, 90_000);
});
