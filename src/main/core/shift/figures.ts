/**
 * A day's shift in figures, from the terminal's own records (its taps and its orders): what arrived,
 * what was accepted, rejected, cancelled, packed and handed over, what was packed late, and how long
 * Accept and packing took; as a whole, by hour, per packer and per counter. Pure: the records come
 * from db/history-table.ts, so the same rules serve the screen, the printout, the CSV and the
 * figures kept before pruning.
 *
 * A tap counts once it is made here and not taken back: queued, being sent or confirmed. Undone
 * taps, taps done elsewhere first (DONE_ELSEWHERE) and taps the service refused did not happen
 * (db/history-table.ts reads only the counted ones, with the moment each is).
 */
import type { DurationSpread, ShiftFigures, ShiftReport } from '../../../shared/ipc';
import type { DayTap, HistoryOrder } from '../db';

/** Who made a tap: the packer's name (or null) at a counter. */
interface Who {
  readonly packer: string | null;
  readonly counter: string;
}

/** The moments of one order this terminal's records know. */
interface OrderStory {
  readonly order: HistoryOrder | undefined;
  accept?: DayTap;
  cancel?: DayTap;
  packed?: DayTap;
  handedOver?: DayTap;
}

/** Durations and counts gathered for one set of figures, before the spreads are worked out. */
interface Tally {
  received: number;
  accepted: number;
  rejected: number;
  cancelled: number;
  packed: number;
  handedOver: number;
  late: number;
  toAccept: number[];
  toPack: number[];
}

function tally(): Tally {
  return { received: 0, accepted: 0, rejected: 0, cancelled: 0, packed: 0, handedOver: 0, late: 0, toAccept: [], toPack: [] };
}

/** The value at rank ceil(p * n) of `sorted` (nearest rank), or null when empty. */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? null;
}

/** The count, median and 90th percentile of `values` (ms). */
export function spreadOf(values: readonly number[]): DurationSpread {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, medianMs: nearestRank(sorted, 0.5), p90Ms: nearestRank(sorted, 0.9) };
}

function figuresOf(t: Tally): ShiftFigures {
  return {
    received: t.received,
    accepted: t.accepted,
    rejected: t.rejected,
    cancelled: t.cancelled,
    packed: t.packed,
    handedOver: t.handedOver,
    late: t.late,
    toAccept: spreadOf(t.toAccept),
    toPack: spreadOf(t.toPack),
  };
}

function whoOf(tap: DayTap): Who {
  return { packer: tap.packer, counter: tap.terminal };
}

/** Options of one report: the day and its bounds, this counter's id. */
export interface ReportScope {
  readonly day: string;
  readonly from: number;
  readonly to: number;
  readonly terminal: string;
}

/** The day's shift from its records: the counted `taps` of the orders tapped that day (each order's all, in time order), `orders` that arrived or were tapped. */
export function shiftReport(scope: ReportScope, records: { taps: readonly DayTap[]; orders: readonly HistoryOrder[] }): ShiftReport {
  const { from, to } = scope;
  const inDay = (t: number | null | undefined): t is number => typeof t === 'number' && t >= from && t < to;
  const hourOf = (t: number): number => new Date(t).getHours();

  const stories = new Map<string, OrderStory>();
  for (const order of records.orders) stories.set(order.id, { order });
  const storyOf = (id: string): OrderStory => {
    let s = stories.get(id);
    if (!s) stories.set(id, (s = { order: undefined }));
    return s;
  };
  // Each order's first tap of each moment (the records come in time order).
  for (const tap of records.taps) {
    const story = storyOf(tap.orderId);
    if (story[tap.moment] === undefined) story[tap.moment] = tap;
  }

  const total = tally();
  const packers = new Map<string | null, Tally>();
  const counters = new Map<string, Tally>();
  const cancelledBy = new Map<string, { by: 'here' | 'elsewhere'; packer: string | null; counter: string | null; count: number }>();
  const byHour = Array.from({ length: 24 }, (_, hour) => ({ hour, received: 0, packed: 0 }));
  // Adds to the whole day's figures and to the share of whoever made `tap`.
  const credit = (tap: DayTap, add: (t: Tally) => void): void => {
    const who = whoOf(tap);
    add(total);
    let p = packers.get(who.packer);
    if (!p) packers.set(who.packer, (p = tally()));
    add(p);
    let c = counters.get(who.counter);
    if (!c) counters.set(who.counter, (c = tally()));
    add(c);
  };
  const noteCancel = (by: 'here' | 'elsewhere', who: Who | null): void => {
    const key = `${by}\u0000${who?.packer ?? ''}\u0000${who?.counter ?? ''}`;
    const row = cancelledBy.get(key) ?? { by, packer: who?.packer ?? null, counter: who?.counter ?? null, count: 0 };
    row.count += 1;
    cancelledBy.set(key, row);
  };

  for (const story of stories.values()) {
    const { order, accept, cancel, packed, handedOver } = story;
    if (order && inDay(order.addedAt)) {
      total.received += 1;
      byHour[hourOf(order.addedAt)]!.received += 1;
    }
    if (accept && inDay(accept.createdAt))
      credit(accept, (t) => {
        t.accepted += 1;
        if (order) t.toAccept.push(Math.max(0, accept.createdAt - order.addedAt));
      });
    if (cancel && inDay(cancel.createdAt)) {
      // Rejected: nobody had accepted it here before it was cancelled.
      const rejected = !accept || accept.createdAt > cancel.createdAt;
      credit(cancel, (t) => (rejected ? (t.rejected += 1) : (t.cancelled += 1)));
      noteCancel('here', whoOf(cancel));
    } else if (!cancel && order?.orderState?.toUpperCase() === 'CANCELLED') {
      // Cancelled by someone else: on the day the service changed it (or it arrived, when unknown).
      const when = order.updatedAt ?? order.addedAt;
      if (inDay(when)) {
        total.cancelled += 1;
        noteCancel('elsewhere', null);
      }
    }
    if (packed && inDay(packed.createdAt)) {
      byHour[hourOf(packed.createdAt)]!.packed += 1;
      const late = order?.promisedPackedAt != null && packed.createdAt > order.promisedPackedAt;
      credit(packed, (t) => {
        t.packed += 1;
        if (late) t.late += 1;
        if (accept) t.toPack.push(Math.max(0, packed.createdAt - accept.createdAt));
      });
    }
    if (handedOver && inDay(handedOver.createdAt)) credit(handedOver, (t) => (t.handedOver += 1));
  }

  return {
    day: scope.day,
    terminal: scope.terminal,
    from,
    to,
    source: 'records',
    total: figuresOf(total),
    cancelledBy: [...cancelledBy.values()].sort((a, b) => b.count - a.count),
    byHour,
    byPacker: [...packers]
      .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
      .map(([packer, t]) => ({ packer, figures: figuresOf(t) })),
    byCounter: [...counters].sort(([a], [b]) => a.localeCompare(b)).map(([counter, t]) => ({ counter, figures: figuresOf(t) })),
  };
}
