/**
 * The shift in one picture, from a real SQLite file: a scripted day at two counters (orders that
 * arrive, are accepted, rejected, cancelled here and by the marketplace, packed on time and late,
 * handed to riders; taps undone and refused; orders of the day before packed after midnight) and
 * the figures the terminal works out, against figures this test computes from its own script.
 * Then the day kept before pruning, and an order's timeline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../../src/main/core/db';
import { HISTORY_KEEP_MS, pruneHistory } from '../../../../src/main/core/outbox';
import { mustMove } from '../../../../src/main/core/outbox/lifecycle';
import { dayBounds, keepDays, orderTimeline, readShift, shiftCsv } from '../../../../src/main/core/shift';
import type { ShiftFigures } from '../../../../src/shared/ipc';
import type { Action } from '../../../../src/shared/protocol';
import { Cleanup, openedStore, tempDir } from '../../../support/engine';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MIN = 60_000;
const DAY = '2026-11-20';
const { from: FROM, to: TO } = dayBounds(DAY);

/** A small deterministic random source (mulberry32), so the script is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type TapState = 'queued' | 'sent' | 'failed' | 'discarded';
interface ScriptTap {
  readonly orderId: string;
  readonly at: number;
  readonly action: Action;
  readonly state: TapState;
  readonly counter: string;
}
interface ScriptOrder {
  readonly id: string;
  readonly arrival: number;
  readonly promised: number;
  readonly counter: string;
  accept?: number;
  /** Cancelled by a tap here: before Accept (rejected) or after. */
  cancel?: number;
  /** Cancelled by the marketplace at this time, no tap here. */
  cancelledElsewhere?: number;
  packed?: number;
  handedOver?: number;
}

const ACCEPT: Action = { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' };
const CANCEL: Action = { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'ITEM_OUT_OF_STOCK' };
const PACKED: Action = { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F-STORE', fulfillmentState: 'PACKED' };
const OUT: Action = { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F-DEL', fulfillmentState: 'OUT_FOR_DELIVERY' };

/** A day at two counters, plus five orders of the evening before packed after midnight. */
function script(): { orders: ScriptOrder[]; taps: ScriptTap[] } {
  const rnd = random(24);
  const pick = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const orders: ScriptOrder[] = [];
  const taps: ScriptTap[] = [];
  const tap = (o: ScriptOrder, at: number, action: Action, state: TapState = rnd() < 0.85 ? 'sent' : 'queued'): void => {
    taps.push({ orderId: o.id, at, action, state, counter: o.counter });
  };
  for (let i = 0; i < 80; i++) {
    const arrival = FROM + pick(8 * 60, 21 * 60) * MIN + pick(0, 59_000);
    const o: ScriptOrder = { id: `SH-${1000 + i}`, arrival, promised: arrival + 30 * MIN, counter: rnd() < 0.6 ? 'Counter-1' : 'Counter-2' };
    orders.push(o);
    const fate = rnd();
    if (fate < 0.1) {
      o.cancel = arrival + pick(1, 9) * MIN;
      tap(o, o.cancel, CANCEL);
      continue;
    }
    o.accept = arrival + pick(1, 12) * MIN + pick(0, 59_000);
    // One accept in ten was tapped twice: the first taken back inside the undo window.
    if (rnd() < 0.1) tap(o, o.accept - 20_000, ACCEPT, 'discarded');
    tap(o, o.accept, ACCEPT);
    if (fate < 0.18) {
      o.cancelledElsewhere = o.accept + pick(2, 20) * MIN;
      continue;
    }
    if (fate < 0.24) {
      o.cancel = o.accept + pick(2, 20) * MIN;
      tap(o, o.cancel, CANCEL);
      continue;
    }
    if (fate < 0.32) continue; // accepted, still being packed at the end of the day
    o.packed = o.accept + pick(3, 45) * MIN;
    // Some were refused once (an item code the service did not take) before the one that went through.
    if (rnd() < 0.1) tap(o, o.packed - 30_000, PACKED, 'failed');
    tap(o, o.packed, PACKED);
    if (rnd() < 0.7) {
      o.handedOver = o.packed + pick(5, 25) * MIN;
      tap(o, o.handedOver, OUT);
    }
  }
  for (let i = 0; i < 5; i++) {
    const arrival = FROM - pick(60, 120) * MIN;
    const o: ScriptOrder = { id: `EVE-${i}`, arrival, promised: arrival + 30 * MIN, counter: 'Counter-2' };
    o.accept = arrival + pick(2, 10) * MIN;
    o.packed = FROM + pick(5, 40) * MIN;
    tap(o, o.accept, ACCEPT);
    tap(o, o.packed, PACKED);
    orders.push(o);
  }
  return { orders, taps };
}

/** Writes the script into the data file: each order's body as it arrived, its taps in time order (ids grow with time). */
function write(store: Store, s: { orders: ScriptOrder[]; taps: ScriptTap[] }): void {
  store.transaction(() => {
    for (const o of s.orders) {
      const base = sampleOrder({ id: o.id, orderState: o.cancelledElsewhere ? 'CANCELLED' : 'Created' });
      const body = {
        ...base,
        ...(o.cancelledElsewhere ? { updatedAt: new Date(o.cancelledElsewhere).toISOString() } : {}),
        fulfillments: base.fulfillments.map((f) =>
          f.type === 'STORE' ? { ...f, fulfilmentStatusHistory: { PACKED: { promised: { endTime: o.promised } } } } : f,
        ),
      };
      store.orders.saveBody(body, o.arrival);
    }
    for (const t of [...s.taps].sort((a, b) => a.at - b.at)) {
      const entry = store.outbox.insert({ randomId: crypto.randomUUID(), orderId: t.orderId, action: t.action, createdAt: t.at, sendAfter: t.at, terminalId: t.counter });
      if (t.state === 'queued') continue;
      if (t.state === 'discarded') {
        mustMove(store.outbox, entry, 'undo', t.at + 1000);
        continue;
      }
      const sending = mustMove(store.outbox, entry, 'claim', t.at + 1000);
      if (t.state === 'sent') mustMove(store.outbox, sending, 'deliver', t.at + 2000, { sentNow: true });
      else mustMove(store.outbox, sending, 'refuse', t.at + 2000, { lastError: { kind: 'invalid', code: 'BAD_ITEM', message: 'refused' } });
    }
  });
}

/** The nearest-rank percentile, as the report promises it, computed here on its own. */
function rank(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(p * sorted.length) - 1]!;
}

/** The figures the script says, for the orders whose moments `mine` keeps (a counter's own), worked out from the script alone. */
function expected(orders: ScriptOrder[], mine: (o: ScriptOrder) => boolean, withReceived: boolean): ShiftFigures {
  const inDay = (t: number | undefined): t is number => t !== undefined && t >= FROM && t < TO;
  const own = orders.filter(mine);
  const toAccept = own.filter((o) => inDay(o.accept)).map((o) => o.accept! - o.arrival);
  const toPack = own.filter((o) => inDay(o.packed)).map((o) => o.packed! - o.accept!);
  return {
    received: withReceived ? orders.filter((o) => inDay(o.arrival)).length : 0,
    accepted: own.filter((o) => inDay(o.accept)).length,
    rejected: own.filter((o) => inDay(o.cancel) && o.accept === undefined).length,
    cancelled:
      own.filter((o) => inDay(o.cancel) && o.accept !== undefined).length +
      (withReceived ? orders.filter((o) => inDay(o.cancelledElsewhere)).length : 0),
    packed: own.filter((o) => inDay(o.packed)).length,
    handedOver: own.filter((o) => inDay(o.handedOver)).length,
    late: own.filter((o) => inDay(o.packed) && o.packed! > o.promised).length,
    toAccept: { count: toAccept.length, medianMs: rank(toAccept, 0.5), p90Ms: rank(toAccept, 0.9) },
    toPack: { count: toPack.length, medianMs: rank(toPack, 0.5), p90Ms: rank(toPack, 0.9) },
  };
}

/** The CSV's headings, as the renderer sends them in the terminal's language. */
const CSV_WORDS = {
  columns: {
    day: 'Day', packer: 'Packer', counter: 'Counter', hour: 'Hour', received: 'Received', accepted: 'Accepted', rejected: 'Rejected', cancelled: 'Cancelled', packed: 'Packed',
    handedOver: 'Handed to rider', late: 'Packed late', toAcceptMedian: 'Arrival to Accept half (s)', toAcceptP90: 'Arrival to Accept 9 in 10 (s)', toPackMedian: 'Accept to Packed half (s)', toPackP90: 'Accept to Packed 9 in 10 (s)',
  },
  noName: '-',
  thisCounter: 'this counter',
  dialogTitle: 'Save',
};

describe('the shift in figures', () => {
  it("works out a scripted day's figures, by hour, per counter and per packer, as the script says", () => {
    const store = openedStore(cleanup, tempDir(cleanup), () => TO);
    const s = script();
    write(store, s);

    const report = readShift(store, { day: DAY, terminal: 'Counter-1' });
    expect(report.source).toBe('records');
    const all = expected(s.orders, () => true, true);
    // The script is busy enough to say something: every kind of moment happened.
    for (const key of ['received', 'accepted', 'rejected', 'cancelled', 'packed', 'handedOver', 'late'] as const) expect(all[key]).toBeGreaterThan(0);
    expect(report.total).toEqual(all);

    for (const counter of ['Counter-1', 'Counter-2']) {
      const share = report.byCounter.find((c) => c.counter === counter)?.figures;
      expect(share).toEqual(expected(s.orders, (o) => o.counter === counter, false));
    }
    // No tap carries a packer's name yet: every tap is the "no name" packer's, the counter standing in.
    expect(report.byPacker.map((p) => p.packer)).toEqual([null]);
    expect(report.byPacker[0]!.figures).toEqual(expected(s.orders, () => true, false));

    const hours = Array.from({ length: 24 }, (_, hour) => ({
      hour,
      received: s.orders.filter((o) => o.arrival >= FROM && o.arrival < TO && new Date(o.arrival).getHours() === hour).length,
      packed: s.orders.filter((o) => o.packed !== undefined && o.packed >= FROM && o.packed < TO && new Date(o.packed).getHours() === hour).length,
    }));
    expect(report.byHour).toEqual(hours);
    const elsewhere = s.orders.filter((o) => o.cancelledElsewhere !== undefined).length;
    expect(report.cancelledBy.find((c) => c.by === 'elsewhere')?.count).toBe(elsewhere);
    expect(report.cancelledBy.filter((c) => c.by === 'here').reduce((n, c) => n + c.count, 0)).toBe(
      s.orders.filter((o) => o.cancel !== undefined).length,
    );

    // The CSV says the same, one table a file, headed in the words given; each table splits the
    // day once, so a spreadsheet's sum of a column is the day's figure (the total is not a row).
    const table = (t: 'day' | 'packers' | 'counters' | 'hours') =>
      shiftCsv(report, t, CSV_WORDS)
        .trimEnd()
        .split('\r\n')
        .map((l) => l.split(','));
    const [dayHead, dayRow] = table('day');
    expect(dayHead).toEqual(['Day', 'Received', 'Accepted', 'Rejected', 'Cancelled', 'Packed', 'Handed to rider', 'Packed late', 'Arrival to Accept half (s)', 'Arrival to Accept 9 in 10 (s)', 'Accept to Packed half (s)', 'Accept to Packed 9 in 10 (s)']);
    expect(dayRow).toEqual(
      [DAY, all.received, all.accepted, all.rejected, all.cancelled, all.packed, all.handedOver, all.late,
        Math.round(all.toAccept.medianMs! / 1000), Math.round(all.toAccept.p90Ms! / 1000), Math.round(all.toPack.medianMs! / 1000), Math.round(all.toPack.p90Ms! / 1000)].map(String),
    );
    const sum = (rows: string[][], column: number) => rows.slice(1).reduce((n, r) => n + Number(r[column]), 0);
    for (const t of ['packers', 'counters'] as const) {
      const rows = table(t);
      expect(rows[0]!.slice(0, 8)).toEqual(['Day', t === 'packers' ? 'Packer' : 'Counter', 'Accepted', 'Rejected', 'Cancelled', 'Packed', 'Handed to rider', 'Packed late']);
      // Cancelled: the marketplace's own cancels are no packer's or counter's, so they are the day's
      // only (cancelledBy "here" counts this counter's cancels and rejects together).
      const cancelledHere = report.cancelledBy.filter((c) => c.by === 'here').reduce((n, c) => n + c.count, 0) - all.rejected;
      expect([2, 3, 4, 5, 6, 7].map((c) => sum(rows, c))).toEqual([all.accepted, all.rejected, cancelledHere, all.packed, all.handedOver, all.late]);
    }
    // This counter by its name (or "this counter"), never its terminal id.
    const counterNames = table('counters').slice(1).map((r) => r[1]);
    expect(counterNames).toContain(report.counterName ?? 'this counter');
    expect(counterNames).not.toContain(report.terminal);
    const byHour = table('hours');
    expect(byHour[0]).toEqual(['Day', 'Hour', 'Received', 'Packed']);
    expect(byHour).toHaveLength(25);
    expect([sum(byHour, 2), sum(byHour, 3)]).toEqual([all.received, all.packed]);
    // A packer's name from outside with a right-to-left override: written out in the CSV, not obeyed by the spreadsheet.
    const named = shiftCsv({ ...report, byPacker: [{ packer: '=Asha \u202Eraj', figures: report.total }] }, 'packers', CSV_WORDS);
    expect(named).toContain("'=Asha \\u202Eraj");
    expect(named).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
  });

  it('keeps the day as figures, so they outlive the taps and orders that history pruning takes', () => {
    const now = { t: TO };
    const store = openedStore(cleanup, tempDir(cleanup), () => now.t);
    const s = script();
    write(store, s);
    const before = readShift(store, { day: DAY, terminal: 'Counter-1' });

    // 181 days on, pruning takes the day's settled taps; the day's figures were kept first.
    now.t = TO + HISTORY_KEEP_MS + 24 * 60 * MIN;
    const tapsBefore = store.history.day(FROM, TO).taps.length;
    while (pruneHistory(store, { now: now.t, keepMs: HISTORY_KEEP_MS, terminal: 'Counter-1' }).more);
    expect(store.history.day(FROM, TO).taps.length).toBeLessThan(tapsBefore / 4);

    const after = readShift(store, { day: DAY, terminal: 'Counter-1' });
    expect(after.source).toBe('kept');
    expect({ ...after, source: 'records' }).toEqual(before);
  });

  it('keeps each finished day two days after it ends, once', () => {
    const store = openedStore(cleanup, tempDir(cleanup), () => TO);
    write(store, script());
    // An hour after the day: the evening before is two days gone, the day itself not yet.
    expect(keepDays(store, { now: TO + 60 * MIN, terminal: 'Counter-1' })).toEqual(['2026-11-19']);
    expect(readShift(store, { day: DAY, terminal: 'Counter-1' }).source).toBe('records');
    expect(keepDays(store, { now: TO + 24 * 60 * MIN + 60 * MIN, terminal: 'Counter-1' })).toEqual([DAY]);
    expect(keepDays(store, { now: TO + 24 * 60 * MIN + 90 * MIN, terminal: 'Counter-1' })).toEqual([]);
    expect(readShift(store, { day: DAY, terminal: 'Counter-1' }).source).toBe('kept');
  });
});

describe("an order's timeline", () => {
  it('tells when the order arrived, each tap with its counter, when the service confirmed it, what was undone, and its prints', () => {
    const store = openedStore(cleanup, tempDir(cleanup), () => TO);
    const s = script();
    write(store, s);
    const o = s.orders.find((x) => x.packed !== undefined && x.arrival >= FROM && s.taps.some((t) => t.orderId === x.id && t.state === 'discarded'));
    if (!o) throw new Error('the script has no packed order with an undone tap');
    const undone = store.outbox.forOrder(o.id).find((e) => e.state === 'discarded')!;
    store.transaction(() => {
      store.audit.add({ time: undone.createdAt + 1000, terminal: o.counter, kind: 'undo', entryId: undone.id, orderId: o.id, outcome: 'undone' });
      store.history.addPrint({ orderId: o.id, document: 'packingSlip', time: o.packed! + 5000, terminal: o.counter, outcome: 'printed' });
    });

    // This counter's rows carry its terminal id: the timeline names it by its hub name instead.
    const timeline = orderTimeline(store, o.id, { terminal: o.counter, counterName: 'Counter 1' })!;
    expect(timeline.reprintable).toBe(true);
    const says = timeline.events.map((e) => [e.kind, e.action?.type === 'ORDER_STATE_UPDATE' ? e.action.orderState : e.action && 'fulfillmentState' in e.action ? e.action.fulfillmentState : e.document ?? null]);
    expect(says[0]).toEqual(['arrived', null]);
    expect(timeline.events[0]!.at).toBe(o.arrival);
    expect(says).toContainEqual(['undo', 'ACCEPTED']);
    expect(says).toContainEqual(['print', 'packingSlip']);
    const accept = timeline.events.find((e) => e.kind === 'tap' && e.state !== 'discarded' && e.action?.type === 'ORDER_STATE_UPDATE')!;
    expect(accept).toMatchObject({ at: o.accept, counter: 'Counter 1', packer: null });
    expect(timeline.events.some((e) => e.counter === o.counter)).toBe(false);
    const times = timeline.events.map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(orderTimeline(store, 'NEVER-HERE', { terminal: o.counter, counterName: null })).toBeNull();
  });
});
