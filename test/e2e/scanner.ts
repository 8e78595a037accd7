/**
 * A barcode scanner in the e2e tests: its keys as a burst through Chromium's own input, scans
 * that wait for what they should show and do what a packer does when one is not taken, and the
 * page's own clock for the repeat window.
 */
import type { Locator, Page } from 'playwright-core';
import { REPEAT_WINDOW_MS } from '../../src/renderer/src/scanner/repeat';

/** The DOM `code` and Windows virtual key of a character a scanner types (letters, digits, '-'). */
function keyOf(ch: string): { code: string; vk: number } {
  if (/^[a-z]$/i.test(ch)) return { code: `Key${ch.toUpperCase()}`, vk: ch.toUpperCase().charCodeAt(0) };
  if (/^[0-9]$/.test(ch)) return { code: `Digit${ch}`, vk: ch.charCodeAt(0) };
  if (ch === '-') return { code: 'Minus', vk: 189 };
  throw new Error(`a scanner in these tests types letters, digits and '-', not "${ch}"`);
}

/**
 * A scanner's keys: `code` then Enter into whatever has focus, through Chromium's own input
 * (CDP Input.dispatchKeyEvent, as Playwright's keyboard). Every event is handed over at once,
 * without waiting for the one before to be answered: typed one by one from this busy test process,
 * keys reached the page 40-120 ms apart on a loaded two-core machine, a person's pace, which the
 * terminal rightly does not take for a scan.
 */
export async function scannerKeys(page: Page, code: string, options: { enter?: boolean } = {}): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const keys = [...code].map((ch) => ({ key: ch, text: ch, ...keyOf(ch) }));
    // Without its Enter: a test sends that itself, as a busy machine delivers it late.
    if (options.enter !== false) keys.push({ key: 'Enter', text: '\r', code: 'Enter', vk: 13 });
    await Promise.all(
      keys.flatMap((k) => [
        cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: k.key, code: k.code, text: k.text, unmodifiedText: k.text, windowsVirtualKeyCode: k.vk }),
        cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: k.key, code: k.code, windowsVirtualKeyCode: k.vk }),
      ]),
    );
  } finally {
    await cdp.detach();
  }
}

/**
 * A scanner: the code as a burst of keys (scannerKeys) with focus outside text fields; resolves
 * once the scanned order is on screen (scanUntilSeen).
 */
export async function scan(page: Page, code: string): Promise<void> {
  return scanUntilSeen(page, code, page.locator(`[data-testid="order-screen"][data-order-id="${code}"]`));
}

/** scanUntilSeen, until the element with test id `shown` appears. */
export async function scanUntil(page: Page, code: string, shown: string): Promise<void> {
  return scanUntilSeen(page, code, page.getByTestId(shown));
}

/**
 * A scanner's burst outside text fields (scannerKeys: keys back to back, no extra timer here, since
 * on a loaded machine a test's 5 ms timer alone can stretch to a person's pace), then Enter; done
 * once `target` appears. Should the keys still arrive too far apart, the terminal ignores them, or
 * reads only their tail (afterMissedScan), and the packer's answer to "no beep" is to scan again:
 * so is this helper's (at most twice, and it says so).
 */
export async function scanUntilSeen(page: Page, code: string, target: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await scannerKeys(page, code);
    const seen = await target
      .first()
      .waitFor({ timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    const onlyTail = await afterMissedScan(page, code);
    if (seen && !onlyTail) return;
    if (attempt === 3) throw new Error(`three scans of ${code} did not show ${String(target)}; the page showed: ${await whatIsShown(page)}`);
    console.warn(`scan of ${code} not taken (keys arrived too slowly on this busy machine); scanning again`);
    await afterRepeatWindow(page); // the same code again within the window is ignored
  }
}

/**
 * What a packer does when only the last keys of a scan were read: a key that came more than 250 ms
 * after the one before starts a new burst (scanner/detector.ts), so a loaded machine holding back
 * "ORD-3" reads "586021" as the scan; no order id, it is offered as the open order's invoice. The
 * packer sees a number that is not the one scanned, closes the offer and scans again. True when
 * such an offer was closed; any other code on offer is no tail of this scan and fails the test.
 */
async function afterMissedScan(page: Page, code: string): Promise<boolean> {
  const offered = page.getByTestId('invoice-offer').getByTestId('invoice-offer-code');
  if ((await offered.count()) === 0) return false;
  const text = (await offered.textContent()) ?? '';
  if (text === code) return false;
  if (!code.endsWith(text)) throw new Error(`scanning ${code} left "${text}" on offer as an invoice`);
  console.warn(`only the last keys of ${code} were read as a scan ("${text}", offered as an invoice): closing the offer`);
  await page.keyboard.press('Escape');
  await page.getByTestId('invoice-offer').waitFor({ state: 'detached' });
  return true;
}

/** The screen, an open dialog and the notice line, in a few words, for a failure's message. */
async function whatIsShown(page: Page): Promise<string> {
  return page.evaluate(() => {
    const screen = document.querySelector('[data-testid="order-screen"]')?.getAttribute('data-order-id');
    const dialog = document.querySelector('dialog[open]');
    const notice = [...document.querySelectorAll('[data-testid^="notice-"]')].map((n) => n.textContent ?? '').join(' ').trim();
    return [
      screen ? `order ${screen}` : 'no order open',
      dialog ? `dialog "${dialog.getAttribute('data-testid') ?? ''}": ${dialog.textContent?.slice(0, 120) ?? ''}` : 'no dialog',
      notice ? `notice: ${notice}` : 'no notice',
    ].join('; ');
  });
}

/** Keeps, on the page, the time stamp of the last key it was handed (see afterRepeatWindow). */
export async function recordKeyTimes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.addEventListener('keydown', (e) => ((window as unknown as { __lastKeyAt: number }).__lastKeyAt = e.timeStamp), true);
  });
}

/**
 * Waits until the page's own clock is `windowMs` past the last key it was handed: the same code
 * scanned after this is a new scan, not a repeat of the last (scanner/repeat.ts; 250 ms for a
 * product being packed). The terminal tells a repeat by its key events' time stamps, on that clock;
 * a sleep in this process only guessed at it, and fell short when keys reached a loaded page late.
 */
export async function afterRepeatWindow(page: Page, windowMs: number = REPEAT_WINDOW_MS): Promise<void> {
  await page.waitForFunction(
    (ms) => {
      const at = (window as unknown as { __lastKeyAt?: number }).__lastKeyAt;
      return at === undefined || performance.now() - at > ms;
    },
    windowMs,
    { polling: 50, timeout: windowMs + 15_000 },
  );
}
