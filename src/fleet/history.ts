/**
 * The fleet over time for the fleet page's charts: taps waiting per store, counters offline, late
 * orders per hour. Folded from every north message the centre's fleet stream keeps (read from a day
 * back when the page's server starts, then live), so the charts are full at once. Judged like the
 * status: on the centre's clock (when a message arrived there).
 */
import type { NorthMessage } from '../main/core/hub/chain/north';
import { OFFLINE_AFTER_MS } from './status';

/** How far back the charts reach. */
export const HISTORY_KEEP_MS = 24 * 3_600_000;
/** How many points a line chart has over its window. */
const POINTS = 120;
const HOUR_MS = 3_600_000;

interface Heard {
  readonly at: number;
  readonly taps: number;
}

export interface FleetSeries {
  readonly from: number;
  readonly to: number;
  readonly stepMs: number;
  /** The end of each step (centre's clock). */
  readonly times: readonly number[];
  /** Per store: the taps its counters said were waiting, summed, at each time. */
  readonly tapsWaiting: readonly { readonly storeId: string; readonly values: readonly number[] }[];
  /** Counters not heard for 25 s at each time (of those heard before it). */
  readonly countersOffline: readonly number[];
  /** Per hour of the last day: the late orders stores reported, the highest of each store in that hour, summed. */
  readonly lateByHour: readonly { readonly hour: number; readonly late: number }[];
}

/** Everything the charts need, folded message by message. */
export class FleetHistory {
  /** Per counter (store/counter), what it said, in arrival order. */
  private readonly counters = new Map<string, { storeId: string; heard: Heard[] }>();
  /** Per store, per hour start: the highest late count it reported. */
  private readonly late = new Map<string, Map<number, number>>();

  add(message: NorthMessage, arrivedAt: number): void {
    if (message.kind === 'counter') {
      const key = `${message.storeId}/${message.counterId}`;
      const entry = this.counters.get(key) ?? { storeId: message.storeId, heard: [] };
      this.counters.set(key, entry);
      const last = entry.heard.at(-1);
      // Arrival order is the stream's order; a message from a caught-up link may arrive with its own older stamp, which is fine.
      if (!last || arrivedAt >= last.at) entry.heard.push({ at: arrivedAt, taps: message.tapsWaiting });
      return;
    }
    const hour = Math.floor(arrivedAt / HOUR_MS) * HOUR_MS;
    const store = this.late.get(message.storeId) ?? new Map<number, number>();
    this.late.set(message.storeId, store);
    store.set(hour, Math.max(store.get(hour) ?? 0, message.late));
  }

  /** Drops what is older than the charts reach. */
  prune(now: number): void {
    const cutoff = now - HISTORY_KEEP_MS;
    for (const [key, entry] of this.counters) {
      // Keep the newest message before the cutoff: it says what the counter held at the window's start.
      const firstKept = entry.heard.findIndex((h) => h.at >= cutoff);
      if (firstKept === -1 && entry.heard.at(-1)!.at < cutoff - OFFLINE_AFTER_MS) this.counters.delete(key);
      else if (firstKept > 1) entry.heard.splice(0, firstKept - 1);
    }
    for (const store of this.late.values()) for (const hour of store.keys()) if (hour < cutoff - HOUR_MS) store.delete(hour);
  }

  /** The series over the last `windowMs` before `now`. */
  series(now: number, windowMs: number): FleetSeries {
    const span = Math.min(Math.max(windowMs, 60_000), HISTORY_KEEP_MS);
    const stepMs = Math.ceil(span / POINTS);
    const from = now - span;
    const times = Array.from({ length: POINTS }, (_, i) => from + (i + 1) * stepMs);
    const taps = new Map<string, number[]>();
    const offline = times.map(() => 0);
    for (const { storeId, heard } of this.counters.values()) {
      const values = taps.get(storeId) ?? times.map(() => 0);
      taps.set(storeId, values);
      let i = -1;
      times.forEach((t, k) => {
        while (i + 1 < heard.length && heard[i + 1]!.at <= t) i += 1;
        if (i < 0) return;
        const latest = heard[i]!;
        values[k] = values[k]! + latest.taps;
        if (t - latest.at > OFFLINE_AFTER_MS) offline[k] = offline[k]! + 1;
      });
    }
    const lastHour = Math.floor(now / HOUR_MS) * HOUR_MS;
    const lateByHour = Array.from({ length: 24 }, (_, i) => {
      const hour = lastHour - (23 - i) * HOUR_MS;
      let late = 0;
      for (const store of this.late.values()) late += store.get(hour) ?? 0;
      return { hour, late };
    });
    return {
      from,
      to: now,
      stepMs,
      times,
      tapsWaiting: [...taps].map(([storeId, values]) => ({ storeId, values })).sort((a, b) => a.storeId.localeCompare(b.storeId)),
      countersOffline: offline,
      lateByHour,
    };
  }
}
