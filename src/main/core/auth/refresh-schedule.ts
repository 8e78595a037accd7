/**
 * Refreshing a token ahead of its expiry: a timer set for the refresh time, and a refresh behind
 * the callers' backs that, when it fails, waits a while before trying again, so a token server
 * that is down is not asked on every call while the current token still works.
 */
import type { Result } from '../../../shared/result';
import type { Timers } from '../time';
import type { Logger } from '../log/logger';
import type { Held } from './token-status';

export interface RefreshScheduleOptions {
  readonly timers: Timers;
  readonly now: () => number;
  /** After a failed refresh ahead of expiry, wait this long before trying again. */
  readonly retryDelayMs: number;
  /** Refresh on a timer ahead of expiry (otherwise only when a caller asks after the refresh time). */
  readonly proactive: boolean;
  readonly log: Logger;
  /** The token held now, if any. */
  readonly held: () => Held | null;
  /** True while a token request is in flight: a background refresh then has nothing to add. */
  readonly inFlight: () => boolean;
  /** Starts (or joins) the one token request. */
  readonly obtain: () => Promise<Result<unknown>>;
}

export class RefreshSchedule {
  private timer: unknown = null;
  private nextBackgroundAttempt = 0;
  private stopped = false;

  constructor(private readonly options: RefreshScheduleOptions) {}

  /** Refreshes now, behind the callers' backs, unless one is in flight or failed too recently. */
  refreshInBackground(now: number): void {
    const o = this.options;
    if (o.inFlight() || this.stopped || now < this.nextBackgroundAttempt) return;
    this.nextBackgroundAttempt = now + o.retryDelayMs;
    void o.obtain().then((result) => {
      if (result.ok) return;
      o.log.warn('refresh ahead of expiry failed; the current token is used until it expires', {
        problem: result.problem.message,
      });
      const held = o.held();
      if (held && !held.invalid && o.now() < held.tokens.expiresAt) this.schedule(this.nextBackgroundAttempt);
    });
  }

  /** Sets the timer for `at` (local epoch ms), replacing any set before. */
  schedule(at: number): void {
    const o = this.options;
    this.clear();
    if (!o.proactive || this.stopped) return;
    this.timer = o.timers.setTimeout(() => {
      this.timer = null;
      const held = o.held();
      if (!held || held.invalid) return;
      const now = o.now();
      if (now >= held.refreshAt) this.refreshInBackground(now);
      else this.schedule(held.refreshAt);
    }, at - o.now());
  }

  /** A new token came: the next failure may be retried in the background at once. */
  granted(): void {
    this.nextBackgroundAttempt = 0;
  }

  clear(): void {
    if (this.timer !== null) this.options.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  /** The manager is closing: no timer is set again. */
  stop(): void {
    this.stopped = true;
    this.clear();
  }
}
