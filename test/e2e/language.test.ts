/**
 * The staff's own language: a packer switches the terminal to Hindi from the top bar in one tap
 * (for the shift, not saved), a manager sets it in settings (saved, and kept after a restart).
 * In Hindi every screen is in Hindi, counts take the right plural, the outbox explains a waiting
 * tap in plain words with the technical answer only under "details for support", Devanagari
 * renders in the font shipped with the app, and no label or button is cut off or overflows at
 * 1024 and 1366 pixels wide. Screenshots of each screen in both languages at both widths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { acceptOrder, MANAGER_PIN, openFromTopBar, openTerminal, orderPool, reloadTerminal, scan, setPin, shot, tapStep, type Terminal, until, openSettings } from './support';

const WIDTHS = [1024, 1366] as const;

/** Labels, buttons and headings whose text does not fit their box (cut off or spilling out), or that leave the window. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selectors = [
      'button',
      'label',
      'legend',
      'h1',
      'h2',
      'th',
      '.nav-button',
      '.filter-chip',
      '.step-pill',
      '.sync-link',
      '.sync-item',
      '.sync-message',
      '.mark',
      '.deadline',
      '.outbox-state',
      '.row-facts',
      '.row-title',
      '.next-step-label',
      '.training-banner',
      '.id-entry-label',
    ];
    const bad: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selectors.join(','))) {
      if (el.closest('.visually-hidden, details:not([open]), [hidden]')) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      // Inline runs have no box of their own; a 1-pixel box is a visually hidden label.
      if (style.display === 'inline' || box.width <= 2 || box.height <= 2) continue;
      const text = (el.textContent ?? '').trim().slice(0, 60);
      if (el.scrollWidth > el.clientWidth + 1) bad.push(`too wide (${el.scrollWidth} > ${el.clientWidth}): ${text}`);
      if (el.scrollHeight > el.clientHeight + 1) bad.push(`too tall (${el.scrollHeight} > ${el.clientHeight}): ${text}`);
      // Past the edge of a strip that scrolls sideways (the step filters) is reachable, not cut off.
      const scroller = (e: HTMLElement | null): boolean => !!e && (['auto', 'scroll'].includes(getComputedStyle(e).overflowX) || scroller(e.parentElement));
      if (box.right > window.innerWidth + 1 && !scroller(el.parentElement)) bad.push(`past the right edge: ${text}`);
    }
    return bad;
  });
}

/** English words of the terminal's own that must not show once it is in Hindi. */
const ENGLISH_UI = ['Orders', 'Outbox', 'Settings', 'Online', 'Offline', 'Waiting', 'Refused', 'Nothing left', 'Change units', 'Invoice', 'Fulfilment', 'Next'];

async function englishLeft(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return ENGLISH_UI.filter((w) => new RegExp(`\\b${w}\\b`).test(text));
}

/** Every screen at both widths: screenshots, no overflow, and (in Hindi) no English UI words. */
async function visitScreens(page: Page, language: 'en' | 'hi', orderId: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 768 });
    const screens: [string, () => Promise<void>][] = [
      ['queue', async () => void (await page.getByTestId('order-row').first().waitFor())],
      ['order', async () => void (await page.getByTestId('item-row').first().waitFor())],
      ['outbox', async () => void (await page.getByTestId('outbox-screen').waitFor())],
      ['settings', async () => void (await page.getByTestId('terminal-form').waitFor())],
    ];
    for (const [name, ready] of screens) {
      if (name === 'queue') await page.locator('.top-nav .nav-button').nth(0).click();
      if (name === 'order') await page.locator(`[data-testid="order-row"][data-order-id="${orderId}"]`).click();
      if (name === 'outbox') await openFromTopBar(page, 'outbox');
      if (name === 'settings') {
        // Settings lock again when left: the manager PIN each time.
        await openFromTopBar(page, 'settings');
        await page.getByTestId('settings-pin').fill(MANAGER_PIN);
        await page.getByTestId('settings-pin').press('Enter');
      }
      await ready();
      await page.evaluate(() => document.fonts.ready);
      await shot(page, `60-${language}-${name}-${width}`);
      expect(await overflowing(page), `${language} ${name} at ${width}`).toEqual([]);
      if (language === 'hi') expect(await englishLeft(page), `${name} at ${width}`).toEqual([]);
    }
  }
  await page.setViewportSize({ width: 1366, height: 768 });
}

/** Opens settings with the manager PIN (the screen keeps it while open). */
async function unlockSettings(page: Page): Promise<void> {
  await openSettings(page);
  await page.getByTestId('terminal-form').waitFor();
}

describe('the staff in their own language', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({ orderCount: 30 });
    await setPin(t);
    // The page read "no PIN yet" when it opened; load it again so settings ask for the PIN.
    await reloadTerminal(t.page);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('switches to Hindi from the top bar in one tap: every screen, plurals, plain words with support details, the shipped font, nothing cut off', async () => {
    const { page, sandbox } = t;
    const take = orderPool(sandbox);
    const order = take();
    await acceptOrder(t, order);
    // Settings open once in English so its screenshots have the unlocked panels.
    await unlockSettings(page);
    await visitScreens(page, 'en', order.id);

    // One tap in the top bar: Hindi for this shift.
    await page.getByTestId('language-hi').click();
    await until('the page in Hindi', () => true);
    await page.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await page.locator('.top-nav .nav-button').nth(0).filter({ hasText: 'ऑर्डर' }).waitFor();
    await expect(page.getByTestId('language-en').textContent()).resolves.toBe('English');

    // Devanagari is drawn with the font that ships with the app (this machine has no Devanagari font of its own).
    const font = await page.evaluate(async () => {
      await document.fonts.ready;
      const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'Noto Sans Devanagari');
      return { loaded: faces.filter((f) => f.status === 'loaded').length, check: document.fonts.check('20px "Noto Sans Devanagari"', 'ऑर्डर') };
    });
    expect(font.loaded).toBeGreaterThanOrEqual(1);
    expect(font.check).toBe(true);

    // Plurals and plain words while the service cannot be reached: one tap, then two.
    sandbox.faults.set({ outage: 'refuse' });
    const second = take();
    await scan(page, second.id);
    await tapStep(page, 'ACCEPT');
    await page.getByTestId('sync-connectivity').filter({ hasText: 'ऑफ़लाइन' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('sync-waiting').filter({ hasText: '1 टैप भेजना बाकी' }).waitFor();
    await page.getByTestId('sync-message').filter({ hasText: 'कनेक्शन नहीं है। 1 टैप सुरक्षित है' }).waitFor();
    const third = take();
    await scan(page, third.id);
    await tapStep(page, 'ACCEPT');
    await page.getByTestId('sync-waiting').filter({ hasText: '2 टैप भेजने बाकी' }).waitFor();
    await page.getByTestId('sync-message').filter({ hasText: '2 टैप सुरक्षित हैं' }).waitFor();

    // The outbox: the waiting tap says so in words a packer knows, in the waiting colour (no red
    // box); the connection error, address and code only under "details for support".
    await page.keyboard.press('F4');
    const entry = page.getByTestId('outbox-waiting').locator(`[data-testid="outbox-entry"][data-order-id="${second.id}"]`);
    await entry.getByTestId('outbox-why').waitFor({ timeout: 15_000 });
    await expect(entry.getByTestId('outbox-why').textContent()).resolves.toContain('ऑर्डर सर्विस तक नहीं पहुँच पाए');
    await expect(entry.getByTestId('outbox-why').getAttribute('class')).resolves.toBe('outbox-why');
    await expect(entry.locator('.outbox-error').count()).resolves.toBe(0);
    const visible = await entry.innerText();
    for (const technical of ['NETWORK', '127.0.0.1', 'ECONNREFUSED', 'HTTP']) expect(visible).not.toContain(technical);
    const details = entry.getByTestId('outbox-details');
    await expect(details.locator('summary').textContent()).resolves.toBe('सपोर्ट के लिए जानकारी');
    await expect(details.getByText('NETWORK').isVisible()).resolves.toBe(false);
    await details.locator('summary').click();
    await details.getByText('NETWORK').waitFor();
    await shot(page, '61-hi-outbox-details');
    // The sync bar's sentence is read whole: it wraps rather than being cut, at every width.
    for (const width of [1024, 1366, 1920]) {
      await page.setViewportSize({ width, height: 768 });
      const cut = await page.getByTestId('sync-message').evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
      expect(cut, `sync message cut at ${width}`).toBe(false);
      await shot(page, `62-hi-sync-bar-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    sandbox.faults.set({ outage: 'none' });
    // On a loaded machine the retries after an outage can take a while; what the packer waits for is this line.
    await page.getByTestId('sync-waiting').filter({ hasText: 'सभी टैप भेज दिए गए' }).waitFor({ timeout: 60_000 });
    // Right after the sends, "recently finished" and the sync bar agree.
    await page.getByTestId('outbox-history').getByTestId('outbox-entry').first().waitFor();

    await unlockSettings(page);
    await visitScreens(page, 'hi', order.id);
    expect(t.problems).toEqual([]);

    // A restart (the window loaded again) forgets the shift's choice: the terminal's language, English, is back.
    await reloadTerminal(page);
    await page.locator('html[lang="en-IN"]').waitFor({ state: 'attached' });
    await page.locator('.top-nav .nav-button').nth(0).filter({ hasText: 'Orders' }).waitFor();
  }, 240_000);

  it('a manager sets Hindi as the terminal language in settings: saved with the settings and kept after a restart', async () => {
    const { page, harness } = t;
    // A fresh window: whatever the previous test left open or chose for its shift is gone.
    await reloadTerminal(page);
    await unlockSettings(page);
    await page.getByTestId('settings-language').selectOption('hi');
    await page.getByTestId('settings-save').click();
    await page.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await shot(page, '63-hi-settings-saved');
    await page.getByTestId('terminal-form').getByRole('status').filter({ hasText: 'सहेजा गया।' }).waitFor();
    const saved = await harness.host.handle('settings.get', {});
    expect(saved.ok && (saved.value as { language?: string }).language).toBe('hi');
    // The settings schema refuses a language the terminal does not offer.
    const refused = await harness.host.handle('settings.update', { pin: MANAGER_PIN, patch: { language: 'xx' } } as never);
    expect(refused.ok).toBe(false);

    await reloadTerminal(page);
    await page.locator('html[lang="hi-IN"]').waitFor({ state: 'attached' });
    await page.getByTestId('nav-settings').filter({ hasText: 'सेटिंग्स' }).waitFor({ state: 'attached' });
    await shot(page, '64-hi-after-restart');
    // Right after a load the outbox knows only pending taps: "recently finished" still agrees with
    // the sync bar on when the last tap went.
    const lastSent = /\d{2}:\d{2}/.exec((await page.getByTestId('sync-last').textContent()) ?? '')?.[0];
    expect(lastSent).toBeDefined();
    await page.keyboard.press('F4');
    await page.getByTestId('outbox-history').filter({ hasText: `आख़िरी टैप ${lastSent} पर भेजा गया था` }).waitFor();
    await shot(page, '65-hi-outbox-after-restart');
    await page.keyboard.press('Escape');

    // Back to English for whoever uses this terminal next.
    await unlockSettings(page);
    await page.getByTestId('settings-language').selectOption('en');
    await page.getByTestId('settings-save').click();
    await page.locator('html[lang="en-IN"]').waitFor({ state: 'attached' });
    expect(t.problems).toEqual([]);
  }, 120_000);
});
