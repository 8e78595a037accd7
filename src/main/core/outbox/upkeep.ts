/**
 * The data file's upkeep, run by the process that sends the queue: finished orders leave the
 * terminal, history past its keep period is pruned, the order finder's index is merged and freed
 * pages go back to the disk (retire.ts), in that order, one short step at a time from a timer, so
 * a tap waits at most one step. Each step logs what goes wrong and never throws: upkeep that
 * fails is tried again at the next walk, and the packers never notice it.
 */
import type { Store } from '../db';
import type { Logger } from '../log';
import { keepDays } from '../shift';
import { type Timers, TimerSlot } from '../time';
import { FINISHED_KEEP_MS, HISTORY_KEEP_MS, mergeFinder, pruneHistory, reclaimSpace, retireFinished, type RetireCursor } from './retire';

/**
 * Finished orders are looked for a minute after the engine starts sending (not on the way to the
 * first tap), then every six hours: a walk through the orders, one short transaction a step, with
 * the event loop free in between (a tap waits at most one step).
 */
const RETIRE_FIRST_MS = 60_000;
const RETIRE_EVERY_MS = 6 * 60 * 60 * 1000;
const RETIRE_STEP_MS = 100;
/**
 * A file made before auto-vacuum is switched to it (one VACUUM of the whole file, retire.ts
 * reclaimSpace) only with no tap on this terminal for this long since the engine started (looked at
 * after a pruning run, and again each such period until it is quiet): the VACUUM
 * holds the main thread for as long as it takes (seconds for a year's history).
 */
const QUIET_FOR_SWITCH_MS = 10 * 60 * 1000;

export interface UpkeepOptions {
  readonly store: Store;
  readonly now: () => number;
  readonly timers: Timers;
  readonly log: Logger;
  readonly terminalId: string;
  /** How long a finished order stays once nothing happens to it, ms (default FINISHED_KEEP_MS). */
  readonly finishedKeepMs?: number | undefined;
  /** This counter's name in its store hub, for the finished days' figures kept before orders leave. */
  readonly counterName: () => string | null;
  /** The last tap on this terminal, else when the engine started, else null: how long it has been quiet. */
  readonly lastActivity: () => number | null;
  /** The engine is stopping: a step due now does nothing. */
  readonly stopped: () => boolean;
  /** Something was written (the engine folds the WAL in shortly after). */
  readonly wrote: () => void;
  /** Orders left the terminal: every screen is told. */
  readonly removed: (orderIds: readonly string[]) => void;
  /** True when `e` said the data file is damaged (the engine handles it; nothing more is logged). */
  readonly damaged: (e: unknown) => boolean;
}

export interface Upkeep {
  /** The queue's sender is this process: the first walk starts `firstMs` from now (default a minute). */
  start(firstMs?: number): void;
  /** No step runs after this. */
  stop(): void;
}

/** The walk, then pruning, merging and giving pages back, each step arming the next. */
export function createUpkeep(o: UpkeepOptions): Upkeep {
  const { store, now, timers, log } = o;
  // Finished orders leave the terminal; only the process that sends the queue does it.
  const retireTimer = new TimerSlot(timers, now, () => retireNow(), { keepAlive: false });
  // Where the walk through the orders is, and how many have left in it so far.
  let retiring: { after: RetireCursor | null; left: number } = { after: null, left: 0 };
  // Orders left but the WAL still holds older copies of their pages: emptied at the next walk.
  let walToEmpty = false;
  // After each walk, history past the keep period is pruned, a step at a time (retire.ts pruneHistory).
  const pruneTimer = new TimerSlot(timers, now, () => pruneNow(), { keepAlive: false });
  let pruned = { entries: 0, orders: 0 };
  // After each pruning run, the pages it freed go back to the disk, a step at a time (retire.ts reclaimSpace).
  // Between the two, the order finder's index is merged, a step at a time (retire.ts mergeFinder).
  const mergeTimer = new TimerSlot(timers, now, () => mergeNow(), { keepAlive: false });
  const reclaimTimer = new TimerSlot(timers, now, () => reclaimNow(), { keepAlive: false });
  let reclaimed = 0;

  /** One step of the walk that takes finished orders off the terminal (retire.ts). */
  function retireNow(): void {
    if (o.stopped()) return;
    try {
      // Each finished day's figures are kept before its orders' details can leave (core/shift).
      if (retiring.after === null && keepDays(store, { now: now(), terminal: o.terminalId, counterName: o.counterName() }).length > 0) o.wrote();
      const step = retireFinished(store, { now: now(), keepMs: o.finishedKeepMs ?? FINISHED_KEEP_MS, after: retiring.after });
      retiring = { after: step.next, left: retiring.left + step.orderIds.length };
      if (step.orderIds.length > 0) {
        o.wrote();
        o.removed(step.orderIds);
      }
      if (step.next !== null) return retireTimer.arm(RETIRE_STEP_MS);
      if (retiring.left > 0) log.info('finished orders left the terminal', { count: retiring.left });
      if (retiring.left > 0 || walToEmpty) {
        // Older copies of their pages go from the WAL too; while another process reads the file, at the next walk.
        walToEmpty = !store.emptyWal();
        if (walToEmpty) log.info('the WAL could not be emptied now (another process reads the data file)');
      }
    } catch (e) {
      if (!o.damaged(e)) log.warn('finished orders could not be taken off the terminal', { error: e });
    }
    retiring = { after: null, left: 0 };
    retireTimer.arm(RETIRE_EVERY_MS);
    pruneTimer.arm(RETIRE_STEP_MS);
  }

  /** One step of pruning history past the keep period, after a walk. */
  function pruneNow(): void {
    if (o.stopped()) return;
    try {
      const step = pruneHistory(store, { now: now(), keepMs: HISTORY_KEEP_MS, terminal: o.terminalId });
      pruned = { entries: pruned.entries + step.entries, orders: pruned.orders + step.orders };
      if (step.entries + step.orders > 0) o.wrote();
      if (step.more) return pruneTimer.arm(RETIRE_STEP_MS);
      if (pruned.entries + pruned.orders > 0) log.info('history past the keep period was pruned', pruned);
    } catch (e) {
      if (!o.damaged(e)) log.warn('history could not be pruned', { error: e });
    }
    pruned = { entries: 0, orders: 0 };
    mergeTimer.arm(RETIRE_STEP_MS);
  }

  /** One step of merging the order finder's index after pruning. */
  function mergeNow(): void {
    if (o.stopped()) return;
    try {
      if (mergeFinder(store)) {
        o.wrote();
        return mergeTimer.arm(RETIRE_STEP_MS);
      }
    } catch (e) {
      if (!o.damaged(e)) log.warn("the order finder's index could not be merged", { error: e });
    }
    reclaimTimer.arm(RETIRE_STEP_MS);
  }

  /** One step of giving freed pages back to the disk (or the one-time switch to do so), after pruning. */
  function reclaimNow(): void {
    if (o.stopped()) return;
    try {
      // No tap since the start counts from the start: right after a start (a packer about to work,
      // or a CLI command among other processes on the file) is never quiet.
      const quiet = now() - (o.lastActivity() ?? now()) >= QUIET_FOR_SWITCH_MS;
      const step = reclaimSpace(store, { quiet });
      if (step.kind === 'given-back') {
        reclaimed += step.pages;
        // The file is cut to its new end when the WAL is folded back.
        if (step.pages > 0) o.wrote();
        if (step.more) return reclaimTimer.arm(RETIRE_STEP_MS);
        if (reclaimed > 0) log.info('free pages were given back to the disk', { pages: reclaimed });
      } else if (step.kind === 'switched') {
        log.info('the data file now gives its free pages back to the disk (one-time VACUUM)', { bytesBefore: step.bytesBefore, pagesAfter: step.pagesAfter, ms: step.ms });
      } else if (step.kind === 'no-room') {
        log.warn('the data file waits for room on the disk to give its free pages back', { needBytes: step.needBytes, freeBytes: step.freeBytes, where: step.where });
      }
      // Not quiet: looked at again once it could be (a busy store may never be quiet at a pruning run).
      else if (step.kind === 'not-quiet') reclaimTimer.arm(QUIET_FOR_SWITCH_MS);
    } catch (e) {
      if (!o.damaged(e)) log.warn('free pages could not be given back to the disk', { error: e });
    }
    reclaimed = 0;
  }

  return {
    start: (firstMs = RETIRE_FIRST_MS) => retireTimer.arm(firstMs),
    stop() {
      retireTimer.clear();
      pruneTimer.clear();
      mergeTimer.clear();
      reclaimTimer.clear();
    },
  };
}
