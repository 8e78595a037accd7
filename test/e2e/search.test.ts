/**
 * The Orders search in Chromium, at 1024x768 (touch) and 1920x1080, in English and Hindi: reached
 * by Find at the top with nothing typed (a tap) or by F3; empty and "nothing found" in words; a customer's name and an order number's last
 * digits find orders, which open their order screen (and back to the search, kept) and their
 * timeline; an order that left the terminal is found by its number and says so; the standing and
 * day filters; axe finds nothing; and a product's barcode scanned on the screen changes no invoice.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/core/db';
import type { OutboxEntryView } from '../../src/shared/ipc';
import type { Order } from '../../src/shared/protocol';
import { smallControls } from './geometry';
import { afterRepeatWindow, acceptOrder, axe, invoicesAt, openTerminal, orderPool, PERSON_KEY_MS, scannerKeys, shot, until, untilSettled, type AxeFinding, type Terminal } from './support';

const serious = (v: AxeFinding[]) => v.filter((f) => f.impact === 'serious' || f.impact === 'critical');
const GONE_ID = 'ORD-8642097';
const EAN = '8901030865275';

/** An order that finished and left this terminal a day ago, written beside the running engine (as the CLI writes). */
function leaveOrder(t: Terminal, like: Order): void {
  const opened = openStore({ dataDir: join(t.dataDir, 'environments', 'training'), now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  try {
    const now = Date.now();
    store.orders.saveBody({ ...like, id: GONE_ID, orderState: 'Completed' }, now - 4 * 86_400_000);
    store.scrubbing(() => store.orders.retire(GONE_ID, now - 86_400_000));
  } finally {
    store.close();
  }
}

async function search(t: Terminal, text: string): Promise<void> {
  const field = t.page.getByTestId('search-field');
  await field.fill('');
  await field.pressSequentially(text, { delay: PERSON_KEY_MS });
  await field.press('Enter');
}

const VIEWPORTS = [
  { name: '1024', width: 1024, height: 768, touch: true },
  { name: '1920', width: 1920, height: 1080, touch: false },
] as const;

describe('the Orders search', () => {
  let t: Terminal | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  for (const vp of VIEWPORTS)
    it(`finds orders on the terminal and gone from it, in English and Hindi, at ${vp.width}x${vp.height}`, async () => {
      t = await openTerminal({ viewport: { width: vp.width, height: vp.height }, touch: vp.touch });
      const { page, sandbox } = t;
      const take = orderPool(sandbox);
      // An order with an invoice recorded: nothing on the search screen may change it.
      const invoiced = take();
      await acceptOrder(t, invoiced);
      await page.getByTestId('invoice-input').fill('INV-SRCH-0001');
      await page.getByTestId('invoice-input').press('Enter');
      await until('the invoice at the service', () => invoicesAt(sandbox, invoiced.id).length === 1);
      leaveOrder(t, invoiced);

      // A tap on Find at the top with nothing typed, or F3 from anywhere.
      if (vp.touch) await page.locator('.id-entry button[type="submit"]').tap();
      else await page.keyboard.press('F3');
      await page.getByTestId('search-screen').waitFor();
      await expect(page.getByTestId('search-empty').textContent()).resolves.toContain('Type an order number');
      expect(serious(await axe(page))).toEqual([]);
      expect(await smallControls(page)).toEqual([]);
      await shot(page, `search-01-empty-en-${vp.name}`);

      // A customer's name: the orders for them, each with its state, time and name.
      const named = take((o) => Boolean(o.billing?.name));
      const surname = named.billing!.name!.split(' ').at(-1)!;
      await search(t, surname);
      const row = page.locator(`[data-testid="search-hit"][data-order-id="${named.id}"]`);
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain(named.billing!.name!);
      await expect(row.textContent()).resolves.toContain('Customer’s name');
      expect(serious(await axe(page))).toEqual([]);
      await shot(page, `search-02-by-name-en-${vp.name}`);
      // It opens its order screen; back (Escape) is the search again, as it was.
      await row.getByTestId('search-hit-open').click();
      await page.locator(`[data-testid="order-screen"][data-order-id="${named.id}"]`).waitFor();
      await page.keyboard.press('Escape');
      await row.waitFor();
      await expect(page.getByTestId('search-field').inputValue()).resolves.toBe(surname);

      // Last digits, and the timeline (with its reprints) from the row.
      await search(t, invoiced.id.replace(/\D/g, '').slice(-5));
      const byDigits = page.locator(`[data-testid="search-hit"][data-order-id="${invoiced.id}"]`);
      await byDigits.waitFor();
      await expect(byDigits.getAttribute('data-standing')).resolves.toBe('open');
      await byDigits.getByTestId('search-hit-history').click();
      await page.getByTestId('order-history-dialog').waitFor();
      await page.getByTestId('timeline').waitFor();
      expect(serious(await axe(page))).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByTestId('order-history-dialog').waitFor({ state: 'detached' });

      // An order gone from the terminal: found by its number, saying so; its timeline opens.
      await search(t, GONE_ID.slice(-4));
      const gone = page.locator(`[data-testid="search-hit"][data-order-id="${GONE_ID}"]`);
      await gone.waitFor();
      await expect(gone.getAttribute('data-standing')).resolves.toBe('left');
      await expect(gone.textContent()).resolves.toContain('Left the terminal');
      await shot(page, `search-03-left-en-${vp.name}`);
      await gone.getByTestId('search-hit-open').click();
      await page.getByTestId('order-history-dialog').waitFor();
      await page.keyboard.press('Escape');
      // The standing filter keeps what it names.
      await page.getByTestId('search-standing-open').click();
      await page.getByTestId('search-nothing').waitFor();
      await page.getByTestId('search-standing-left').click();
      await gone.waitFor();
      await page.getByTestId('search-standing-all').click();

      // Nothing found, in words.
      await search(t, 'Zzyzx');
      await expect(page.getByTestId('search-nothing').textContent()).resolves.toContain('No order matches “Zzyzx”');

      // No text, today: the orders that arrived today (the seeded ones did).
      await page.getByTestId('search-field').fill('');
      await page.getByTestId('search-day-today').click();
      await page.getByTestId('search-hit').first().waitFor();
      expect(await page.getByTestId('search-hit').count()).toBeGreaterThan(5);
      expect(serious(await axe(page))).toEqual([]);

      // A product's barcode scanned here, outside the field and into it: refused or searched, no invoice changed.
      const taps = async () => {
        const r = await t!.harness.host.handle('outbox.list', {});
        return r.ok ? (r.value as OutboxEntryView[]).length : -1;
      };
      const tapsBefore = await taps();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await scannerKeys(page, EAN);
      await page.getByTestId('notice-error').filter({ hasText: `${EAN} is a product's barcode` }).waitFor({ timeout: 8_000 });
      await page.getByTestId('search-field').focus();
      await afterRepeatWindow(page); // the same code again within 2 s is one scan
      await scannerKeys(page, EAN);
      await page.getByTestId('search-nothing').filter({ hasText: EAN }).waitFor({ timeout: 8_000 });
      await expect(page.getByTestId('search-field').inputValue()).resolves.toBe(EAN);
      await page.getByTestId('search-screen').waitFor();
      expect(await page.getByTestId('invoice-offer').count()).toBe(0);
      await untilSettled(t!);
      expect(invoicesAt(sandbox, invoiced.id)).toEqual(['INV-SRCH-0001']);
      expect(await taps()).toBe(tapsBefore);

      // In Hindi: the same screen in Hindi words.
      await page.getByTestId('language-hi').click();
      await page.getByTestId('search-day-any').click();
      await search(t, GONE_ID.slice(-4));
      await gone.waitFor();
      await expect(gone.textContent()).resolves.toContain('टर्मिनल से हटा');
      await search(t, 'Zzyzx');
      await expect(page.getByTestId('search-nothing').textContent()).resolves.toContain('“Zzyzx” से कोई ऑर्डर नहीं मिला');
      await search(t, surname);
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain('ग्राहक का नाम');
      expect(serious(await axe(page))).toEqual([]);
      expect(await smallControls(page)).toEqual([]);
      await shot(page, `search-04-by-name-hi-${vp.name}`);
      // Nothing spills sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(t.problems).toEqual([]);
    }, 180_000);
});
