/**
 * The top bar with packers by name (issue 24's chip): with nobody signed in ("Sign in with PIN")
 * and with a packer signed in ("Sign out"), with and without the new-order badge, at 1024 and
 * 1366 wide, in English and Hindi, every top-bar control is whole, on screen and clear of the
 * others, on one row. Before, at 1024 (and at 1366 with the badge) the chip's button lay over
 * "Orders" by up to 99 px, and a signed-in "Ravi Kumar" showed as "R…"; then the bar took a second
 * row, 63 px less for the order; since issue 40 Outbox, Settings and Shift share a More button
 * up to 1400 px wide and the bar keeps one row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlRows, crowdedControls } from './geometry';
import { MANAGER_PIN, openTerminal, shot, type Terminal, showLanguage } from './support';

describe('the top bar with packers by name', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({
      orderCount: 5,
      viewport: { width: 1024, height: 768 },
      // New orders arrive within a second, for the new-order badge.
      settings: { intakeIntervalMs: 1_000 },
      engineOptions: { intakeMinIntervalMs: 500 },
      sandboxOptions: { arrivalEveryMs: 0, changesMinIntervalMs: 0 },
    });
    const added = await t.harness.host.handle('staff.add', { pin: MANAGER_PIN, name: 'Ravi Kumar', packerPin: '5791' });
    if (!added.ok) throw new Error(added.problem.message);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps every control whole, apart and on one row, signed out and signed in, with and without new orders, at 1024 and 1366, in English and Hindi', async () => {
    const { page } = t;
    const problems: string[] = [];
    for (const [signedIn, newOrders] of [[false, false], [true, false], [true, true], [false, true]] as const) {
      if (newOrders && (await page.getByTestId('new-order-count').count()) === 0) {
        t.sandbox.placeOrder();
        t.sandbox.placeOrder();
        await page.getByTestId('new-order-count').waitFor({ timeout: 15_000 });
      }
      const packer = await t.harness.host.handle(signedIn ? 'staff.signIn' : 'staff.signOut', signedIn ? { packerPin: '5791' } : {});
      if (!packer.ok) throw new Error(packer.problem.message);
      await page.getByTestId(signedIn ? 'packer-sign-out' : 'packer-sign-in').waitFor();
      for (const language of ['en', 'hi'] as const) {
        // The top bar offers the other language only.
        await showLanguage(page, language);
        for (const width of [1024, 1366]) {
          await page.setViewportSize({ width, height: 768 });
          const found = await crowdedControls(page, '.top-bar');
          const state = `${signedIn ? 'signed in' : 'nobody signed in'}${newOrders ? ', new orders' : ''}`;
          problems.push(...found.map((p) => `${state}, ${language}, ${width}: ${p}`));
          const rows = await controlRows(page, '.top-bar');
          if (rows !== 1) problems.push(`${state}, ${language}, ${width}: ${rows} rows`);
          await shot(page, `top-bar-${signedIn ? 'signed-in' : 'sign-in'}${newOrders ? '-new' : ''}-${language}-${width}`);
        }
        await page.setViewportSize({ width: 1024, height: 768 });
      }
    }
    expect(problems).toEqual([]);
    expect(t.problems).toEqual([]);
  }, 60_000);
});
