/**
 * A day's figures as kept for good (figures_by_month): compact (the file gains a day's figures
 * every day for as long as the terminal runs), read back exactly as the report was, and days kept
 * as JSON text before migration 14 still read as they were, then rewritten compactly with the
 * same figures.
 */
import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFilePath, type DayTap, type HistoryOrder } from '../../../../src/main/core/db';
import { MIGRATIONS } from '../../../../src/main/core/db/migrations';
import { dayBounds, keepDays, readShift, shiftReport } from '../../../../src/main/core/shift';
import { readKeptDay, withDay } from '../../../../src/main/core/shift/kept';
import type { ShiftReport } from '../../../../src/shared/ipc';
import { mulberry32 } from '../../../../sandbox/prng';
import { Cleanup, openedStore, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MIN = 60_000;
const DAY = '2026-11-20';
const { from: FROM, to: TO } = dayBounds(DAY);

/** A day of `count` orders at `counters` by `packers` (null: nobody signed in): accepted, some rejected, cancelled here or elsewhere, packed (some late), handed over. */
function day(seed: number, count: number, packers: readonly (string | null)[], counters: readonly string[], terminal = 'Counter-1'): ShiftReport {
  const rnd = mulberry32(seed);
  const orders: HistoryOrder[] = [];
  const taps: DayTap[] = [];
  let id = 1;
  for (let i = 0; i < count; i++) {
    const addedAt = FROM + 8 * 60 * MIN + Math.floor(rnd() * 13 * 60 * MIN);
    const fate = rnd();
    const orderId = `ORD-${seed}-${i}`;
    orders.push({ id: orderId, addedAt, orderState: fate < 0.05 ? 'CANCELLED' : 'Completed', updatedAt: addedAt + 20 * MIN, promisedPackedAt: addedAt + 30 * MIN, removedAt: null });
    if (fate < 0.05) continue;
    const who = { terminal: counters[Math.floor(rnd() * counters.length)]!, packer: packers[Math.floor(rnd() * packers.length)]! };
    const tap = (moment: DayTap['moment'], createdAt: number): void => void taps.push({ id: id++, orderId, moment, createdAt, ...who });
    if (fate < 0.1) {
      tap('cancel', addedAt + Math.floor(rnd() * 5 * MIN));
      continue;
    }
    const accept = addedAt + Math.floor(rnd() * 6 * MIN);
    tap('accept', accept);
    if (fate < 0.15) {
      tap('cancel', accept + 3 * MIN);
      continue;
    }
    const packed = accept + Math.floor(rnd() * 40 * MIN);
    tap('packed', packed);
    tap('handedOver', packed + Math.floor(rnd() * 20 * MIN));
  }
  taps.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
  return shiftReport({ day: DAY, from: FROM, to: TO, terminal }, { taps, orders });
}

/** The days a store has: quiet, one counter and nobody signed in, a busy day at two counters, one with the hub away. */
function days(): ShiftReport[] {
  const busy = day(3, 400, ['Asha', 'Ravi Kumar', 'मीना', null], ['Counter-1', 'Counter-2']);
  return [
    day(1, 0, [null], ['Counter-1']),
    day(2, 40, [null], ['Counter-1']),
    busy,
    { ...busy, hub: { missingSince: FROM + 15 * 60 * MIN } },
    { ...busy, hub: { missingSince: null } },
  ];
}

describe("a day's kept figures", () => {
  const key = { day: DAY, terminal: 'Counter-1' };

  it('take a fraction of their JSON and read back as the very report that was kept', () => {
    for (const report of days()) {
      const form = withDay(null, report, key);
      expect(form.length).toBeLessThan(JSON.stringify(report).length / 4);
      expect(readKeptDay(form, key)).toEqual({ ...report, source: 'kept' });
    }
    // The busy day's shares are all there: four packers (one with no name) at two counters.
    const busy = readKeptDay(withDay(null, days()[2]!, key), key)!;
    expect(busy.byPacker.map((p) => p.packer)).toEqual(['Asha', 'Ravi Kumar', 'मीना', null]);
    expect(busy.byCounter.map((c) => c.counter)).toEqual(['Counter-1', 'Counter-2']);
    expect(busy.total.late).toBeGreaterThan(0);
  });

  it("keeps a month's days in one row, each read back as it was, a day of a store's month in a few dozen bytes", () => {
    const month: ShiftReport[] = [];
    let form: Uint8Array | null = null;
    for (let d = 1; d <= 30; d++) {
      const day = `2026-11-${String(d).padStart(2, '0')}`;
      const { from, to } = dayBounds(day);
      const report = { ...days()[1]!, day, from, to };
      month.push(report);
      form = withDay(form, report, { day, terminal: 'Counter-1' });
    }
    for (const report of month) expect(readKeptDay(form!, { day: report.day, terminal: 'Counter-1' })).toEqual({ ...report, source: 'kept' });
    expect(readKeptDay(form!, { day: '2026-11-31', terminal: 'Counter-1' })).toBeNull();
    // Thirty like days: the row is much less than thirty rows of a day each.
    expect(form!.length).toBeLessThan(withDay(null, month[0]!, { day: month[0]!.day, terminal: 'Counter-1' }).length * 8);
    // A day written again takes the place of what it was.
    const again = { ...month[4]!, total: { ...month[4]!.total, received: 99 } };
    const rewritten = withDay(form, again, { day: again.day, terminal: 'Counter-1' });
    expect(readKeptDay(rewritten, { day: again.day, terminal: 'Counter-1' })?.total.received).toBe(99);
    expect(readKeptDay(rewritten, { day: month[5]!.day, terminal: 'Counter-1' })).toEqual({ ...month[5]!, source: 'kept' });
  });

  it('keeps as JSON a report that is not the row it is kept under, reads nothing from bytes it does not know, and never writes over a row it cannot read', () => {
    const report = day(2, 40, [null], ['Counter-1']);
    // Kept under another counter: it still reads back as the report that was kept.
    const other = { day: DAY, terminal: 'Counter-9' };
    expect(readKeptDay(withDay(null, report, other), other)).toEqual({ ...report, source: 'kept' });
    const form = withDay(null, report, key);
    expect(readKeptDay(Uint8Array.from([9, ...form.subarray(1)]), key)).toBeNull();
    expect(readKeptDay(form.subarray(0, form.length - 3), key)).toBeNull();
    expect(readKeptDay('{"20": {"day":', key)).toBeNull();
    expect(() => withDay(form.subarray(0, form.length - 3), report, { day: '2026-11-21', terminal: 'Counter-1' })).toThrow(/cannot be read/);
  });

  it('reads days kept as JSON text before migration 14 as they were, and rewrites them compactly with the same figures', () => {
    const dir = tempDir(cleanup);
    fs.mkdirSync(dir, { recursive: true });
    const old = new Database(dataFilePath(dir));
    old.pragma('journal_mode = WAL');
    for (const m of MIGRATIONS.filter((m) => m.version <= 13)) old.exec(m.sql);
    old.pragma('user_version = 13');
    const report = days()[2]!;
    const put = old.prepare(`INSERT INTO daily_figures (day, terminal, figures, written_at) VALUES (?, 'Counter-1', ?, ?)`);
    put.run(DAY, JSON.stringify(report), TO + 2 * 24 * 60 * MIN);
    put.run('2026-11-19', '{"not": "a report"}', TO);
    old.close();

    const store = openedStore(cleanup, dir, () => TO + 3 * 24 * 60 * MIN);
    const raw = new Database(dataFilePath(dir), { readonly: true });
    cleanup.add(() => raw.close());
    const row = (): { form: string; length: number; last: string; written: number } =>
      raw.prepare(`SELECT typeof(figures) AS form, length(figures) AS length, last_day AS last, written_at AS written FROM figures_by_month WHERE month = '2026-11' AND terminal = 'Counter-1'`).get() as never;
    // One row for the month, the key the table's own b-tree (no index of it beside the rows).
    expect(raw.prepare(`SELECT COUNT(*) FROM figures_by_month`).pluck().get()).toBe(1);
    expect(raw.prepare(`SELECT name FROM sqlite_master WHERE tbl_name = 'figures_by_month' AND type = 'index'`).all()).toEqual([]);
    expect(row()).toMatchObject({ form: 'text', last: DAY, written: TO + 2 * 24 * 60 * MIN });
    expect(readShift(store, { day: DAY, terminal: 'Counter-1' })).toEqual({ ...report, source: 'kept' });

    expect(keepDays(store, { now: TO + 3 * 24 * 60 * MIN, terminal: 'Counter-1' })).toEqual([]);
    expect(row()).toMatchObject({ form: 'blob', last: DAY, written: TO + 2 * 24 * 60 * MIN });
    expect(row().length).toBeLessThan(JSON.stringify(report).length / 4);
    expect(readShift(store, { day: DAY, terminal: 'Counter-1' })).toEqual({ ...report, source: 'kept' });
    // An unreadable day is left as it was (the records, while kept, say that day).
    expect(readShift(store, { day: '2026-11-19', terminal: 'Counter-1' }).source).toBe('records');
    const kept = store.history.getMonth('2026-11', 'Counter-1') as Uint8Array;
    expect(inflateRawSync(kept.subarray(1)).toString('utf8')).toContain('[19,{"not":"a report"}]');
    expect(readKeptDay(store.history.getMonth('2026-11', 'Counter-1')!, { day: '2026-11-19', terminal: 'Counter-1' })).toBeNull();
  });
});
