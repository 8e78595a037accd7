/**
 * After a busy spell, once nothing has come for a while, the page asks V8 for one full collection
 * (memory/rest.ts): what a busy hour left in the renderer otherwise stayed there, tens of MB on an
 * old counter PC (bench/memory.ts). Fake timers; a stand-in for the engine's event stream.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName, PackdeskApi } from '../../src/shared/ipc';
import { BUSY_EVENTS, createPageRest, pageCollection, QUIET_MS, REST_MARK, restAfterBusySpells } from '../../src/renderer/src/memory/rest';

/** The engine's events as the page hears them: `emit` calls every listener of that event. */
function eventStream(): { api: Pick<PackdeskApi, 'on'>; emit: (event: EventName, times?: number) => void; listening: () => number } {
  const listeners = new Map<EventName, Set<() => void>>();
  return {
    api: {
      on: ((event: EventName, listener: () => void) => {
        const set = listeners.get(event) ?? new Set();
        listeners.set(event, set);
        set.add(listener);
        return () => set.delete(listener);
      }) as unknown as PackdeskApi['on'],
    },
    emit: (event, times = 1) => {
      for (let i = 0; i < times; i++) for (const l of listeners.get(event) ?? []) l();
    },
    listening: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

describe("the page's rest after a busy spell", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects once when a busy spell has been quiet for QUIET_MS, and not while events keep coming', () => {
    const collect = vi.fn();
    const stream = eventStream();
    const stop = restAfterBusySpells(stream.api, createPageRest({ collect }));
    stream.emit('outbox.changed', BUSY_EVENTS / 2);
    stream.emit('orders.changed', BUSY_EVENTS / 2);
    // Still at work: an event every few seconds keeps putting it off.
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(QUIET_MS - 1_000);
      stream.emit('orders.changed');
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(QUIET_MS);
    expect(collect).toHaveBeenCalledTimes(1);
    // Quiet from here: nothing more, however long.
    vi.advanceTimersByTime(60 * 60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    // The next busy spell counts afresh.
    stream.emit('orders.removed', BUSY_EVENTS - 1);
    vi.advanceTimersByTime(QUIET_MS * 3);
    expect(collect).toHaveBeenCalledTimes(1);
    stream.emit('orders.listed');
    vi.advanceTimersByTime(QUIET_MS);
    expect(collect).toHaveBeenCalledTimes(2);
    stop();
    expect(stream.listening()).toBe(0);
  });

  it('leaves a trickle alone, and events that are not work do not count', () => {
    const collect = vi.fn();
    const stream = eventStream();
    restAfterBusySpells(stream.api, createPageRest({ collect }));
    // A new order every ten minutes for a whole day is fewer than a busy spell's events.
    for (let i = 0; i < 12 * 6; i++) {
      stream.emit('orders.changed');
      vi.advanceTimersByTime(10 * 60_000);
    }
    // The sync bar's and intake's news come all day without anyone working.
    stream.emit('sync.status', BUSY_EVENTS * 5);
    stream.emit('intake.status', BUSY_EVENTS * 5);
    vi.advanceTimersByTime(QUIET_MS * 10);
    expect(collect).not.toHaveBeenCalled();
  });

  it('goes on after a collection that throws', () => {
    const collect = vi.fn(() => {
      throw new Error('no');
    });
    const rest = createPageRest({ collect, busyEvents: 2, quietMs: 1_000 });
    rest.busy();
    rest.busy();
    expect(() => vi.advanceTimersByTime(1_000)).not.toThrow();
    rest.busy();
    rest.busy();
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it("uses V8's gc for a major synchronous collection of the last-resort flavour (pages given back), and does nothing where the page has none", () => {
    const gc = vi.fn();
    pageCollection({ gc })?.();
    expect(gc).toHaveBeenCalledWith({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    expect(pageCollection({})).toBeNull();
    const rest = createPageRest({ collect: null, busyEvents: 1, quietMs: 1 });
    rest.busy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves a mark on the page’s timeline at each collection, where support and the benchmark can count them', () => {
    vi.useRealTimers(); // the fake timers fake `performance` too
    const before = performance.getEntriesByName(REST_MARK).length;
    const collect = pageCollection({ gc: vi.fn() });
    collect?.();
    collect?.();
    expect(performance.getEntriesByName(REST_MARK).length - before).toBe(2);
  });
});
