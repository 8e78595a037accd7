/**
 * Days read in the terminal's language's order (issue 40, item 12): the Shift screen's day and the
 * Orders search's day are day / month / year (dd/mm/yyyy, the month by its name), in English and
 * Hindi at 1024x768, whatever the browser's own language; before, the browser's date field showed
 * mm/dd/yyyy (Chromium in US English). A day chosen in the three lists is the day shown.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../src/shared/days';
import { crowdedControls } from './geometry';
import { openFromTopBar, openTerminal, shot, type Terminal, showLanguage } from './support';

/** The parts of a day field, left to right, by what each lists. */
const order = (page: Page, testId: string) =>
  page.evaluate((id) => {
    const parts = [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"] select, [data-testid="${id}"] input`)];
    // One line, read left to right: parts one above another are no order at all.
    const tops = new Set(parts.map((el) => Math.round(el.getBoundingClientRect().top)));
    if (tops.size > 1) return [`${tops.size} lines`];
    return parts.sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left).map((el) => el.dataset.testid?.replace(`${id}-`, '') ?? el.tagName);
  }, testId);

describe('a day in the terminal language order', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 10, viewport: { width: 1024, height: 768 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads day, month, year on the Shift screen and in the Orders search, and picks that day', async () => {
    const { page } = t;
    const today = dayOf(Date.now());
    const [y, m] = today.split('-');
    for (const language of ['en', 'hi'] as const) {
      await showLanguage(page, language);

      await openFromTopBar(page, 'shift');
      await page.getByTestId('shift-screen').waitFor();
      expect(await page.locator('input[type="date"]').count()).toBe(0);
      await expect(order(page, 'shift-day')).resolves.toEqual(['day', 'month', 'year']);
      await expect(crowdedControls(page, '.shift-head')).resolves.toEqual([]);
      await page.getByTestId('shift-day-day').selectOption('1');
      await page.locator(`[data-testid="shift-screen"][data-day="${y}-${m}-01"]`).waitFor();
      const month = await page.getByTestId('shift-day-month').locator('option:checked').innerText();
      expect(month).toBe(new Intl.DateTimeFormat(`${language}-IN`, { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, Number(m) - 1, 1)));
      await shot(page, `day-field-shift-${language}-1024`);

      await page.keyboard.press('F3');
      await page.getByTestId('search-screen').waitFor();
      await expect(order(page, 'search-day')).resolves.toEqual(['day', 'month', 'year']);
      await page.getByTestId('search-day-day').selectOption('1');
      await page.locator(`[data-testid="search-day"][data-value="${y}-${m}-01"]`).waitFor();
      await shot(page, `day-field-search-${language}-1024`);
      await page.getByTestId('search-day-any').click();
      await page.keyboard.press('Escape');
      await page.getByTestId('queue-list').waitFor();
    }
    expect(t.problems).toEqual([]);
  }, 60_000);
});
