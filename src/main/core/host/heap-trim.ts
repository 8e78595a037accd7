/**
 * One full garbage collection once a burst of intake is over (issue 41). A first intake of
 * thousands of orders makes V8 grow its heap for the garbage of the pass (about 175 MB committed
 * for 40-60 MB live at 5,000 orders), and V8 keeps that memory long after the pass: a minute after
 * a 5,000-order intake the host's RSS was still 254 MB, and it fell to 126 MB only when later work
 * happened to run a compacting collection (bench/memory.ts). On an old counter PC that memory is
 * taken from the browser the staff also use. So when intake has stored many bodies and then been
 * quiet for a while, the host asks V8 for one full collection, which gives the empty pages back.
 * Small passes (a few new orders a minute) never ask: V8's own pace is right for them.
 * A busy spell of taps and small passes leaves the same kind of garbage in smaller amounts, and
 * Node, unlike a browser's page, has no idle-time collection: after a compressed busy hour the
 * host's heap stood 13 MB above its settled figure a minute later, nearly all of it garbage (its
 * live heap grew 1.5 MB), and V8 had committed 23 MB more than after the last collection for 5 MB
 * more in use. So a quiet spell (after a store or after any pass: the passes reading a busy spell's
 * orders again store nothing) also collects when V8's committed heap has grown by
 * TRIM_GROWTH_BYTES since the last collection; reading the heap's size is all a quiet spell costs
 * otherwise.
 * Quiet means the counter is quiet too: a tap, or its answer, puts the collection off as a pass
 * does. The collection pauses the host's one thread (44-55 ms after a compressed busy hour, in
 * Electron the main process, where a tap is made durable and answered), and during a busy spell
 * it had run every 30 s, between two of intake's passes, while packers went on tapping. The page's
 * own rest (renderer memory/rest.ts) waits for the same quiet. A counter whose intake is another's
 * (a store hub's member) gets its quiet spell from its taps alone.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../log';
import { type Timers, TimerSlot } from '../time';

/** Bodies stored since the last collection before one is worth asking for. */
export const TRIM_AFTER_STORED = 1_000;
/** How long intake stays quiet before the collection runs (it pauses the process for a moment). */
export const TRIM_QUIET_MS = 20_000;
/** Growth of V8's committed heap since the last collection that a quiet spell collects for, whatever was stored. */
export const TRIM_GROWTH_BYTES = 4 * 1024 * 1024;
/**
 * V8's committed heap past which a long intake does not wait for quiet: the collection runs between
 * two batches (each about 0.1 s at 5,000 orders), so the pass's peak stays under the 250 MB bound.
 */
export const TRIM_CEILING_BYTES = 112 * 1024 * 1024;

/**
 * V8's full collection, compacting, or null where it cannot be had. Node gives `gc` only to a
 * process started with --expose-gc (which Electron's main process cannot be given once packaged);
 * the flag set at run time exposes it in a new context (Jest's leak detector gets it the same way).
 * A plain full collection frees the garbage but keeps its pages: the few live objects left on each
 * keep it committed (measured: 138 MB committed for 18 MB used, before and after). Compacting moves
 * them together so the pages go back (53 MB committed, RSS 191 -> 99 MB), so compaction is asked
 * for this one collection and switched off again.
 */
export function fullCollection(): (() => void) | null {
  let gc: unknown = (globalThis as { gc?: unknown }).gc;
  try {
    if (typeof gc !== 'function') {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc');
    }
  } catch {
    return null;
  }
  if (typeof gc !== 'function') return null;
  const collect = gc as () => void;
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      collect();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

export interface HeapTrim {
  /** Intake stored `count` bodies: a collection is asked for once it has been quiet long enough. */
  stored(count: number): void;
  /**
   * Intake's status moved (a pass ended, stored anything or not): a quiet spell after it looks at
   * the heap's growth. After a busy spell, each pass for the next few minutes reads its orders
   * again and stores nothing (the overlap of intake's window), and those reads' garbage stayed.
   */
  passed(): void;
  /**
   * The counter's outbox moved (a tap, its answer): a collection due waits for the next quiet spell,
   * which looks at the heap's growth as after a pass.
   */
  tapped(): void;
  /** Forgets what was stored and clears the timer (the engine closes). */
  stop(): void;
}

export function createHeapTrim(o: {
  readonly timers: Timers;
  readonly now: () => number;
  readonly log: Logger;
  /** The full collection (`fullCollection()`); null: nothing is done. */
  readonly collect: (() => void) | null;
  /**
   * Lets go, just before the collection, what only a busy spell reads again (intake's parsed
   * bodies, the taps' parsed actions), so that it is collected too: a settled terminal had none.
   */
  readonly letGo?: () => void;
  readonly afterStored?: number;
  readonly quietMs?: number;
  /** V8's committed heap now, bytes (`getHeapStatistics().total_heap_size`). */
  readonly heapCommitted?: () => number;
  readonly ceilingBytes?: number;
  readonly growthBytes?: number;
}): HeapTrim {
  const afterStored = o.afterStored ?? TRIM_AFTER_STORED;
  const quietMs = o.quietMs ?? TRIM_QUIET_MS;
  const heapCommitted = o.heapCommitted ?? (() => getHeapStatistics().total_heap_size);
  const ceiling = o.ceilingBytes ?? TRIM_CEILING_BYTES;
  const growth = o.growthBytes ?? TRIM_GROWTH_BYTES;
  // Stored since the last quiet spell: the burst. A collection at the ceiling does not end
  // a burst: the quiet after it collects once more, for what the rest of the pass left and for the
  // pages V8 has not given back yet. When it did end it (2026-11-30, a 12 s intake whose last
  // collection was a ceiling one, bench/memory.ts), the quiet spell found fewer than
  // TRIM_AFTER_STORED stored since and the heap not grown past the floor read just after that
  // collection, and the host settled at 164 MB (V8 committed 73.6 MB for 43.6 MB used) instead of
  // 116-125 MB, over the 150 MB bound until the next busy spell's quiet.
  let since = 0;
  // Stored since the last collection or quiet spell: a ceiling collection at most every TRIM_AFTER_STORED.
  let sinceCollected = 0;
  // The committed heap after the last collection (at the start: as it is then).
  let floor = heapCommitted();
  const collect = (stored: number, why: 'quiet' | 'ceiling' | 'grown'): void => {
    if (o.collect === null) return;
    const before = process.memoryUsage().rss;
    const startedAt = performance.now();
    o.letGo?.();
    o.collect();
    const pauseMs = Math.round(performance.now() - startedAt);
    floor = heapCommitted();
    const message = why === 'grown' ? 'memory given back after a busy spell' : 'memory given back after a large intake';
    o.log.info(message, { why, stored, rssMbBefore: Math.round(before / 1e6), rssMbAfter: Math.round(process.memoryUsage().rss / 1e6), pauseMs });
  };
  const slot = new TimerSlot(
    o.timers,
    o.now,
    () => {
      // A burst is what was stored between two quiet spells: a trickle never adds up to one.
      const stored = since;
      since = 0;
      sinceCollected = 0;
      if (stored >= afterStored) collect(stored, 'quiet');
      else if (heapCommitted() - floor >= growth) collect(stored, 'grown');
    },
    { keepAlive: false },
  );
  function quietFromNow(): void {
    if (o.collect === null) return;
    slot.clear();
    slot.arm(quietMs);
  }
  return {
    stored(count) {
      if (count <= 0 || o.collect === null) return;
      since += count;
      sinceCollected += count;
      // Quiet means quiet since the last batch: the timer moves with every batch.
      slot.clear();
      slot.arm(quietMs);
      if (sinceCollected >= afterStored && heapCommitted() > ceiling) {
        collect(sinceCollected, 'ceiling');
        sinceCollected = 0;
      }
    },
    passed: quietFromNow,
    tapped: quietFromNow,
    stop() {
      slot.clear();
      since = 0;
      sinceCollected = 0;
    },
  };
}
