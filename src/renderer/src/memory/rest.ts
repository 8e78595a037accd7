/**
 * The page gives its garbage back after a busy spell (issue 41), as the host does (the engine's
 * host/heap-trim.ts). Every order changed, tap answered and row drawn leaves garbage in the page's
 * JS heap and in Blink's; V8 collects it as more work comes, but once the counter goes quiet
 * nothing more comes, and what a busy spell left stays. After a compressed busy hour the page's
 * renderer stood 40-80 MB above its settled figure minutes later (bench/memory.ts), while
 * Chromium's own count of the renderer's private memory, read after a full collection, had grown
 * 10 MB at most (bench/memory.ts --memory-dumps): the rest was garbage. On an old counter PC that
 * memory is taken from the browser the staff also use.
 *
 * So once BUSY_EVENTS of the engine's events have come since the last collection and then none for
 * QUIET_MS, the page asks V8 for one full collection. A trickle (a new order now and then) only
 * counts up, so a slow day collects once in a long while. A collection costs a few tens of
 * milliseconds on an old PC, in a spell when nothing came for 20 s.
 *
 * V8 gives pages `gc` only when started with --expose-gc: Electron's main process passes it to
 * its renderers (src/main/index.ts) and the browser harness's Chromium is started with it too.
 * Without it (a plain browser on the harness) nothing is done.
 */

import type { EventName, PackdeskApi } from '../../../shared/ipc';

/** The engine's events since the last collection that make a busy spell. */
export const BUSY_EVENTS = 200;
/** How long no event has come before the collection runs. */
export const QUIET_MS = 20_000;

export interface PageRest {
  /** An event from the engine came (an order changed, a tap answered, orders left). */
  busy(): void;
  /** Clears the timer (tests). */
  stop(): void;
}

/** What the page asks V8's `gc` for (see pageCollection). */
const REST_COLLECTION = Object.freeze({ type: 'major', execution: 'sync', flavor: 'last-resort' });

/** The performance mark each collection leaves (DevTools' timeline, bench/memory.ts counts them). */
export const REST_MARK = 'packdesk:page-rest';

/**
 * V8's full collection from the page's `gc`, or null where the page was not given one: a major,
 * synchronous one of the "last resort" flavour (V8's options object for `gc`: type, execution,
 * flavor), as V8 makes when the system is low on memory: it collects again while a collection
 * still frees something (what one frees may let more go), compacts, and gives the emptied pages
 * back to the system. A regular one left them with V8 for its next allocations: after a busy hour
 * the renderer's RSS read 40 % over its settled figure once, though the rest had been asked for,
 * while Chromium's memory dump (which collects this way first) found the page's own memory grown
 * 10 MB at most (bench/memory.ts --memory-dumps). A V8 that does not know `flavor` makes a
 * regular one. Each leaves REST_MARK.
 */
export function pageCollection(global: object = globalThis): (() => void) | null {
  const gc = (global as { gc?: unknown }).gc;
  if (typeof gc !== 'function') return null;
  return () => {
    (gc as (options: object) => unknown)(REST_COLLECTION);
    performance.mark(REST_MARK);
  };
}

export function createPageRest(o: {
  readonly collect: (() => void) | null;
  readonly busyEvents?: number;
  readonly quietMs?: number;
}): PageRest {
  const busyEvents = o.busyEvents ?? BUSY_EVENTS;
  const quietMs = o.quietMs ?? QUIET_MS;
  let since = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const stop = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    busy() {
      if (o.collect === null) return;
      since++;
      if (since < busyEvents) return;
      // Busy enough: every event from here on puts the collection off until none came for quietMs.
      stop();
      timer = setTimeout(() => {
        timer = null;
        since = 0;
        try {
          o.collect?.();
        } catch {
          // A collection that cannot run changes nothing the packer sees.
        }
      }, quietMs);
    },
    stop,
  };
}

/** The events that are work done: orders and taps changing, orders leaving or read again. */
export const WORK_EVENTS: readonly EventName[] = ['orders.changed', 'orders.removed', 'orders.listed', 'outbox.changed'];

/** Counts the engine's work events into `rest`; returns what stops listening. */
export function restAfterBusySpells(api: Pick<PackdeskApi, 'on'>, rest: PageRest = createPageRest({ collect: pageCollection() })): () => void {
  const stops = WORK_EVENTS.map((event) => api.on(event, () => rest.busy()));
  return () => {
    for (const stop of stops) stop();
    rest.stop();
  };
}
