/** Timers are injected so tests and benchmarks can drive time; production uses Node's. */

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers. Not unref'd: a pending drain must keep a CLI process alive; stop() clears them all. */
export const nodeTimers: Timers = {
  setTimeout(fn, ms) {
    // Node turns delays above 2^31-1 ms into 1 ms; clamp instead.
    return setTimeout(fn, Math.min(Math.max(0, ms), 2_147_483_647));
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/** One named timer slot: setting it again keeps whichever fires first. */
export class TimerSlot {
  private handle: unknown = null;
  private at = Infinity;
  constructor(
    private readonly timers: Timers,
    private readonly now: () => number,
    private readonly fire: () => void,
  ) {}

  /** Arms the slot `ms` from now, unless it is already armed sooner. */
  arm(ms: number): void {
    const at = this.now() + Math.max(0, ms);
    if (this.handle !== null && this.at <= at) return;
    this.clear();
    this.at = at;
    this.handle = this.timers.setTimeout(() => {
      this.handle = null;
      this.at = Infinity;
      this.fire();
    }, Math.max(0, ms));
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
