/**
 * A day's shift read from the store: the day's figures kept before pruning when there are some,
 * else worked out from the records now. And the keeping: each finished day's figures are written
 * two days after it ends (before a finished order's details leave the terminal, three days after
 * anything last happened to it) and again before pruning takes the day's taps.
 */
import type { ShiftReport } from '../../../shared/ipc';
import type { Store } from '../db';
import { addDays, dayBounds, dayOf } from '../../../shared/days';
import { shiftReport } from './figures';
import { monthOf, readKeptDay, recodeMonth, withDay } from './kept';

/** Days after its end that a day's figures are kept: late taps are in, no order of the day has left yet. */
export const KEEP_AFTER_DAYS = 2;
/** Most days kept in one step (an old file's first keeping goes on at the next step). */
const KEEP_BATCH_DAYS = 31;
/** Months kept before migration 14 rewritten in one step (one at most, at a terminal that ran version 11-13 for weeks). */
const RECODE_BATCH_MONTHS = 3;

/** The figures of `day` worked out from the records now; this counter's own taps under its hub name, when it has one. */
function fromRecords(store: Store, day: string, terminal: string, counterName: string | null = null): ShiftReport {
  const { from, to } = dayBounds(day);
  const records = store.history.day(from, to);
  const taps = counterName === null ? records.taps : records.taps.map((t) => (t.terminal === terminal ? { ...t, terminal: counterName } : t));
  return shiftReport({ day, from, to, terminal }, { taps, orders: records.orders });
}

/** The shift of `day` at this counter: the kept figures when the day has them, else from the records. */
export function readShift(store: Store, options: { readonly day: string; readonly terminal: string; readonly counterName?: string | null }): ShiftReport {
  const stored = store.history.getMonth(monthOf(options.day), options.terminal);
  // Unreadable kept figures: the records, while there are any, say the same.
  const kept = stored === null ? null : readKeptDay(stored, options);
  if (kept !== null) return kept;
  return fromRecords(store, options.day, options.terminal, options.counterName ?? null);
}

/** Most days' reports a reader keeps (today, and a day or two the manager looks back at). */
const CACHED_DAYS = 4;

/**
 * readShift with the last answers kept while the data file is unchanged (store.generation(): this
 * connection's changes and other connections' commits). Working a busy day out of its records
 * reads every tap's action and every order's body (about 70 ms for 1,500 orders and 12,000 taps);
 * opening the Shift screen again, or another day and back, costs nothing until the next write.
 * The generation is read before the figures, so a write meanwhile only makes the next read afresh.
 */
export function createShiftReader(store: Store): (options: { readonly day: string; readonly terminal: string; readonly counterName?: string | null }) => ShiftReport {
  const cache = new Map<string, { generation: string; report: ShiftReport }>();
  return (options) => {
    const key = `${options.day}\u0000${options.terminal}\u0000${options.counterName ?? ''}`;
    const generation = store.generation();
    const kept = cache.get(key);
    if (kept?.generation === generation) return kept.report;
    const report = readShift(store, options);
    cache.delete(key);
    cache.set(key, { generation, report });
    if (cache.size > CACHED_DAYS) cache.delete(cache.keys().next().value as string);
    return report;
  };
}

/**
 * Writes the figures of every finished day not kept yet, up to KEEP_AFTER_DAYS before today, in
 * one transaction (a few days' records at most, once a day). Returns the days written.
 */
export function keepDays(store: Store, options: { readonly now: number; readonly terminal: string; readonly counterName?: string | null; readonly lastDay?: string }): string[] {
  const last = options.lastDay ?? addDays(dayOf(options.now), -KEEP_AFTER_DAYS);
  return store.transaction(() => {
    recodeTextMonths(store, options.terminal);
    const kept = store.history.lastDay(options.terminal);
    const oldest = store.history.oldestAt();
    if (oldest === null) return [];
    let day = kept === null ? dayOf(oldest) : addDays(kept, 1);
    const oldestDay = dayOf(oldest);
    if (day < oldestDay) day = oldestDay;
    const written: string[] = [];
    for (; day <= last && written.length < KEEP_BATCH_DAYS; day = addDays(day, 1)) {
      const report = fromRecords(store, day, options.terminal, options.counterName ?? null);
      const month = monthOf(day);
      const stored = store.history.getMonth(month, options.terminal);
      store.history.putMonth(month, options.terminal, withDay(stored, report, { day, terminal: options.terminal }), day, options.now);
      written.push(day);
    }
    return written;
  });
}

/**
 * Months kept as JSON text before migration 14 take the compact form, a batch a call: the same
 * figures (a day that would not read back the same, or is unreadable, stays as it was).
 */
function recodeTextMonths(store: Store, terminal: string): void {
  for (const old of store.history.textMonths(terminal, RECODE_BATCH_MONTHS)) {
    const form = recodeMonth(old.figures, { month: old.month, terminal });
    if (form !== null) store.history.recodeMonth(old.month, terminal, form);
  }
}
