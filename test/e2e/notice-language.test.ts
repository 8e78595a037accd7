/**
 * The notice line follows the language shown: a refusal on screen when the packer taps the other
 * language reads in that language at once (it is kept as how to word it, not as words), and in the
 * first one again after a tap back. It stays the same notice: the same element keeps its place in
 * the alert region (only its words change), so a screen reader is not handed it as a new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enShift from '../../src/renderer/src/i18n/locales/en/shift.json';
import hiShift from '../../src/renderer/src/i18n/locales/hi/shift.json';
import { acceptOrder, openTerminal, orderPool, shot, type Terminal } from './support';

/** A product's EAN-13: typed as an invoice number it is refused in words. */
const EAN = '8901030865275';
const worded = (sentence: string): string => sentence.replace('{{code}}', EAN);

describe('a notice in the language shown', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({ orderCount: 10 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a refusal on screen reads in Hindi after a switch to Hindi, and in English after the switch back', async () => {
    const { page, sandbox } = t;
    await acceptOrder(t, orderPool(sandbox)());
    await page.getByTestId('invoice-input').fill(EAN);
    await page.getByTestId('invoice-input').press('Enter');
    const notice = page.getByTestId('notice-error').locator('.notice-text');
    await notice.filter({ hasText: worded(enShift.scan.product) }).waitFor();
    // The words' element, to see after each switch that it is the same one (no new notice).
    await page.evaluate(() => {
      (window as unknown as { shown: Element | null }).shown = document.querySelector('[data-testid="notice-error"] .notice-text');
    });
    const sameNotice = () =>
      page.evaluate(() => {
        const shown = (window as unknown as { shown: Element | null }).shown;
        return shown !== null && shown.isConnected && shown === document.querySelector('[data-testid="notice-error"] .notice-text');
      });

    await page.getByTestId('language-hi').click();
    await page.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await notice.filter({ hasText: worded(hiShift.scan.product) }).waitFor({ timeout: 5_000 });
    await expect(notice.textContent()).resolves.toBe(worded(hiShift.scan.product));
    await expect(sameNotice()).resolves.toBe(true);
    await shot(page, '84-hi-notice-after-switch');

    await page.getByTestId('language-en').click();
    await page.locator('html[lang="en-IN"]').waitFor({ state: 'attached' });
    await notice.filter({ hasText: worded(enShift.scan.product) }).waitFor({ timeout: 5_000 });
    await expect(notice.textContent()).resolves.toBe(worded(enShift.scan.product));
    await expect(sameNotice()).resolves.toBe(true);
    expect(t.problems).toEqual([]);
  }, 90_000);
});
