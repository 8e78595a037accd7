import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createHeapTrim, fullCollection, TRIM_AFTER_STORED, TRIM_CEILING_BYTES, TRIM_GROWTH_BYTES, TRIM_QUIET_MS } from '../../../../src/main/core/host/heap-trim';
import { silentLogger } from '../../../../src/main/core/log';
import { manualClock, manualTimers } from '../../../support/clock';

function trimmed(heap: { committed: number } = { committed: 0 }) {
  const clock = manualClock();
  const t = manualTimers();
  let collections = 0;
  const trim = createHeapTrim({ timers: t.timers, now: clock.now, log: silentLogger, collect: () => collections++, heapCommitted: () => heap.committed });
  const wait = (ms: number): void => {
    clock.advance(ms);
    t.advance(ms);
  };
  return { trim, wait, collections: () => collections, pending: t.pending };
}

describe('memory given back after a large intake (issue 41)', () => {
  it('asks for one full collection once a large intake has been quiet, not while it still stores', () => {
    const { trim, wait, collections } = trimmed();
    // A first pass of 5,000 orders, in batches a few seconds apart.
    for (let batch = 0; batch < 50; batch++) {
      trim.stored(100);
      wait(3_000);
    }
    expect(collections()).toBe(0);
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(1);
    // Nothing more stored: no more collections, however long the terminal stays idle.
    wait(10 * TRIM_QUIET_MS);
    expect(collections()).toBe(1);
  });

  it("does not wait for quiet once a long intake's heap passes the ceiling: one collection a thousand orders at most", () => {
    const heap = { committed: 0 };
    const { trim, wait, collections } = trimmed(heap);
    trim.stored(TRIM_AFTER_STORED - 1);
    heap.committed = TRIM_CEILING_BYTES + 1;
    expect(collections()).toBe(0);
    trim.stored(1);
    expect(collections()).toBe(1);
    // Still over the ceiling (the collection had little to free): not again for every batch.
    for (let batch = 0; batch < 9; batch++) trim.stored(100);
    expect(collections()).toBe(1);
    trim.stored(100);
    expect(collections()).toBe(2);
    // Under the ceiling, the rest of the pass waits for quiet as before.
    heap.committed = TRIM_CEILING_BYTES / 2;
    trim.stored(TRIM_AFTER_STORED * 3);
    expect(collections()).toBe(2);
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(3);
  });

  it('a collection at the ceiling late in a large intake does not end it: the quiet after the pass collects once more', () => {
    const heap = { committed: 0 };
    const { trim, wait, collections } = trimmed(heap);
    trim.stored(TRIM_AFTER_STORED);
    heap.committed = TRIM_CEILING_BYTES + 1;
    trim.stored(10);
    expect(collections()).toBe(1);
    // The pass's last few, and the heap no bigger than just after that collection (V8 had not
    // given its pages back yet): before, the quiet spell found nothing to collect for.
    trim.stored(10);
    trim.passed();
    wait(TRIM_QUIET_MS - 1);
    expect(collections()).toBe(1);
    wait(1);
    expect(collections()).toBe(2);
    // And once only.
    trim.passed();
    wait(10 * TRIM_QUIET_MS);
    expect(collections()).toBe(2);
  });

  it('never collects for a trickle of new orders, however many add up over the day', () => {
    const { trim, wait, collections, pending } = trimmed();
    for (let minute = 0; minute < 8 * 60; minute++) {
      trim.stored(3);
      wait(60_000);
    }
    expect(3 * 8 * 60).toBeGreaterThan(TRIM_AFTER_STORED);
    expect(collections()).toBe(0);
    trim.stored(TRIM_AFTER_STORED);
    trim.stop();
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(0);
    expect(pending()).toEqual([]);
  });

  it("collects once a busy spell's small passes are over, when they left V8's heap grown by the threshold, and not otherwise", () => {
    const heap = { committed: 0 };
    const { trim, wait, collections } = trimmed(heap);
    // Taps and a few new orders: each pass stores a dozen bodies it read again; the heap grows a little each time.
    for (let pass = 0; pass < 20; pass++) {
      trim.stored(12);
      heap.committed += TRIM_GROWTH_BYTES / 8;
      wait(10_000);
    }
    expect(20 * 12).toBeLessThan(TRIM_AFTER_STORED);
    expect(collections()).toBe(0);
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(1);
    // The next quiet spell after a little work, the heap grown by less than the threshold: nothing.
    trim.stored(12);
    heap.committed = 3.5 * TRIM_GROWTH_BYTES - 1;
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(1);
    // Grown by the threshold since that collection: collected again.
    trim.stored(12);
    heap.committed = 3.5 * TRIM_GROWTH_BYTES;
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(2);
  });

  it("collects after passes that stored nothing but left the heap grown (intake reading a busy spell's orders again), and never for idle passes", () => {
    const heap = { committed: 0 };
    const { trim, wait, collections, pending } = trimmed(heap);
    // An idle terminal: a pass every 30 s, nothing stored, the heap as it was: it never collects.
    for (let pass = 0; pass < 20; pass++) {
      trim.passed();
      wait(30_000);
    }
    expect(collections()).toBe(0);
    // The overlap after a busy spell: passes read orders again, store nothing, and the heap grows.
    for (let pass = 0; pass < 5; pass++) {
      trim.passed();
      heap.committed += TRIM_GROWTH_BYTES / 4;
      wait(10_000);
    }
    expect(collections()).toBe(0);
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(1);
    expect(pending()).toEqual([]);
  });

  it("waits while packers tap, however the heap grows between intake's passes, and collects in the first quiet after them", () => {
    const heap = { committed: 0 };
    const { trim, wait, collections } = trimmed(heap);
    // A busy spell: a pass every 30 s, a tap or its answer every 2 s, the heap growing by a
    // collection's worth every pass. Before taps counted, this collected between every two passes.
    for (let second = 0; second < 600; second += 2) {
      if (second % 30 === 0) {
        trim.passed();
        heap.committed += TRIM_GROWTH_BYTES;
      }
      trim.tapped();
      wait(2_000);
    }
    expect(collections()).toBe(0);
    // The packers stop; intake's passes go on and the quiet after one collects, once.
    for (let pass = 0; pass < 4; pass++) {
      trim.passed();
      wait(30_000);
    }
    expect(collections()).toBe(1);
  });

  it('a large intake waits for the taps too, and a pause between two taps is not quiet', () => {
    const { trim, wait, collections } = trimmed();
    trim.stored(TRIM_AFTER_STORED);
    wait(TRIM_QUIET_MS - 1_000);
    trim.tapped();
    wait(TRIM_QUIET_MS - 1);
    expect(collections()).toBe(0);
    wait(1);
    expect(collections()).toBe(1);
  });

  it("a counter with no intake of its own (a store hub's member) collects in a quiet after its taps alone, only once grown", () => {
    const heap = { committed: 0 };
    const { trim, wait, collections, pending } = trimmed(heap);
    trim.tapped();
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(0);
    for (let tap = 0; tap < 100; tap++) {
      trim.tapped();
      heap.committed += TRIM_GROWTH_BYTES / 50;
      wait(3_000);
    }
    expect(collections()).toBe(0);
    wait(TRIM_QUIET_MS);
    expect(collections()).toBe(1);
    expect(pending()).toEqual([]);
  });

  it("gets V8's full collection in a process not started with --expose-gc, and it gives the heap's pages back", () => {
    const gc = fullCollection();
    expect(typeof gc).toBe('function');
    gc!();
    const before = getHeapStatistics();
    // A pass's garbage with a few survivors spread over every page, as intake leaves it.
    let garbage: { i: number; text: string }[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, text: `order ${i} `.repeat(8) }));
    const survivors = garbage.filter((_, i) => i % 8 === 0);
    garbage = null;
    const grown = getHeapStatistics().total_heap_size;
    expect(grown).toBeGreaterThan(before.total_heap_size + 40_000_000);
    gc!();
    const after = getHeapStatistics();
    expect(after.used_heap_size).toBeLessThan(before.used_heap_size + 20_000_000);
    // Committed memory back to within a little of the survivors' share, not kept at the pass's size.
    expect(after.total_heap_size).toBeLessThan(before.total_heap_size + (grown - before.total_heap_size) / 2);
    expect(survivors).toHaveLength(37_500);
  });
});
