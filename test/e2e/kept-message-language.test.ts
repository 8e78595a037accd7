/**
 * A message a panel keeps follows the language shown, like the notice line (notice-language): in
 * Settings -> Staff, "added" and then the engine's refusal of the same name again read in Hindi
 * after a tap on हिन्दी in the top bar, and in English after the tap back. It is the same message:
 * the same element keeps its place (only its words change), so a screen reader is not handed it as
 * a new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enProblems from '../../src/renderer/src/i18n/locales/en/problems.json';
import hiProblems from '../../src/renderer/src/i18n/locales/hi/problems.json';
import enStaff from '../../src/renderer/src/i18n/locales/en/staff.json';
import hiStaff from '../../src/renderer/src/i18n/locales/hi/staff.json';
import { openTerminal, shot, type Terminal, openSettings } from './support';

const PACKER = 'Ravi Kumar';
const named = (sentence: string): string => sentence.replace('{{name}}', PACKER);

describe('a message a panel keeps, in the language shown', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({ orderCount: 5, viewport: { width: 1024, height: 768 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("Settings -> Staff: its outcome line reads in Hindi after a switch to Hindi and in English after the switch back, in the same element", async () => {
    const { page } = t;
    await openSettings(page);
    await page.getByTestId('staff-none').waitFor();
    const said = page.getByTestId('staff-said');

    /** Switches to `language` with the top bar's button; the line then reads `words`, in the element first seen. */
    const switchAndRead = async (language: 'hi' | 'en', words: string) => {
      await page.getByTestId(`language-${language}`).click();
      await page.locator(`html[lang="${language}-IN"]`).waitFor({ state: 'attached' });
      await said.filter({ hasText: words }).waitFor({ timeout: 5_000 });
      await expect(said.textContent()).resolves.toBe(words);
      await expect(
        page.evaluate(() => {
          const first = (window as unknown as { said: Element | null }).said;
          return first !== null && first.isConnected && first === document.querySelector('[data-testid="staff-said"]');
        }),
      ).resolves.toBe(true);
    };

    // A confirmation: the packer is added.
    await page.getByTestId('staff-name').fill(PACKER);
    await page.getByTestId('staff-add').click();
    await said.filter({ hasText: named(enStaff.settings.added) }).waitFor();
    await page.evaluate(() => {
      (window as unknown as { said: Element | null }).said = document.querySelector('[data-testid="staff-said"]');
    });
    await switchAndRead('hi', named(hiStaff.settings.added));
    await switchAndRead('en', named(enStaff.settings.added));

    // A refusal from the engine, by its code: the same name again.
    await page.getByTestId('staff-name').fill(PACKER);
    await page.getByTestId('staff-add').click();
    await said.filter({ hasText: named(enProblems.STAFF_NAME_TAKEN) }).waitFor();
    await expect(said.getAttribute('role')).resolves.toBe('alert');
    await switchAndRead('hi', named(hiProblems.STAFF_NAME_TAKEN));
    await page.getByTestId('staff-panel').scrollIntoViewIfNeeded();
    await shot(page, '85-hi-staff-refusal-after-switch');
    await switchAndRead('en', named(enProblems.STAFF_NAME_TAKEN));
    expect(t.problems).toEqual([]);
  }, 90_000);
});
