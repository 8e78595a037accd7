/**
 * Whether the order service can be reached. Real requests are the authority (an answer of any
 * kind means reachable, a network error means not); while unreachable a light probe runs with
 * backoff, and the OS's online/offline signal (when there is one) nudges it either way.
 */
import type { Logger } from '../log';
import { type BackoffPolicy, backoffDelay } from '../outbox';
import { type Timers, TimerSlot } from '../time';

export type Connectivity = 'online' | 'offline' | 'unknown';

/** The OS's view of the network, injected (Electron's net module, navigator.onLine, or nothing). */
export interface OnlineSignal {
  current(): boolean | undefined;
  subscribe(cb: (online: boolean) => void): () => void;
}

export interface ConnectivityOptions {
  readonly probe: (signal: AbortSignal) => Promise<boolean>;
  readonly now: () => number;
  readonly random: () => number;
  readonly timers: Timers;
  readonly backoff: BackoffPolicy;
  readonly online?: OnlineSignal;
  readonly log: Logger;
  /** Called on every change of state. */
  readonly onChange: (state: Connectivity, previous: Connectivity) => void;
}

export type ConnectivityTracker = ReturnType<typeof createConnectivity>;

/** Tracks reachability and runs the probe loop while offline. */
export function createConnectivity(options: ConnectivityOptions) {
  let state: Connectivity = 'unknown';
  let running = false;
  let probeFailures = 0;
  let probing: AbortController | null = null;
  let unsubscribe: (() => void) | null = null;
  const probeTimer = new TimerSlot(options.timers, options.now, () => void probeNow());

  const set = (next: Connectivity): void => {
    if (next === state) return;
    const previous = state;
    state = next;
    if (next === 'offline') scheduleProbe();
    else {
      probeTimer.clear();
      probeFailures = 0;
    }
    options.onChange(next, previous);
  };

  const scheduleProbe = (): void => {
    if (!running || probing || probeTimer.armed) return;
    // Never hammer a dead network: at least half the base delay even when the jitter draws zero.
    const delay = Math.max(options.backoff.baseMs / 2, backoffDelay(probeFailures + 1, options.backoff, options.random));
    probeTimer.arm(delay);
  };

  const probeNow = async (): Promise<void> => {
    if (!running || probing) return;
    probeTimer.clear();
    const controller = new AbortController();
    probing = controller;
    let reachable = false;
    try {
      reachable = await options.probe(controller.signal);
    } catch (e) {
      options.log.warn('probe failed', { error: e });
    } finally {
      probing = null;
    }
    if (!running) return;
    if (reachable) set('online');
    else {
      probeFailures++;
      if (state !== 'offline') set('offline');
      else scheduleProbe();
    }
  };

  return {
    start(): void {
      running = true;
      if (options.online) {
        if (options.online.current() === false) set('offline');
        unsubscribe = options.online.subscribe((online) => {
          if (!running) return;
          if (!online) set('offline');
          // "Unknown" too: an idle terminal learns it is online from intake's answered polls.
          else if (state !== 'online') void probeNow();
        });
      }
    },
    stop(): void {
      running = false;
      probeTimer.clear();
      probing?.abort();
      unsubscribe?.();
      unsubscribe = null;
    },
    get(): Connectivity {
      return state;
    },
    /** A real request got an answer (true) or failed on the network (false). */
    report(reachable: boolean): void {
      set(reachable ? 'online' : 'offline');
    },
  };
}
