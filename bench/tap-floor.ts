/**
 * The tap's floor: what this machine's Chromium takes from a real click on a trivial page's button
 * (its handler changes one line of text, nothing else) to that change painted, measured as the
 * packer's tap is (bench/ui-packer.ts: from the click event's timestamp, painted once the next
 * frame's rAF and a task after it have run). What it takes is the browser's own share of tap to
 * screen: waiting for the next frame after the click, and that frame's pipeline; the rest is the app's.
 */
import type { Browser } from 'playwright-core';
import { AFTER_PAINT, startFloorServer } from './floor';
import { type Spread, spread } from './stats';

export interface TapFloor {
  /** Click to the change painted. */
  readonly total: Spread;
  /** The change in the DOM to painted. */
  readonly frame: Spread;
  /** Each tap's painting frame's display tick from the click (requestAnimationFrame's timestamp; see inFirstFrame). */
  readonly ticks: readonly number[];
}

/** Taps the trivial page's button `taps` times (after one warm-up tap not counted). */
export async function measureTapFloor(browser: Browser, taps: number): Promise<TapFloor> {
  const server = await startFloorServer();
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await page.goto(server.tapUrl);
    const button = page.locator('#tap');
    await button.waitFor();
    const total: number[] = [];
    const frame: number[] = [];
    const ticks: number[] = [];
    for (let i = 0; i < taps + 1; i++) {
      await page.evaluate(`(() => {
        window.__tap = new Promise((resolve) => {
          let clickAt = null;
          document.addEventListener('click', (e) => { clickAt = e.timeStamp; }, { capture: true, once: true });
          const observer = new MutationObserver(() => {
            if (clickAt === null) return;
            observer.disconnect();
            const domAt = performance.now();
            (${AFTER_PAINT})().then((p) => resolve({ total: p.at - clickAt, frame: p.at - domAt, tick: p.frameTime - clickAt }));
          });
          observer.observe(document.getElementById('state'), { childList: true, characterData: true, subtree: true });
        });
      })()`);
      await button.click();
      const sample = (await page.evaluate('window.__tap')) as { total: number; frame: number; tick: number };
      if (i === 0) continue;
      total.push(sample.total);
      frame.push(sample.frame);
      ticks.push(sample.tick);
    }
    return { total: spread(total), frame: spread(frame), ticks };
  } finally {
    await page.close();
    await server.close();
  }
}

/** The floor's line, apart from the measure against the bound. */
export function tapFloorReport(floor: TapFloor): string {
  return (
    `Tap floor (not the measure): a trivial page's button changing a line of text, click to painted (n=${floor.total.n}): ` +
    `median ${floor.total.median.toFixed(1)} ms  p95 ${floor.total.p95.toFixed(1)} ms; the change in the DOM to painted median ${floor.frame.median.toFixed(1)} / p95 ${floor.frame.p95.toFixed(1)} ms`
  );
}
