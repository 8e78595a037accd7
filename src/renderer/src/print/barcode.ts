/**
 * Code 128 bars for an order id, drawn by bwip-js into a drawing context that only records where
 * each bar is, so React renders the bars as inline SVG elements (no canvas, no data: URL, nothing
 * the strict CSP would have to allow). Only bwip-js's Code 128 encoder is imported, so the bundle
 * does not carry its hundred other symbologies.
 */
import { code128 as encodeCode128, type DrawingContext } from 'bwip-js/browser';

/** Light space either side of the bars, in modules: scanners need ten. */
export const QUIET_ZONE_MODULES = 10;

/** One bar: where it starts and how wide it is, in modules from the left edge (quiet zone included). */
export interface Bar {
  readonly x: number;
  readonly width: number;
}

/** A linear barcode as bars on a grid of modules. */
export interface BarPattern {
  readonly text: string;
  /** The whole width in modules, quiet zones included. */
  readonly modules: number;
  readonly bars: readonly Bar[];
}

/**
 * The Code 128 bars for `text`, or null when it cannot be encoded. Only printable ASCII: bwip-js
 * would encode other characters as bytes that a scanner reads back as different characters, and a
 * barcode that scans as another id is worse than none (the slip then shows the id in large type).
 */
export function code128(text: string): BarPattern | null {
  if (!/^[\x20-\x7e]+$/.test(text)) return null;
  try {
    const drawn = encodeCode128({ bcid: 'code128', text, scale: 1, includetext: false }, barRecorder());
    if (!drawn || drawn.bars.length === 0) return null;
    const bars = drawn.bars.map((b) => ({ x: b.x + QUIET_ZONE_MODULES, width: b.width }));
    return { text, modules: drawn.width + 2 * QUIET_ZONE_MODULES, bars };
  } catch {
    return null;
  }
}

/**
 * At scale 1 bwip-js draws each bar as a vertical line centred on the bar, one unit per module;
 * an odd-width bar's centre is given rounded up by half a module, so the left edge is the floor.
 * Anything but vertical lines (a 2D code) is refused: this reads linear codes only.
 */
function barRecorder(): DrawingContext<{ width: number; bars: Bar[] } | null> {
  const bars: Bar[] = [];
  let width = 0;
  let linear = true;
  return {
    scale: () => [1, 1],
    measure: () => ({ width: 0, ascent: 0, descent: 0 }),
    init: (w) => {
      width = w;
    },
    line: (x0, _y0, x1, _y1, lw) => {
      if (x0 !== x1) linear = false;
      bars.push({ x: Math.floor(x0 - lw / 2), width: lw });
    },
    polygon: () => {
      linear = false;
    },
    hexagon: () => {
      linear = false;
    },
    ellipse: () => {
      linear = false;
    },
    fill: () => undefined,
    text: () => undefined,
    end: () => (linear ? { width, bars: bars.sort((a, b) => a.x - b.x) } : null),
  };
}
