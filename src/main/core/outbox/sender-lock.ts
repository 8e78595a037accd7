/**
 * Becoming the process that sends this terminal's queue (lease.ts: one at a time). Whoever holds
 * the lease recovers what an earlier process left half sent, and only then starts sending; a
 * process that cannot take it (a CLI drain holds it, or the disk is full) shows and queues taps,
 * says why in the status, and tries again now and then.
 */
import type { Problem } from '../../../shared/result';
import { type EntryRow, storageProblem, type Store } from '../db';
import type { Logger } from '../log';
import { type Timers, TimerSlot } from '../time';
import type { LeaseResult } from './lease';
import type { Outbox } from './outbox';
import { HISTORY_KEEP_MS } from './retire';

/** How often a process without the lease tries for it again, ms (default). */
const LOCK_RETRY_MS = 5000;

export interface SenderLockOptions {
  readonly outbox: Pick<Outbox, 'takeLease' | 'recover'>;
  readonly store: Store;
  readonly now: () => number;
  readonly timers: Timers;
  readonly log: Logger;
  /** How long to wait before trying for the lease again, ms (default 5000). */
  readonly pollMs?: number | undefined;
  /** The engine is stopping: nothing is tried any more. */
  readonly stopped: () => boolean;
  /** Entries an earlier process left sending were queued again. */
  readonly recovered: (entries: readonly EntryRow[]) => void;
  /** What the status says of the lock may have changed. */
  readonly changed: () => void;
  /** This process holds the lease and has recovered: sending starts. */
  readonly sending: () => void;
}

export interface SenderLock {
  /** Takes the lease, recovers and starts sending; runs from a timer too, so it never throws. */
  takeAndSend(): void;
  /** An explicit drain: tries for the lease at once rather than at the next retry. */
  tryNow(): void;
  /** This process sends the queue. */
  held(): boolean;
  /** What the status says while another process sends the queue, or null. */
  notice(): string | null;
  /** The data file refused the writes of taking the lease or recovering (disk full…), until they succeed. */
  storage(): Problem | null;
  /** The engine stops: no more retries. */
  stopRetry(): void;
  /** Gives the lease up, if held (a failure is logged: the next process finds this one gone). */
  release(): void;
}

export function createSenderLock(o: SenderLockOptions): SenderLock {
  const { store, now, log } = o;
  let lock: LeaseResult | null = null;
  let startStorage: Problem | null = null;
  // While another process holds the sender lock (a CLI drain), try again now and then.
  const lockRetry = new TimerSlot(o.timers, now, () => takeAndSend());

  function takeAndSend(): void {
    if (o.stopped()) return;
    try {
      lock = o.outbox.takeLease();
      startStorage = null;
    } catch (e) {
      lock = null;
      startStorage = storageProblem(e);
      log.error('the sender lease could not be taken', { error: e });
      o.changed();
      lockRetry.arm(o.pollMs ?? LOCK_RETRY_MS);
      return;
    }
    if (!lock.ok) {
      log.warn('another process sends this queue', { pid: lock.holderPid });
      o.changed();
      lockRetry.arm(o.pollMs ?? LOCK_RETRY_MS);
      return;
    }
    try {
      const recovered = o.outbox.recover();
      if (recovered.length > 0) {
        log.warn('entries left sending were queued again', { count: recovered.length });
        o.recovered(recovered);
      }
      store.audit.prune(now() - HISTORY_KEEP_MS);
      store.storeTaps.prune(now() - HISTORY_KEEP_MS);
      store.hubTaps.prune(now() - HISTORY_KEEP_MS);
    } catch (e) {
      log.error('recovery failed', { error: e });
    }
    o.sending();
  }

  return {
    takeAndSend,
    tryNow() {
      lockRetry.clear();
      takeAndSend();
    },
    held: () => lock?.ok === true,
    notice: () =>
      lock && !lock.ok
        ? `Another Packdesk (process ${lock.holderPid}) is sending this terminal's queue; this one shows and queues taps only`
        : null,
    storage: () => startStorage,
    stopRetry: () => lockRetry.clear(),
    release() {
      try {
        if (lock?.ok) lock.release();
      } catch (e) {
        // Left in the file: the next process finds this one gone and takes it over.
        log.warn('the sender lease could not be released', { error: e });
      }
    },
  };
}
