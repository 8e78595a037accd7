/**
 * The rules that find an order worked on at two counters while they could not see each other
 * (issue 39, hub/apart.ts): which pairs of taps clash, and how two words on one conflict merge.
 */
import { describe, expect, it } from 'vitest';
import type { ConflictRecord } from '../../../../src/shared/hub';
import type { Action } from '../../../../src/shared/protocol';
import { findApart, madeApart, mergeConflict, type WorkTap, workOf } from '../../../../src/main/core/hub/apart';

const ACCEPT: Action = { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' };
const PACKING: Action = { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F1', fulfillmentState: 'PACKING' };
const OUT: Action = { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F1', fulfillmentState: 'OUT_FOR_DELIVERY' };
const INVOICE: Action = { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-1' } };

const tap = (requestId: string, counter: 1 | 2 | 3, action: Action, more: Partial<WorkTap> = {}): WorkTap => ({
  requestId,
  counterId: `c${counter}`,
  counterName: `Counter ${counter}`,
  packer: null,
  action,
  unchecked: true,
  seen: [],
  undone: false,
  ...more,
});

describe('taps made apart', () => {
  it('two counters packing, neither having heard of the other, one of them unchecked, clash', () => {
    expect(madeApart(tap('a', 1, ACCEPT), tap('b', 2, PACKING))).toBe(true);
    expect(madeApart(tap('a', 1, ACCEPT, { unchecked: false }), tap('b', 2, ACCEPT))).toBe(true);
  });

  it('checked at both counters, heard of by either, of one counter, or taken back: no clash', () => {
    expect(madeApart(tap('a', 1, ACCEPT, { unchecked: false }), tap('b', 2, ACCEPT, { unchecked: false }))).toBe(false);
    expect(madeApart(tap('a', 1, ACCEPT), tap('b', 2, PACKING, { seen: ['a'] }))).toBe(false);
    expect(madeApart(tap('a', 1, ACCEPT, { seen: ['b'] }), tap('b', 2, PACKING))).toBe(false);
    expect(madeApart(tap('a', 1, ACCEPT), tap('b', 1, PACKING))).toBe(false);
    expect(madeApart(tap('a', 1, ACCEPT, { undone: true }), tap('b', 2, PACKING))).toBe(false);
    // Made before the counter joined a hub: what it had heard of is not known, so it is never counted.
    expect(madeApart(tap('a', 1, ACCEPT, { seen: null }), tap('b', 2, PACKING))).toBe(false);
  });

  it('packing at one counter and handing over at another is the ordinary flow; an invoice clashes with nothing', () => {
    expect(workOf(OUT)).toBe('handOver');
    expect(madeApart(tap('a', 1, PACKING), tap('b', 2, OUT))).toBe(false);
    expect(madeApart(tap('a', 1, OUT), tap('b', 2, OUT))).toBe(true);
    expect(workOf(INVOICE)).toBeNull();
    expect(madeApart(tap('a', 1, INVOICE), tap('b', 2, INVOICE))).toBe(false);
  });

  it('names every counter and packer involved, counters in one order whoever finds it', () => {
    const own = [tap('a', 2, ACCEPT, { packer: 'Priya' }), tap('a2', 2, PACKING, { packer: 'Priya' })];
    const others = [tap('b', 1, ACCEPT, { packer: 'Ravi' }), tap('c', 3, PACKING, { packer: 'Amit', seen: ['a', 'a2'] })];
    const found = findApart('ORD-1', own, others, 5)!;
    expect(found.parties).toEqual([
      { counterId: 'c1', counterName: 'Counter 1', packers: ['Ravi'] },
      { counterId: 'c2', counterName: 'Counter 2', packers: ['Priya'] },
    ]);
    expect(found.taps.sort()).toEqual(['a', 'a2', 'b']);
    expect(findApart('ORD-1', own, [others[1]!], 5)).toBeNull();
  });

  it('two words on one conflict make one record; the first settlement stands', () => {
    const base: ConflictRecord = { orderId: 'ORD-1', parties: [{ counterId: 'c1', counterName: 'Counter 1', packers: ['Ravi'] }, { counterId: 'c2', counterName: 'Counter 2', packers: [] }], taps: ['a'], raisedAt: 10, settled: null };
    const other: ConflictRecord = {
      orderId: 'ORD-1',
      parties: [{ counterId: 'c3', counterName: 'Counter 3', packers: ['Amit'] }, { counterId: 'c2', counterName: 'Counter 2', packers: ['Priya'] }],
      taps: ['b'],
      raisedAt: 5,
      settled: { keeperId: 'c2', keeperName: 'Counter 2', byCounter: 'Counter 3', byPacker: 'Amit', at: 20 },
    };
    const merged = mergeConflict(base, other);
    expect(merged.parties.map((p) => [p.counterName, p.packers])).toEqual([['Counter 1', ['Ravi']], ['Counter 2', ['Priya']], ['Counter 3', ['Amit']]]);
    expect(merged.taps).toEqual(['a', 'b']);
    expect(merged.raisedAt).toBe(5);
    expect(merged.settled?.keeperName).toBe('Counter 2');
    const settledFirst = { ...base, settled: { keeperId: 'c1', keeperName: 'Counter 1', byCounter: 'Counter 1', byPacker: null, at: 30 } };
    expect(mergeConflict(settledFirst, other).settled?.keeperId).toBe('c1');
  });
});
