/**
 * Settings' lists show their choice whole (issue 40, item 12): at 1024x768, 1366x768 and 1920x1080
 * in English and Hindi, no list in Settings cuts the words of what is chosen. Before, the update
 * hour's "Only when I press “Install now”" (its first choice) was cut to its first words in a
 * 12rem box.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutSelects } from './geometry';
import { openSettings, openTerminal, shot, type Terminal, showLanguage } from './support';

describe('Settings at the screens stores have', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal({ orderCount: 5, viewport: { width: 1024, height: 768 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows every list\'s choice whole, at every size and language', async () => {
    const { page } = t;
    const problems: string[] = [];
    for (const language of ['en', 'hi'] as const) {
      await showLanguage(page, language);
      await openSettings(page);
      await page.getByTestId('terminal-form').waitFor();
      for (const size of [
        { width: 1024, height: 768 },
        { width: 1366, height: 768 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(size);
        problems.push(...(await cutSelects(page, 'main')).map((p) => `${language}, ${size.width}: ${p}`));
      }
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.locator('select[id$="-quiet"]').scrollIntoViewIfNeeded();
      await shot(page, `settings-quiet-hour-${language}-1024`);
      await page.keyboard.press('Escape');
      await page.getByTestId('queue-list').waitFor();
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
