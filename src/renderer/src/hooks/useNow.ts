/**
 * One shared clock per tick rate, so 20 visible countdowns cost one timer, not 20, and they all
 * turn over in the same frame.
 */
import { useCallback, useSyncExternalStore } from 'react';

interface Ticker {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
}

const tickers = new Map<number, Ticker>();

function tickerFor(periodMs: number): Ticker {
  let t = tickers.get(periodMs);
  if (!t) {
    t = { now: Date.now(), listeners: new Set(), timer: null };
    tickers.set(periodMs, t);
  }
  return t;
}

function subscribe(periodMs: number, listener: () => void): () => void {
  const t = tickerFor(periodMs);
  t.listeners.add(listener);
  if (!t.timer) {
    t.now = Date.now();
    t.timer = setInterval(() => {
      t.now = Date.now();
      for (const l of t.listeners) l();
    }, periodMs);
  }
  return () => {
    t.listeners.delete(listener);
    if (t.listeners.size === 0 && t.timer) {
      clearInterval(t.timer);
      t.timer = null;
    }
  };
}

/** The ticker's time, refreshed first when it is idle and stale (see useNow). */
function readTicker(periodMs: number): number {
  const t = tickerFor(periodMs);
  // An idle ticker's time is stale: refresh it (at most once a period, so the snapshot stays
  // stable between React's consecutive reads) before a newly mounted countdown reads it.
  if (!t.timer && Date.now() - t.now >= periodMs) t.now = Date.now();
  return t.now;
}

/**
 * One subscribe function per period for the component's life: a new one each render makes React
 * resubscribe after every render, and a ticker's only subscriber then restarts it with a fresh
 * time, which is a changed snapshot, which renders again: an endless update loop once drawing
 * takes a millisecond or more (the undo bar, alone on its 200 ms clock, hit it).
 */
function useTicker(periodMs: number): (listener: () => void) => () => void {
  return useCallback((listener: () => void) => subscribe(periodMs, listener), [periodMs]);
}

/** The wall clock (epoch ms), refreshed every `periodMs`: the component renders again at every tick. */
export function useNow(periodMs = 1_000): number {
  const read = () => readTicker(periodMs);
  // The same clock when the host draws the first screen (firstScreen/): it draws at the moment it serves.
  return useSyncExternalStore(useTicker(periodMs), read, read);
}

/**
 * A value made from the clock (a countdown's "12 min", an age's "3 min ago", the undo's seconds
 * left), made again every `periodMs` from the same shared ticker; the component renders again
 * only when it changes. A screen left alone is then drawn again when one of its words changes, not at every
 * tick: with the queue's countdowns and the sync bar on a one-second clock, an idle terminal's page
 * took 0.6 % of a core (bench/memory.ts, issue 41's bound 0.3 %).
 */
export function useClockValue<T extends string | number | boolean>(periodMs: number, value: (now: number) => T): T {
  const read = () => value(readTicker(periodMs));
  return useSyncExternalStore(useTicker(periodMs), read, read);
}

/** One value on screen that changes only at moments known ahead (useTimedValue). */
interface Wake {
  at: number;
  readonly next: (now: number) => number;
  readonly listener: () => void;
}

const wakes = new Set<Wake>();
/**
 * The longest the timer sleeps: a counter PC's clock set back (its time put right) would otherwise
 * hold every countdown still for as long as it went back. Each wake asks every value again.
 */
const LONGEST_SLEEP_MS = 60_000;
let wakeTimer: ReturnType<typeof setTimeout> | null = null;
let wakeTimerAt = Number.POSITIVE_INFINITY;

/** One timer for every timed value on screen, set for the soonest of their moments. */
function planWake(): void {
  let soonest = Number.POSITIVE_INFINITY;
  for (const w of wakes) soonest = Math.min(soonest, w.at);
  if (soonest === wakeTimerAt) return;
  if (wakeTimer !== null) clearTimeout(wakeTimer);
  wakeTimer = null;
  wakeTimerAt = soonest;
  if (soonest === Number.POSITIVE_INFINITY) return;
  wakeTimer = setTimeout(wakeDue, Math.min(LONGEST_SLEEP_MS, Math.max(0, soonest - Date.now())));
}

function wakeDue(): void {
  wakeTimer = null;
  wakeTimerAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  const due: Wake[] = [];
  for (const w of wakes) {
    if (w.at <= now) due.push(w);
    // Asked again, due or not: the clock may have been set back since `at` was worked out.
    w.at = w.next(now);
  }
  planWake();
  for (const w of due) w.listener();
}

/**
 * Calls `listener` at each moment `next` names (an epoch ms after the time it is given; Infinity:
 * never), all such listeners of the page sharing one timer. Returns the unsubscribe.
 */
export function wakeAt(next: (now: number) => number, listener: () => void): () => void {
  const wake: Wake = { at: next(Date.now()), next, listener };
  wakes.add(wake);
  planWake();
  return () => {
    wakes.delete(wake);
    planWake();
  };
}

/**
 * A value made from the clock that changes only at moments known ahead (a countdown's "12 min"
 * reads so for a minute): `next` says when it next changes (format/time.ts countdownChangesAt and
 * the like), and the page wakes then rather than every second. An idle queue's page woke every
 * second for its countdowns and the sync bar's ages, to find nothing changed in 59 of 60 (issue
 * 41: the page's idle CPU at most 0.3 % of a core; on a slow machine it read 0.28-0.37 %).
 * Memoize `next` (useCallback) on what it reads, or the page subscribes again at every render.
 */
export function useTimedValue<T extends string | number | boolean>(next: (now: number) => number, value: (now: number) => T): T {
  const subscribe = useCallback((listener: () => void) => wakeAt(next, listener), [next]);
  const read = () => value(Date.now());
  return useSyncExternalStore(subscribe, read, read);
}
