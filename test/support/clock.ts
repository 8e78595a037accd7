/** Time the test moves by hand: a wall clock (`now`) and timers (`Timers`) that fire only when told. */
import type { Timers } from '../../src/main/core/time';

/** A clock the test moves by hand; `start` defaults to a fixed morning so runs are repeatable. */
export function manualClock(start = Date.UTC(2025, 0, 15, 9, 30)): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

interface PendingTimer {
  fn: () => void;
  /** The delay the code asked for. */
  ms: number;
  /** When it is due on the manual timeline. */
  at: number;
  id: number;
}

/** Timers that fire only when the test says so: by moving their own timeline, or by delay. */
export function manualTimers(): {
  timers: Timers;
  /** Moves the timeline by `ms`, firing due timers in order; returns how many fired. */
  advance(ms: number): number;
  /** Fires, once, every pending timer set for at least `minMs`, whatever the timeline; returns how many fired. */
  fire(minMs: number): number;
  /** The delays of the timers still waiting. */
  pending(): number[];
} {
  const waiting: PendingTimer[] = [];
  let clock = 0;
  let nextId = 1;
  const take = (t: PendingTimer): void => void waiting.splice(waiting.indexOf(t), 1);
  return {
    timers: {
      setTimeout: (fn, ms) => {
        const id = nextId++;
        waiting.push({ fn, ms, at: clock + ms, id });
        return id;
      },
      clearTimeout: (handle) => {
        const i = waiting.findIndex((t) => t.id === handle);
        if (i >= 0) waiting.splice(i, 1);
      },
    },
    advance(ms) {
      const until = clock + ms;
      let fired = 0;
      for (;;) {
        const due = waiting.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        clock = due.at;
        take(due);
        due.fn();
        fired++;
      }
      clock = until;
      return fired;
    },
    fire(minMs) {
      const due = waiting.filter((t) => t.ms >= minMs);
      for (const t of due) take(t);
      for (const t of due) t.fn();
      return due.length;
    },
    pending: () => waiting.map((t) => t.ms),
  };
}
