/**
 * The order service's clock has two witnesses: the token's issued_at and the service's own Date
 * header. A terminal days off, or a token server hours off, must still get every order, and the
 * sync bar must say which clock is wrong. Engine, token manager and client wired as the app wires
 * them, against the sandbox over HTTP, with a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { intakeWindow } from '../../../../src/main/core/intake/window';
import { serviceEngine, tempDir } from '../../../support/engine';
import { Cleanup, intakeSandbox, PROVIDER } from './helpers';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const HOUR = 3_600_000;

describe("intake on the order service's clock, as two witnesses read it", () => {
  for (const offset of [72 * HOUR, -72 * HOUR])
    it(`a terminal whose clock is 72 h ${offset > 0 ? 'ahead' : 'behind'} gets every order, and is told its clock is off`, async () => {
      const box = await intakeSandbox(cleanup);
      const s = serviceEngine(cleanup, box, tempDir(cleanup), { now: () => Date.now() + offset, serviceProviderId: () => PROVIDER });
      expect(await s.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 12, failed: 0 } });
      const placed = box.placeOrder();
      // The witnesses read the service's now a network delay (and a Date's part second) early: an
      // order placed in that instant comes with the pass after, through the overlap.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await s.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 1 } });
      expect(s.engine.getOrder(placed.id)).not.toBeNull();
      // The cursor is on the service's clock, not this terminal's.
      expect(Math.abs((s.intake.status().cursorAt ?? 0) - Date.now())).toBeLessThan(60_000);
      const notice = s.engine.status().notice;
      expect(notice?.code).toBe(offset > 0 ? 'CLOCK_AHEAD' : 'CLOCK_BEHIND');
      expect(Math.abs(Number(notice?.values?.offsetMs) - 72 * HOUR)).toBeLessThan(60_000);
    });

  for (const tokenOffset of [-3 * HOUR, 2 * HOUR])
    it(`a token server ${Math.abs(tokenOffset) / HOUR} h ${tokenOffset < 0 ? 'behind' : 'ahead'} is not believed alone: no order is missed, and the disagreement is said`, async () => {
      const box = await intakeSandbox(cleanup);
      box.faults.set({ tokenClockOffsetMs: tokenOffset });
      const s = serviceEngine(cleanup, box, tempDir(cleanup), { serviceProviderId: () => PROVIDER });
      expect(await s.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 12 } });
      const placed = box.placeOrder();
      expect(await s.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 1 } });
      expect(s.engine.getOrder(placed.id)).not.toBeNull();
      // The window ends at the later reading: never hours in the past, where the next order would be missed.
      const cursor = s.intake.status().cursorAt ?? 0;
      expect(cursor).toBeGreaterThan(Date.now() - 60_000);
      expect(cursor).toBeLessThan(Date.now() + Math.max(0, tokenOffset) + 60_000);
      // The terminal's clock is right: the packer is not told to set it, support is told the clocks disagree.
      const status = s.engine.status();
      expect(status.notice).toEqual({ code: 'CLOCKS_DISAGREE', values: { offsetMs: Math.abs(tokenOffset) } });
      expect(status.message).toMatch(/token server's clock and the order service's disagree by/);
      expect(Math.abs(status.clockSkewMs ?? Infinity)).toBeLessThan(5_000);
    });
});

describe('the window', () => {
  it('spans both readings: it ends at the later one and starts the spread earlier than the cursor less the overlap', () => {
    const now = 1_800_000_000_000;
    const w = intakeWindow({ serviceNow: { earliest: now - 3 * HOUR, latest: now }, own: now, cursor: now - 60_000, overlapMs: 120_000, initialLookbackMs: 24 * HOUR });
    expect(w).toEqual({ to: now, from: now - 60_000 - 120_000 - 3 * HOUR });
    // Readings within half the overlap of the terminal's own clock are its own (no window ends a second early).
    expect(intakeWindow({ serviceNow: { earliest: now - 900, latest: now - 900 }, own: now, cursor: null, overlapMs: 120_000, initialLookbackMs: HOUR })).toEqual({
      to: now,
      from: now - HOUR - 120_000,
    });
  });
});
