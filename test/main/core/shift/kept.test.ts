/**
 * A day's figures as kept for good (daily_figures): compact (the file gains a row a day for as
 * long as the terminal runs), read back exactly as the report was, and rows kept as JSON text
 * before migration 14 still read as they were, then rewritten compactly with the same figures.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFilePath, type DayTap, type HistoryOrder } from '../../../../src/main/core/db';
import { MIGRATIONS } from '../../../../src/main/core/db/migrations';
import { dayBounds, keepDays, readShift, shiftReport } from '../../../../src/main/core/shift';
import { keptForm, readKept } from '../../../../src/main/core/shift/kept';
import type { ShiftReport } from '../../../../src/shared/ipc';
import { Cleanup, openedStore, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MIN = 60_000;
const DAY = '2026-11-20';
const { from: FROM, to: TO } = dayBounds(DAY);

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A day of `count` orders at `counters` by `packers` (null: nobody signed in): accepted, some rejected, cancelled here or elsewhere, packed (some late), handed over. */
function day(seed: number, count: number, packers: readonly (string | null)[], counters: readonly string[], terminal = 'Counter-1'): ShiftReport {
  const rnd = random(seed);
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
  it('take a fraction of their JSON and read back as the very report that was kept', () => {
    for (const report of days()) {
      const form = keptForm(report, { day: DAY, terminal: 'Counter-1' });
      expect(form).toBeInstanceOf(Uint8Array);
      expect(form.length).toBeLessThan(JSON.stringify(report).length / 4);
      expect(readKept(form, { day: DAY, terminal: 'Counter-1' })).toEqual({ ...report, source: 'kept' });
    }
    // The busy day's shares are all there: four packers (one with no name) at two counters.
    const busy = readKept(keptForm(days()[2]!, { day: DAY, terminal: 'Counter-1' }), { day: DAY, terminal: 'Counter-1' })!;
    expect(busy.byPacker.map((p) => p.packer)).toEqual(['Asha', 'Ravi Kumar', 'मीना', null]);
    expect(busy.byCounter.map((c) => c.counter)).toEqual(['Counter-1', 'Counter-2']);
    expect(busy.total.late).toBeGreaterThan(0);
  });

  it('keeps JSON text for a report that is not the row it is kept under, and reads nothing from bytes it does not know', () => {
    const report = day(2, 40, [null], ['Counter-1']);
    expect(typeof keptForm(report, { day: '2026-11-21', terminal: 'Counter-1' })).toBe('string');
    expect(typeof keptForm(report, { day: DAY, terminal: 'Counter-9' })).toBe('string');
    const form = keptForm(report, { day: DAY, terminal: 'Counter-1' }) as Uint8Array;
    expect(readKept(Uint8Array.from([9, ...form.subarray(1)]), { day: DAY, terminal: 'Counter-1' })).toBeNull();
    expect(readKept(form.subarray(0, form.length - 3), { day: DAY, terminal: 'Counter-1' })).toBeNull();
    expect(readKept('{"day":', { day: DAY, terminal: 'Counter-1' })).toBeNull();
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
    const form = (d: string): unknown => raw.prepare(`SELECT typeof(figures) FROM daily_figures WHERE day = ?`).pluck().get(d);
    // The key is the table's own b-tree: no index of it beside the rows.
    expect(raw.prepare(`SELECT name FROM sqlite_master WHERE tbl_name = 'daily_figures' AND type = 'index'`).all()).toEqual([]);
    expect(form(DAY)).toBe('text');
    expect(readShift(store, { day: DAY, terminal: 'Counter-1' })).toEqual({ ...report, source: 'kept' });

    expect(keepDays(store, { now: TO + 3 * 24 * 60 * MIN, terminal: 'Counter-1' })).toEqual([]);
    expect(form(DAY)).toBe('blob');
    expect(readShift(store, { day: DAY, terminal: 'Counter-1' })).toEqual({ ...report, source: 'kept' });
    expect(raw.prepare(`SELECT written_at FROM daily_figures WHERE day = ?`).pluck().get(DAY)).toBe(TO + 2 * 24 * 60 * MIN);
    expect((raw.prepare(`SELECT length(figures) FROM daily_figures WHERE day = ?`).pluck().get(DAY) as number)).toBeLessThan(JSON.stringify(report).length / 4);
    // An unreadable row is left as it was (the records, while kept, say that day).
    expect(form('2026-11-19')).toBe('text');
    expect(readShift(store, { day: '2026-11-19', terminal: 'Counter-1' }).source).toBe('records');
  });
});
