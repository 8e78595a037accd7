/**
 * The one timer abstraction of Packdesk: injected everywhere (HTTP deadlines, token refresh, the
 * scheduler, the updater) so tests and benchmarks can drive time; production uses Node's.
 */

export interface TimerOptions {
  /** The pending timer keeps the process running (a CLI drain waiting out a backoff). Default: it does not. */
  readonly keepAlive?: boolean;
}

export interface Timers {
  /** Calls `fn` once, `ms` from now; returns a handle for clearTimeout. */
  setTimeout(fn: () => void, ms: number, options?: TimerOptions): unknown;
  clearTimeout(handle: unknown): void;
}

// Node turns delays above 2^31-1 ms into 1 ms; clamp instead.
const MAX_DELAY_MS = 2_147_483_647;

/** Node's timers; unref'd unless asked to keep the process alive, so a deadline or refresh never holds a CLI open. */
export const systemTimers: Timers = {
  setTimeout(fn, ms, options) {
    const handle = setTimeout(fn, Math.min(Math.max(0, ms), MAX_DELAY_MS));
    if (!options?.keepAlive) handle.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/** Calls `fn` every `ms` (each run armed after the previous one fired); returns the function that stops it. */
export function every(timers: Timers, ms: number, fn: () => void): () => void {
  let handle: unknown = null;
  let stopped = false;
  const arm = (): void => {
    handle = timers.setTimeout(() => {
      if (stopped) return;
      arm();
      fn();
    }, ms);
  };
  arm();
  return () => {
    stopped = true;
    if (handle !== null) timers.clearTimeout(handle);
    handle = null;
  };
}

/**
 * One named timer slot: setting it again keeps whichever fires first. Its timer keeps the process
 * alive (the engine's owner clears every slot on stop), unless `keepAlive: false`.
 */
export class TimerSlot {
  private handle: unknown = null;
  private at = Infinity;
  constructor(
    private readonly timers: Timers,
    private readonly now: () => number,
    private readonly fire: () => void,
    private readonly options: TimerOptions = { keepAlive: true },
  ) {}

  /** Arms the slot `ms` from now, unless it is already armed sooner. */
  arm(ms: number): void {
    const at = this.now() + Math.max(0, ms);
    if (this.handle !== null && this.at <= at) return;
    this.clear();
    this.at = at;
    this.handle = this.timers.setTimeout(
      () => {
        this.handle = null;
        this.at = Infinity;
        this.fire();
      },
      Math.max(0, ms),
      this.options,
    );
  }

  clear(): void {
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
    this.at = Infinity;
  }

  get armed(): boolean {
    return this.handle !== null;
  }
}
