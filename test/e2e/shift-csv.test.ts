/**
 * The Shift CSV (issue 40, item 10), in Chromium through the browser harness: "Save as CSV…" offers
 * one table a file (the day's totals, by packer, by counter, by hour); each comes down as a file
 * the browser saves, with plain headings in the terminal's language (Hindi here, even while the
 * screen is switched to English for the shift) and the day's figures; a spreadsheet's sum of a
 * column is the day's figure, since no table repeats another. Before, one file in the data folder
 * mixed total, packer, counter and hour rows under code-word headings (to_pack_p90_s), and summing
 * "accepted" counted every accept several times.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShiftReport } from '../../src/shared/ipc';
import { axe, downloadText, MANAGER_PIN, openFromTopBar, openTerminal, orderPool, shot, tapStep, typeOrderId, type Terminal } from './support';

/** Saves one table from the open export window and reads the file the browser got. */
async function download(page: Page, table: string): Promise<{ name: string; text: string }> {
  const coming = page.waitForEvent('download');
  await page.getByTestId(`export-${table}`).click();
  const file = await coming;
  return { name: file.suggestedFilename(), text: await downloadText(file) };
}

/** CSV rows, cells unquoted (these cells hold no quote marks). */
const rowsOf = (text: string): string[][] =>
  text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) => [...line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].filter((m) => m[0] !== '').map((m) => m[2] ?? m[1]!));

describe('the Shift CSV', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 20, viewport: { width: 1024, height: 768 }, settings: { undoWindowMs: 0, language: 'hi' } });
    const added = await t.harness.host.handle('staff.add', { pin: MANAGER_PIN, name: 'Ravi Kumar', packerPin: '5791' });
    if (!added.ok) throw new Error(added.problem.message);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves one table a file, headed in the terminal language, each column summing to the day', async () => {
    const { page, sandbox, harness } = t;
    const take = orderPool(sandbox);
    // Two accepts by the counter, one by Ravi (packed too).
    for (const signed of [false, false, true]) {
      if (signed) await harness.host.handle('staff.signIn', { packerPin: '5791' });
      const order = take();
      await typeOrderId(page, order.id);
      await tapStep(page, 'ACCEPT');
      if (signed) {
        await tapStep(page, 'PACKING');
        await tapStep(page, 'PACKED');
      }
      await page.keyboard.press('Escape');
    }
    // The packer's shift language: the screen in English, the manager's file still in Hindi.
    await page.getByTestId('language-en').click();
    await openFromTopBar(page, 'shift');
    await page.locator('[data-testid="count-accepted"][data-value="3"]').waitFor({ timeout: 15_000 });
    const report = (await harness.host.handle('shift.report', {})) as { ok: true; value: ShiftReport };
    const all = report.value.total;

    await page.getByTestId('shift-export').click();
    await page.getByTestId('export-dialog').waitFor();
    await shot(page, 'shift-csv-dialog-en-1024');
    expect((await axe(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);

    const day = await download(page, 'day');
    expect(day.name).toBe(`shift-${report.value.day}-day.csv`);
    expect(day.text.startsWith('\uFEFF')).toBe(true);
    const [head, row] = rowsOf(day.text);
    expect(head!.slice(0, 4)).toEqual(['दिन', 'आए', 'स्वीकार किए', 'अस्वीकार किए']);
    expect(head!.join(' ')).not.toMatch(/_/);
    expect(row!.slice(0, 8)).toEqual([report.value.day, all.received, all.accepted, all.rejected, all.cancelled, all.packed, all.handedOver, all.late].map(String));
    await page.getByTestId('export-said').waitFor();

    const sum = (rows: string[][], column: number) => rows.slice(1).reduce((n, r) => n + Number(r[column]), 0);
    for (const table of ['packers', 'counters'] as const) {
      const rows = rowsOf((await download(page, table)).text);
      expect(rows[0]![1]).toBe(table === 'packers' ? 'पैकर' : 'काउंटर');
      // Accepted, packed: the day's, however many rows.
      expect([sum(rows, 2), sum(rows, 5)]).toEqual([all.accepted, all.packed]);
    }
    const packers = rowsOf((await download(page, 'packers')).text);
    expect(packers.find((r) => r[1] === 'Ravi Kumar')?.[2]).toBe('1');
    const hours = rowsOf((await download(page, 'hours')).text);
    expect(hours[0]).toEqual(['दिन', 'घंटा', 'आए', 'पैक हुए']);
    expect([sum(hours, 2), sum(hours, 3)]).toEqual([all.received, all.packed]);
    await shot(page, 'shift-csv-saved-en-1024');
    expect(t.problems).toEqual([]);
  }, 90_000);
});
