/**
 * The top bar with packers by name (issue 24's chip): with nobody signed in ("Sign in with PIN")
 * and with a packer signed in ("Sign out"), at 1024 and 1366 wide, in English and Hindi, every
 * top-bar control is whole, on screen and clear of the others. At 1024 in English the sign-in
 * button once lay over "Orders" (the chip shrank below its button and the button spilled out).
 * Not checked: the signed-in packer's name, which at 1024 has room for a letter or three ("R…"),
 * the chip's words giving way to the find field and the nav by design (staff.css).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crowdedControls } from './geometry';
import { MANAGER_PIN, openTerminal, shot, type Terminal } from './support';

describe('the top bar with packers by name', () => {
  let t: Terminal;

  beforeAll(async () => {
    t = await openTerminal({ orderCount: 5, viewport: { width: 1024, height: 768 } });
    const added = await t.harness.host.handle('staff.add', { pin: MANAGER_PIN, name: 'Ravi Kumar', packerPin: '5791' });
    if (!added.ok) throw new Error(added.problem.message);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps every control whole and apart, signed out and signed in, at 1024 and 1366, in English and Hindi', async () => {
    const { page } = t;
    const problems: string[] = [];
    for (const signedIn of [false, true]) {
      const state = await t.harness.host.handle(signedIn ? 'staff.signIn' : 'staff.signOut', signedIn ? { packerPin: '5791' } : {});
      if (!state.ok) throw new Error(state.problem.message);
      await page.getByTestId(signedIn ? 'packer-sign-out' : 'packer-sign-in').waitFor();
      for (const language of ['en', 'hi'] as const) {
        // The top bar offers the other language only.
        const switchTo = page.getByTestId(`language-${language}`);
        if ((await switchTo.count()) > 0) await switchTo.click();
        await page.locator(`html[lang="${language}-IN"]`).waitFor({ state: 'attached' });
        await page.evaluate(() => document.fonts.ready);
        for (const width of [1024, 1366]) {
          await page.setViewportSize({ width, height: 768 });
          const found = await crowdedControls(page, '.top-bar');
          problems.push(...found.map((p) => `${signedIn ? 'signed in' : 'nobody signed in'}, ${language}, ${width}: ${p}`));
          if (width === 1024) await shot(page, `top-bar-${signedIn ? 'signed-in' : 'sign-in'}-${language}-1024`);
        }
        await page.setViewportSize({ width: 1024, height: 768 });
      }
    }
    expect(problems).toEqual([]);
    expect(t.problems).toEqual([]);
  }, 60_000);
});
