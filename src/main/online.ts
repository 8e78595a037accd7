/**
 * The online signal the engine uses to decide when to try sending: Electron's `net.isOnline()`
 * (the OS's view of connectivity), polled because Electron has no change event for it, and
 * re-read at once when the machine wakes or the session unlocks (the usual moments the network
 * comes back). It only hints; the sync engine's own probe of the order service decides.
 */

import type { OnlineSignal } from './core/sync/connectivity';

export type { OnlineSignal };

export interface OnlineSignalOptions {
  /** Electron's net.isOnline. */
  readonly isOnline: () => boolean;
  /** Registers a wake-up hook (powerMonitor 'resume' / 'unlock-screen'); returns its removal. */
  readonly onWake?: (cb: () => void) => () => void;
  readonly pollMs?: number;
  readonly setInterval?: (fn: () => void, ms: number) => unknown;
  readonly clearInterval?: (handle: unknown) => void;
}

/** Creates the signal and starts polling; `stop` ends it. */
export function createOnlineSignal(options: OnlineSignalOptions): OnlineSignal & { stop(): void } {
  const listeners = new Set<(online: boolean) => void>();
  let last: boolean | undefined;
  const read = (): void => {
    let now: boolean;
    try {
      now = options.isOnline();
    } catch {
      return; // keep the last known value rather than guessing
    }
    if (now === last) return;
    last = now;
    for (const cb of listeners) cb(now);
  };
  read();
  const every = options.setInterval ?? ((fn: () => void, ms: number) => {
    const t = setInterval(fn, ms);
    t.unref?.();
    return t;
  });
  const clear = options.clearInterval ?? ((h: unknown) => clearInterval(h as NodeJS.Timeout));
  const handle = every(read, options.pollMs ?? 5_000);
  const offWake = options.onWake?.(read);
  return {
    current: () => last,
    subscribe(cb) {
      listeners.add(cb);
      return () => {
        listeners.delete(cb);
      };
    },
    stop() {
      clear(handle);
      offWake?.();
      listeners.clear();
    },
  };
}
