/**
 * `npm run web`'s harness end to end: the built renderer in Debian's Chromium, talking to the real
 * host (engine + in-app training sandbox) over the token-guarded WebSocket.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RENDERER_DIR, startWebHarness, type WebHarness } from '../../src/web';
import { connectChromium } from '../support/shared-chromium';

describe('the browser harness', () => {
  let dataDir: string;
  let harness: WebHarness;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(join(DEFAULT_RENDERER_DIR, 'index.html')))
      throw new Error(`${join(DEFAULT_RENDERER_DIR, 'index.html')} is missing: run \`npm run build\` before this test (npm test does).`);
    dataDir = mkdtempSync(join(tmpdir(), 'packdesk-harness-'));
    harness = await startWebHarness({ dataDir, host: { settingsOverride: { environment: 'training' } } });
    // A manager PIN, so the app opens on the queue rather than on the first-run PIN screen.
    await harness.host.handle('pin.set', { newPin: '2468' });
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the app: Chromium shows the TRAINING banner and the seeded orders', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      // Chromium notes that a <meta> CSP cannot carry frame-ancestors; the harness sends it as a header.
      if (m.type() === 'error' && !m.text().includes('is ignored when delivered via a <meta> element')) problems.push(m.text());
    });
    await page.goto(harness.url);
    await expect(page.getByTestId('training-banner').textContent({ timeout: 15_000 })).resolves.toContain('TRAINING');
    const rows = page.getByTestId('order-row');
    await rows.first().waitFor({ timeout: 15_000 });
    // The first rows are the host's drawing in the HTML; the app (and the bridge before it) is up once it has replaced them.
    await page.locator('.first-screen').waitFor({ state: 'detached', timeout: 15_000 });
    const seeded = new Set(harness.host.sandbox!.orders().map((o) => o.id));
    const shown = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-order-id')));
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(seeded.has(id ?? '')).toBe(true);
    // The token never shows in the page's address once the bridge has taken it.
    expect(page.url()).not.toContain('#t=');
    expect(problems).toEqual([]);
    await page.close();
  });
});
