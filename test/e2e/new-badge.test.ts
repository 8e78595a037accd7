/**
 * A new badge is asked first (issue 40, item 8): in Settings -> Staff, "New badge…" opens a
 * question that names the badge that will stop working; keeping it changes nothing; making it
 * says the new badge and that the old one no longer works, and offers to print the new one (read
 * back from the PDF). The badge's buttons stand together, Remove apart at the end. Before, New
 * badge sat between Change PIN and Remove and replaced the badge at once. English and Hindi.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, printToPdf } from './pdf';
import { axe, MANAGER_PIN, openSettings, openTerminal, shot, type Terminal, showLanguage } from './support';

describe('a new badge for a packer', () => {
  let t: Terminal;
  let work: string;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 5, viewport: { width: 1024, height: 768 } });
    work = mkdtempSync(join(tmpdir(), 'packdesk-new-badge-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('asks first, says the old badge stops working, and offers to print the new one', async () => {
    const { page, harness } = t;
    for (const [n, language] of (['en', 'hi'] as const).entries()) {
      const name = `Packer ${n + 1}`;
      const added = await harness.host.handle('staff.add', { pin: MANAGER_PIN, name });
      if (!added.ok) throw new Error(added.problem.message);
      const old = (added.value as { badge: string }).badge;
      await showLanguage(page, language);
      await openSettings(page);
      const row = page.locator(`[data-testid="staff-row"][data-name="${name}"]`);
      await row.waitFor();

      // The row's buttons: Print badge, New badge…, the PIN's, then Remove set apart.
      const buttons = await row.locator('.staff-actions button').evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-testid') ?? e.className, left: e.getBoundingClientRect().left, right: e.getBoundingClientRect().right, top: e.getBoundingClientRect().top })));
      expect(buttons.map((b) => b.id).slice(0, 2)).toEqual(['staff-print', 'staff-new-badge']);
      const remove = buttons[3]!;
      const pinButton = buttons[2]!;
      expect(remove.id).toContain('button-danger-outline');
      if (remove.top === pinButton.top) expect(remove.left - pinButton.right).toBeGreaterThanOrEqual(16);

      // Asked, and kept: nothing changes.
      await row.getByTestId('staff-new-badge').click();
      const dialog = page.getByTestId('new-badge-dialog');
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain(old);
      await shot(page, `new-badge-ask-${language}`);
      expect((await axe(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
      await dialog.getByTestId('new-badge-keep').click();
      await dialog.waitFor({ state: 'detached' });
      await expect(row.getAttribute('data-badge')).resolves.toBe(old);

      // Made: the new badge and the old one's end said, and printed.
      await row.getByTestId('staff-new-badge').click();
      await dialog.getByTestId('new-badge-confirm').click();
      const made = dialog.getByTestId('new-badge-made');
      await made.waitFor();
      await page.locator(`[data-testid="staff-row"][data-name="${name}"]:not([data-badge="${old}"])`).waitFor();
      const fresh = (await row.getAttribute('data-badge')) as string;
      expect(fresh).toMatch(/^PDKS-/);
      const words = await made.innerText();
      expect(words).toContain(fresh);
      expect(words).toContain(old);
      await shot(page, `new-badge-made-${language}`);
      const signIn = await harness.host.handle('staff.signIn', { badge: old });
      expect(signIn.ok).toBe(false);
      await dialog.getByTestId('new-badge-print').click();
      await page.locator('[data-testid="print-root"][data-document="badges"]').waitFor({ state: 'attached' });
      const text = pdfText(await printToPdf(page, work, `new-badge-${language}`));
      expect(text).toContain(fresh);
      expect(text).not.toContain(old);
      await page.keyboard.press('Escape');
      await page.getByTestId('queue-list').waitFor();
    }
    expect(t.problems).toEqual([]);
  }, 90_000);
});
