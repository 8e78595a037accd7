/**
 * The one connectivity signal of the terminal: the OS's online/offline view (when the shell has
 * one) joined with what real requests found (intake's polls and probes report every answer or its
 * absence). The sync engine's connectivity tracker listens to it, so the sync bar turns to
 * "offline" at the first failed poll, not at the next tap.
 */
import type { OnlineSignal } from './connectivity';

export interface ReachabilitySignal extends OnlineSignal {
  /** A request got an HTTP answer (true) or none (false). */
  report(reachable: boolean): void;
  stop(): void;
}

/** Builds the signal over the OS's, if any. */
export function createReachabilitySignal(os?: OnlineSignal): ReachabilitySignal {
  const listeners = new Set<(online: boolean) => void>();
  let last: boolean | undefined;
  const emit = (online: boolean): void => {
    if (online === last) return;
    last = online;
    for (const cb of [...listeners]) cb(online);
  };
  // The OS saying "offline" is believed at once; "online" only nudges a probe (the tracker decides).
  const offOs = os?.subscribe((online) => {
    if (!online) emit(false);
    else {
      last = undefined;
      emit(true);
    }
  });
  return {
    current: () => (os?.current() === false ? false : last),
    subscribe(cb) {
      listeners.add(cb);
      return () => {
        listeners.delete(cb);
      };
    },
    report: emit,
    stop() {
      offOs?.();
      listeners.clear();
    },
  };
}
