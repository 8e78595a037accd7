/**
 * The geometry of Packdesk's charts, drawn by hand in SVG: the Shift screen's orders by hour (React,
 * renderer/components/shift/HourChart.tsx) and the fleet page's three charts (plain DOM,
 * fleet/page/main.ts). Only numbers here, no DOM, so both draw the same axes the same way and a unit
 * test can check them. Why by hand and not a chart library: docs/decisions.md "Charts".
 */

export interface ChartBox {
  width: number;
  height: number;
  pad: { left: number; right: number; top: number; bottom: number };
}

/** A round top for the y axis, so its labels are whole numbers (at least 1, so an empty chart has an axis). */
export function niceMax(max: number): number {
  if (!Number.isFinite(max) || max <= 4) return Math.max(1, Math.ceil(Number.isFinite(max) ? max : 0));
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil(max / step) * step;
}

/** The y axis's labelled values: 0 and the top, and the middle only when it is a whole number. */
export function yTicks(max: number): number[] {
  return max % 2 === 0 ? [0, max / 2, max] : [0, max];
}

/** Where a value sits on the y axis (SVG's y grows downwards). */
export function yOf(box: ChartBox, max: number, value: number): number {
  const base = box.height - box.pad.bottom;
  return base - (Math.max(0, value) / max) * (base - box.pad.top);
}

/**
 * Bars in slots along the x axis, `series` bars side by side in the middle of each slot (at least a
 * gap either side, each bar at most `maxBarWidth`, so one busy hour is not a wall): the x and width
 * of bar `k` of slot `i`, and the slot's middle for its label.
 */
export function barSlots(
  box: ChartBox,
  slots: number,
  series = 1,
  maxBarWidth = Number.POSITIVE_INFINITY,
): { slotMiddle: (i: number) => number; bar: (i: number, k: number) => { x: number; width: number } } {
  const slot = (box.width - box.pad.left - box.pad.right) / Math.max(1, slots);
  const gap = slots > 12 ? 1 : Math.min(6, slot * 0.1);
  const barWidth = Math.max(1, Math.min(maxBarWidth, (slot - 2 * gap) / series));
  const inset = (slot - barWidth * series) / 2;
  return {
    slotMiddle: (i) => box.pad.left + slot * (i + 0.5),
    bar: (i, k) => ({ x: box.pad.left + slot * i + inset + barWidth * k, width: barWidth }),
  };
}
