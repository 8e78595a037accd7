/**
 * The sync engine schedules: it has the outbox send due entries strictly one at a time per order
 * (FIFO) and up to `concurrency` orders at once, while the service is reachable, the credentials
 * are not rejected and the data file takes writes. Claiming, settling and every state change are
 * the outbox's; this module decides when and how many.
 */
import { ProblemError, type Problem } from '../../../shared/result';
import type { UpdateSender } from '../api/outcome';
import { type EntryRow, storageProblem } from '../db';
import type { Logger } from '../log';
import { type Answered, attemptEntry, type AttemptOutcome, type BackoffPolicy, type Outbox, type Settlement, type StatusCheck } from '../outbox';
import { type Connectivity, createConnectivity, type OnlineSignal } from './connectivity';
import { type Timers, TimerSlot } from '../time';

export interface SyncOptions {
  readonly outbox: Outbox;
  readonly sender: UpdateSender;
  /** Asked before resending an entry whose earlier attempt got no answer; absent = resend as before. */
  readonly statusCheck?: StatusCheck;
  readonly now: () => number;
  readonly random: () => number;
  readonly timers: Timers;
  readonly backoff: BackoffPolicy;
  readonly concurrency: () => number;
  readonly online?: OnlineSignal;
  readonly log: Logger;
  /** How often to look for work written by another process (the CLI next to the app). */
  readonly pollMs?: number;
  /** How long stop() lets in-flight sends finish before aborting them. */
  readonly stopGraceMs?: number;
}

/** What the engine facade hears from the sync engine. */
export interface SyncListener {
  /** Entries moved to `sending`, or back to `queued` unsent. */
  claimed(entries: readonly EntryRow[]): void;
  /** An answer was settled. */
  settled(settlement: Settlement): void;
  /** Connectivity, credentials, storage or a sync problem changed. */
  changed(): void;
  /** Runs `fn`, which tells of a whole batch of answers, so that what is worked out from the calls is worked out once. */
  batch<T>(fn: () => T): T;
}

export interface DrainOptions {
  /** Keep going until nothing can be sent any more (empty, held by failures, or paused); else one pass. */
  readonly untilEmpty: boolean;
  readonly timeoutMs: number;
}

export interface DrainResult {
  readonly sent: number;
  readonly failed: number;
  /** Entries still queued or sending. */
  readonly remaining: number;
}

interface InFlight {
  readonly entry: EntryRow;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

export type Sync = ReturnType<typeof createSync>;

/** Creates the sync engine; nothing is sent before start(). */
export function createSync(options: SyncOptions, listener: SyncListener) {
  const { outbox, sender, log } = options;
  const pollMs = options.pollMs ?? 5000;
  const inflight = new Map<number, InFlight>();
  const waiters = new Set<() => void>();
  // Drain calls count the settlements that happen while they run.
  const counters = new Set<Pick<SyncListener, 'settled'>>();
  // Answers not yet committed. After a failed commit they stay here (their entries stay in flight,
  // `sending` in memory as on disk) and the commit is tried again.
  const completed: (Answered & { settled: () => void })[] = [];
  // Entries already claimed (durably `sending`) for the next free slot: when an answer comes, the slot
  // goes straight on to one of them while that answer is being committed. They belong to orders with
  // nothing else in flight. If the process dies first they are recovered as "no answer seen", the
  // cautious reading; a clean stop or a pause puts them back as plain `queued`.
  const ready: EntryRow[] = [];
  let flushQueued = false;
  let running = false;
  let pumpQueued = false;
  let credentials: 'ok' | 'rejected' = 'ok';
  let notBefore = 0;
  let lastSuccessAt: number | null = null;
  let problem: string | null = null;
  // The data file does not take writes (disk full, read-only): nothing is sent until it does.
  let storage: Problem | null = null;
  // A commit of answers failed: they wait in `completed` and nothing new goes out before they are recorded.
  let unrecorded = false;

  const wakeTimer = new TimerSlot(options.timers, options.now, () => pump());
  const flushRetry = new TimerSlot(options.timers, options.now, () => flush());
  const connectivity = createConnectivity({
    probe: (signal) => sender.probe(signal),
    now: options.now,
    random: options.random,
    timers: options.timers,
    backoff: options.backoff,
    online: options.online,
    log,
    onChange: (state, previous) => {
      log.info('connectivity changed', { from: previous, to: state });
      if (state === 'online' && previous === 'offline') {
        // The network is back: entries that were backing off only because of it are due again.
        try {
          outbox.networkBack();
        } catch (e) {
          noteProblem(e);
        }
      }
      listener.changed();
      wake();
      notifyWaiters();
    },
  });

  const notifyWaiters = (): void => {
    for (const w of [...waiters]) w();
  };

  const noteProblem = (e: unknown): void => {
    const full = storageProblem(e);
    if (full) {
      if (storage?.code !== full.code) {
        storage = full;
        log.error('data file not writable: sending paused', { error: e });
        listener.changed();
      }
      // Try again now and then: space may be freed while the app runs.
      wakeTimer.arm(pollMs);
      return;
    }
    const message = e instanceof ProblemError ? e.problem.message : `The data file could not be used: ${String(e)}`;
    if (problem !== message) {
      problem = message;
      log.error('sync problem', { error: e });
      listener.changed();
    }
  };

  const clearProblem = (): void => {
    if (problem !== null || storage !== null) {
      if (storage) log.info('data file takes writes again: sending resumes');
      problem = null;
      storage = null;
      listener.changed();
    }
  };

  /** Coalesces wake-ups into one pump on the next microtask. */
  function wake(): void {
    if (!running || pumpQueued) return;
    pumpQueued = true;
    queueMicrotask(() => {
      pumpQueued = false;
      pump();
    });
  }

  function pump(): void {
    if (!running) return;
    wakeTimer.clear();
    if (unrecorded && !flushQueued) {
      // Answers whose commit failed are recorded first; nothing new goes out before they are.
      flush();
      if (unrecorded) return;
    }
    const now = options.now();
    if (!canSend(now)) {
      releaseReady();
      if (running && credentials !== 'rejected' && connectivity.get() !== 'offline') wakeTimer.arm(notBefore - now);
      return;
    }
    try {
      let free = options.concurrency() - inflight.size;
      while (free > 0 && ready.length > 0) {
        send(ready.shift()!);
        free--;
      }
      if (free > 0) {
        const claimed = outbox.claimDue(free);
        for (const entry of claimed) send(entry);
        if (claimed.length > 0) listener.claimed(claimed);
      }
      if (inflight.size < options.concurrency()) {
        // Every due head is on its way; sleep until the next one falls due.
        const next = outbox.nextWakeAt();
        if (next !== null) wakeTimer.arm(Math.max(1, next - options.now()));
      }
      clearProblem();
    } catch (e) {
      noteProblem(e);
    }
    // Look again at least every pollMs: another process (the CLI) may have queued taps, the clock may have jumped.
    wakeTimer.arm(pollMs);
    notifyWaiters();
  }

  /** Puts the ready entries back to `queued` (nothing was sent for them); they leave memory only once the file says so. */
  function releaseReady(): void {
    if (ready.length === 0) return;
    try {
      const released = outbox.release(ready);
      ready.length = 0;
      listener.claimed(released);
    } catch (e) {
      // They stay `sending` in the file and in the ready pool; the next start recovers them if this process ends first.
      noteProblem(e);
    }
  }

  function send(entry: EntryRow): void {
    const controller = new AbortController();
    let settled: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (settled = resolve));
    inflight.set(entry.id, { entry, controller, done });
    void attemptEntry(entry, { sender, statusCheck: options.statusCheck, log }, controller.signal).then((outcome) => {
      // A plain success frees the slot for a ready entry at once; its commit follows in flush().
      if (outcome.kind === 'success' && ready.length > 0 && canSend(options.now())) send(ready.shift()!);
      completed.push({ entry, outcome, settled });
      if (!flushQueued) {
        flushQueued = true;
        // Answers that arrive in the same turn of the event loop are settled in one commit.
        setImmediate(flush);
      }
    });
  }

  /**
   * Settles the answers received so far in ONE transaction and, when they were all plain
   * successes, claims the next due entries (for free slots and the ready pool) in the same commit:
   * one fsync per batch, not two per tap. Memory follows the file: only what the commit wrote is
   * applied here; after a failed commit the answers wait and the commit is tried again.
   */
  function flush(): void {
    flushQueued = false;
    flushRetry.clear();
    const batch = completed.splice(0);
    if (batch.length === 0) return;
    let committed;
    try {
      committed = outbox.commit(batch, (settlements) => {
        // Anything but success may change whether to send at all (offline, paused, rate limited): pump decides.
        if (settlements.every((st) => st.result === 'sent') && canSend(options.now())) {
          // Enough for the free slots, plus a full ready pool.
          const busy = inflight.size - batch.length;
          return { claim: Math.max(0, 2 * options.concurrency() - busy - ready.length), release: [] };
        }
        return { claim: 0, release: ready };
      });
    } catch (e) {
      // Nothing of the commit happened: the entries stay `sending` in the file and in flight here.
      completed.unshift(...batch);
      unrecorded = true;
      noteProblem(e);
      // The attempts themselves are over (a one-pass drain may finish); the answers wait for the file.
      for (const c of batch) c.settled();
      if (running) flushRetry.arm(storage ? pollMs : options.backoff.baseMs);
      listener.changed();
      notifyWaiters();
      return;
    }
    unrecorded = false;
    if (committed.released.length > 0) ready.length = 0;
    for (const c of batch) inflight.delete(c.entry.id);
    // The whole batch is counted before any state change below can wake a drain that then finishes.
    for (const st of committed.settlements) for (const c of counters) c.settled(st);
    ready.push(...committed.claimed);
    // The next sends go out before the listener hears of this batch: what it works out takes time.
    for (let free = options.concurrency() - inflight.size; free > 0 && ready.length > 0; free--) send(ready.shift()!);
    listener.batch(() => {
      batch.forEach((c, i) => onSettled(committed.settlements[i]!, c.outcome));
      if (committed.claimed.length > 0) listener.claimed(committed.claimed);
      if (committed.released.length > 0) listener.claimed(committed.released);
      clearProblem();
    });
    for (const c of batch) c.settled();
    wake();
    notifyWaiters();
  }

  function canSend(now: number): boolean {
    // A storage problem alone does not stop pump from trying: the next claim is how it learns the disk has room again.
    return running && !unrecorded && credentials !== 'rejected' && connectivity.get() !== 'offline' && now >= notBefore;
  }

  function onSettled(settlement: Settlement, outcome: AttemptOutcome): void {
    // Before the listener hears of it: the status it publishes then says when this tap got through.
    if (settlement.result === 'sent' || settlement.result === 'unreadable') lastSuccessAt = options.now();
    listener.settled(settlement);
    if (settlement.result === 'paused' && credentials !== 'rejected') {
      credentials = 'rejected';
      log.warn('credentials rejected: outbox paused', { message: outcome.kind === 'auth' ? outcome.message : '' });
      listener.changed();
    }
    if (settlement.rateLimitedForMs !== undefined) notBefore = Math.max(notBefore, options.now() + settlement.rateLimitedForMs);
    if (settlement.reachable !== null) connectivity.report(settlement.reachable);
  }

  /** True when nothing more will happen without time passing for a failed/paused state to change. */
  function idle(): boolean {
    // A data file that takes no writes: nothing more can be recorded until a person frees space.
    if (storage !== null) return true;
    if (inflight.size > 0 || ready.length > 0) return false;
    if (credentials === 'rejected') return true;
    return outbox.nextWakeAt() === null;
  }

  return {
    /** Starts sending (the caller has already recovered entries left `sending`). */
    start(): void {
      if (running) return;
      running = true;
      connectivity.start();
      wake();
    },

    /** Stops timers and the probe, lets in-flight sends settle (aborting them after a grace period). */
    async stop(): Promise<void> {
      running = false;
      wakeTimer.clear();
      flushRetry.clear();
      connectivity.stop();
      releaseReady();
      const pending = [...inflight.values()];
      if (pending.length > 0) {
        const grace = new TimerSlot(options.timers, options.now, () => pending.forEach((p) => p.controller.abort()));
        grace.arm(options.stopGraceMs ?? 3000);
        await Promise.allSettled(pending.map((p) => p.done));
        grace.clear();
      }
      notifyWaiters();
    },

    /** Something changed (a tap, a retry): look for due work. */
    wake,

    connectivity: (): Connectivity => connectivity.get(),
    credentials: (): 'ok' | 'rejected' => credentials,
    lastSuccessAt: (): number | null => lastSuccessAt,
    setLastSuccessAt(at: number | null): void {
      lastSuccessAt = at;
    },
    /** A store failure the sync engine ran into, in words; null when all is well. */
    problem: (): string | null => storage?.message ?? problem,
    /** The data file does not take writes (disk full…): sending is paused; null when it does. */
    storage: (): Problem | null => storage,
    inFlight: (): number => inflight.size,
    running: (): boolean => running,

    /** New credentials were saved: resume sending. */
    credentialsChanged(): void {
      if (credentials === 'ok') return;
      credentials = 'ok';
      listener.changed();
      wake();
      notifyWaiters();
    },

    /** Sends what can be sent and reports; see DrainOptions. Never rejects. */
    drain(drainOptions: DrainOptions): Promise<DrainResult> {
      let sent = 0;
      let failed = 0;
      const counting: Pick<SyncListener, 'settled'> = {
        settled: (s) => {
          if (s.result === 'sent' || s.result === 'unreadable') sent++;
          if (s.result === 'failed' || s.result === 'mayBeApplied') failed++;
        },
      };
      counters.add(counting);
      return new Promise<DrainResult>((resolve) => {
        let finished = false;
        const finish = (): void => {
          if (finished) return;
          finished = true;
          timeout.clear();
          waiters.delete(check);
          counters.delete(counting);
          let remaining = 0;
          try {
            remaining = outbox.waiting();
          } catch (e) {
            noteProblem(e);
          }
          resolve({ sent, failed, remaining });
        };
        const timeout = new TimerSlot(options.timers, options.now, finish);
        timeout.arm(drainOptions.timeoutMs);
        let onePass: Promise<unknown> | null = null;
        const check = (): void => {
          if (finished) return;
          if (!running) return finish();
          if (onePass) return;
          try {
            if (idle()) finish();
          } catch (e) {
            noteProblem(e);
            finish();
          }
        };
        if (!running) return finish();
        if (drainOptions.untilEmpty) {
          waiters.add(check);
          pump();
          check();
        } else {
          pump();
          onePass = Promise.allSettled([...inflight.values()].map((f) => f.done)).then(finish);
        }
      });
    },
  };
}
