/**
 * A backlog of new orders (a store back after a long outage): more than one pass of intake reads
 * (the sandbox's pages cut to 5 orders, so a pass's 20 pages are 100 orders). While it is read the
 * sync bar says so, in the terminal's language, and not as a problem. Every order placed reaches
 * the terminal. Chromium, the browser harness, the in-app training sandbox.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openTerminal, shot, type Terminal } from './support';

const BACKLOG = 1_200;
const WORDS = {
  en: { catchingUp: 'Many new orders waiting', checked: 'Orders checked' },
  hi: { catchingUp: 'बहुत से नए ऑर्डर बाकी हैं', checked: 'ऑर्डर जाँचे गए' },
} as const;

let terminal: Terminal | undefined;
afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
});

describe('a backlog of new orders', () => {
  for (const language of ['en', 'hi'] as const) {
    it(`is said as orders being taken in, not as a fault, until all are in (${language})`, async () => {
      terminal = await openTerminal({
        orderCount: 6,
        settings: { intakeIntervalMs: 1_000, language },
        engineOptions: { intakeMinIntervalMs: 500 },
        sandboxOptions: { arrivalEveryMs: 0, changesMinIntervalMs: 0, changesMaxPageSize: 5 },
      });
      const { page, sandbox } = terminal;
      const line = page.getByTestId('sync-intake');
      await line.filter({ hasText: WORDS[language].checked }).waitFor({ timeout: 10_000 });
      const placed = Array.from({ length: BACKLOG }, () => sandbox.placeOrder());

      const catchingUp = line.filter({ hasText: WORDS[language].catchingUp });
      await catchingUp.waitFor({ timeout: 20_000 });
      // Not a problem's colour: orders keep arriving. (Read off the line while it says so.)
      expect(await catchingUp.getAttribute('class')).not.toMatch(/sync-problem/);
      await shot(page, `intake-backlog-${language}`);

      // Read to the end: every order placed is on the terminal. (The usual "Orders checked" comes
      // back once these orders are out of intake's 2-minute overlap: re-reading them is more than
      // a pass's 20 pages of 5, so each window takes two passes until then.)
      const host = terminal.harness.host;
      await expect
        .poll(async () => {
          const listed = await host.handle('orders.list', {});
          return listed.ok ? (listed.value as unknown[]).length : 0;
        }, { timeout: 60_000, interval: 500 })
        .toBe(6 + BACKLOG);
      for (const order of [placed[0]!, placed[BACKLOG / 2]!, placed[BACKLOG - 1]!]) {
        expect(await host.handle('orders.get', { orderId: order.id })).toMatchObject({ ok: true, value: { id: order.id } });
      }
    }, 120_000);
  }
});
