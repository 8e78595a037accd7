/**
 * Where an intake window starts and ends (decisions.md, "Intake and reconciliation"), on the order
 * service's clock as the witnesses read it (core/time/service-clock). Kept apart from the pass so
 * the one rule that decides whether an order can be missed is read in one place.
 */
import type { ServiceNow } from '../time/service-clock';

export interface WindowInput {
  /** The order service's now as the witnesses read it. */
  readonly serviceNow: ServiceNow;
  /** This terminal's own clock now. */
  readonly own: number;
  /** The last fully read window's end, or null before the first pass. */
  readonly cursor: number | null;
  readonly overlapMs: number;
  /** How far back the very first pass looks. */
  readonly initialLookbackMs: number;
}

/**
 * The window to read now. It ends at the latest reading and starts at the cursor less the
 * overlap, less the spread between the readings: the last window ended at the latest reading of
 * its time, and if the earliest was the true one, changes stamped in between had yet to be made.
 * A wider window costs a few repeated ids, never a missed order.
 *
 * A reading within half the overlap of this terminal's own clock is taken as its own: the measured
 * differences carry the network delay and whole seconds, so a clock that is right would otherwise
 * end each window up to a second early, and an order placed in that second would wait a pass.
 * A cursor after the end was written on a clock that ran ahead (how far it really read is
 * unknown): the window starts from the first pass's lookback again.
 */
export function intakeWindow(input: WindowInput): { readonly from: number; readonly to: number } {
  const { own, overlapMs } = input;
  const snap = (reading: number): number => (Math.abs(own - reading) > overlapMs / 2 ? reading : own);
  const earliest = snap(input.serviceNow.earliest);
  const latest = Math.max(earliest, snap(input.serviceNow.latest));
  const to = latest;
  const cursor = input.cursor !== null && input.cursor > to ? null : input.cursor;
  const from = Math.max(0, (cursor ?? earliest - input.initialLookbackMs) - overlapMs - (latest - earliest));
  return { from, to };
}
