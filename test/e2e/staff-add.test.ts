/**
 * Settings -> Staff, a manager adding packers one after another: the name field empties as
 * "added" is said, so the next name can be typed at once and is kept, even when reading the list
 * again is slow (a busy terminal). Before, the field was emptied only after that reading, and a
 * name typed meanwhile was erased (seen on a quick machine: the next add found an empty field).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enStaff from '../../src/renderer/src/i18n/locales/en/staff.json';
import { openTerminal, until, type Terminal, openSettings } from './support';

/** How long the host takes over each reading of the staff list in this test. */
const SLOW_LIST_MS = 1_500;

describe('adding packers one after another', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({ orderCount: 5, viewport: { width: 1024, height: 768 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the next name typed right after "added", while the list is still being read again', async () => {
    const { page } = t;
    await openSettings(page);
    await page.getByTestId('staff-none').waitFor();

    // From here the host reads the staff list slowly.
    const host = t.harness.host;
    const handle = host.handle.bind(host);
    let listsAnswered = 0;
    host.handle = async (command, payload) => {
      if (command !== 'staff.list') return handle(command, payload);
      await new Promise((r) => setTimeout(r, SLOW_LIST_MS));
      const reply = await handle(command, payload);
      listsAnswered += 1;
      return reply;
    };
    try {
      const said = page.getByTestId('staff-said');
      const added = (name: string) => enStaff.settings.added.replace('{{name}}', name);
      const field = page.getByTestId('staff-name');

      await field.fill('Asha Verma');
      await page.getByTestId('staff-add').click();
      await said.filter({ hasText: added('Asha Verma') }).waitFor();
      // Empty as soon as "added" is said: the list has not been read again yet.
      expect(listsAnswered).toBe(0);
      await expect(field.inputValue()).resolves.toBe('');

      // The next name, typed at once, is still there once the slow list is in.
      await field.fill('Meena Rao');
      await until('the staff list read again', () => listsAnswered >= 1);
      await page.getByTestId('staff-row').filter({ hasText: 'Asha Verma' }).waitFor();
      await expect(field.inputValue()).resolves.toBe('Meena Rao');

      await page.getByTestId('staff-add').click();
      await said.filter({ hasText: added('Meena Rao') }).waitFor();
      await page.getByTestId('staff-row').filter({ hasText: 'Meena Rao' }).waitFor();
      await expect(page.getByTestId('staff-row').count()).resolves.toBe(2);
      expect(t.problems).toEqual([]);
    } finally {
      host.handle = handle;
    }
  }, 60_000);
});
