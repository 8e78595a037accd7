import { describe, expect, it } from 'vitest';
import { barSlots, type ChartBox, niceMax, yOf, yTicks } from '../../src/shared/chart';

const box: ChartBox = { width: 240, height: 120, pad: { left: 30, right: 10, top: 10, bottom: 10 } };

describe('chart geometry (Shift screen and fleet page)', () => {
  it('rounds the top of the y axis up to a whole, readable number', () => {
    expect([0, 0.4, 3, 4, 5, 7, 12, 23, 99, 101, 1234].map(niceMax)).toEqual([1, 1, 3, 4, 5, 7, 20, 30, 100, 200, 2000]);
    expect(niceMax(Number.NaN)).toBe(1);
  });

  it('labels 0, the top, and the middle only when it is whole', () => {
    expect(yTicks(20)).toEqual([0, 10, 20]);
    expect(yTicks(7)).toEqual([0, 7]);
    expect(yTicks(1)).toEqual([0, 1]);
  });

  it('puts 0 on the base line and the top on the top padding; nothing below the base', () => {
    expect(yOf(box, 20, 0)).toBe(110);
    expect(yOf(box, 20, 20)).toBe(10);
    expect(yOf(box, 20, 10)).toBe(60);
    expect(yOf(box, 20, -5)).toBe(110);
  });

  it('lays bars side by side inside their slot, none overlapping the next slot', () => {
    const slots = barSlots(box, 4, 2);
    // 200 px of plot in 4 slots of 50: a 5 px gap either side, two bars of 20.
    expect(slots.bar(0, 0)).toEqual({ x: 35, width: 20 });
    expect(slots.bar(0, 1)).toEqual({ x: 55, width: 20 });
    expect(slots.bar(3, 1).x + slots.bar(3, 1).width).toBeLessThanOrEqual(box.width - box.pad.right);
    expect(slots.slotMiddle(1)).toBe(105);
    // 24 hours: one pixel either side, as the fleet page's late-orders bars always were.
    const day = barSlots({ ...box, width: 280 }, 24);
    expect(day.bar(0, 0)).toEqual({ x: 31, width: 8 });
    // One busy hour across the whole width: bars no wider than asked, in the middle of the slot.
    const one = barSlots(box, 1, 2, 40);
    expect(one.bar(0, 0)).toEqual({ x: 90, width: 40 });
    expect(one.bar(0, 1).x + 40 - box.pad.left).toBe(box.width - box.pad.right - one.bar(0, 0).x);
  });
});
