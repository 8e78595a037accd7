/**
 * The sync engine: sends due outbox entries through the UpdateSender, strictly one at a time per
 * order (FIFO) and up to `concurrency` orders at once, while the service is reachable and the
 * credentials are not rejected. Every answer is settled by the outbox in one transaction.
 */
import { buildUpdateRequest } from '../../../shared/protocol';
import { ProblemError } from '../../../shared/result';
import type { UpdateOutcome, UpdateSender } from '../api/outcome';
import type { EntryRow, Store } from '../db';
import type { Logger } from '../log';
import type { BackoffPolicy, Outbox, Settlement } from '../outbox';
import { type Connectivity, createConnectivity, type OnlineSignal } from './connectivity';
import { type Timers, TimerSlot } from './timers';

export interface SyncOptions {
  readonly store: Store;
  readonly outbox: Outbox;
  readonly sender: UpdateSender;
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
  /** Connectivity, credentials or a sync problem changed. */
  changed(): void;
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
  const { store, outbox, sender, log } = options;
  const pollMs = options.pollMs ?? 5000;
  const inflight = new Map<number, InFlight>();
  const waiters = new Set<() => void>();
  // Drain calls count the settlements that happen while they run.
  const counters = new Set<SyncListener>();
  const completed: { entry: EntryRow; outcome: UpdateOutcome; settled: () => void }[] = [];
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

  const wakeTimer = new TimerSlot(options.timers, options.now, () => pump());
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
          store.outbox.clearNetworkBackoff(options.now());
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
    const message = e instanceof ProblemError ? e.problem.message : `The data file could not be used: ${String(e)}`;
    if (problem !== message) {
      problem = message;
      log.error('sync problem', { error: e });
      listener.changed();
    }
  };

  const clearProblem = (): void => {
    if (problem !== null) {
      problem = null;
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
        const claimed = outbox.claim(store.outbox.dueHeads(now, free));
        for (const entry of claimed) send(entry);
        if (claimed.length > 0) listener.claimed(claimed);
      }
      if (inflight.size < options.concurrency()) {
        // Every due head is on its way; sleep until the next one falls due.
        const next = store.outbox.nextWakeAt();
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

  /** Puts the ready entries back to `queued` (nothing was sent for them). */
  function releaseReady(): void {
    if (ready.length === 0) return;
    try {
      listener.claimed(outbox.unclaim(ready.splice(0)));
    } catch (e) {
      // They stay `sending` on disk and are recovered at the next start; nothing is lost.
      noteProblem(e);
    }
  }

  function send(entry: EntryRow): void {
    const controller = new AbortController();
    let settled: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (settled = resolve));
    inflight.set(entry.id, { entry, controller, done });
    void attempt(entry, controller.signal).then((outcome) => {
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
   * one fsync per batch, not two per tap.
   */
  function flush(): void {
    flushQueued = false;
    const batch = completed.splice(0);
    if (batch.length === 0) return;
    const settlements: [Settlement, UpdateOutcome][] = [];
    let claimed: EntryRow[] = [];
    let released: EntryRow[] = [];
    try {
      store.transaction(() => {
        for (const c of batch) settlements.push([outbox.settle(c.entry, c.outcome), c.outcome]);
        // Anything but success may change whether to send at all (offline, paused, rate limited): pump decides.
        if (settlements.every(([st]) => st.result === 'sent') && canSend(options.now())) {
          // Enough for the free slots, plus a full ready pool.
          const busy = inflight.size - batch.length;
          const wanted = 2 * options.concurrency() - busy - ready.length;
          if (wanted > 0) claimed = outbox.claim(store.outbox.dueHeads(options.now(), wanted));
        } else if (ready.length > 0) {
          released = outbox.unclaim(ready.splice(0));
        }
      });
    } catch (e) {
      // The rows stay `sending`; the next start recovers them as "no answer seen". Nothing is lost.
      noteProblem(e);
      settlements.length = 0;
      claimed = [];
    }
    for (const c of batch) inflight.delete(c.entry.id);
    for (const [settlement, outcome] of settlements) onSettled(settlement, outcome);
    ready.push(...claimed);
    for (let free = options.concurrency() - inflight.size; free > 0 && ready.length > 0; free--) send(ready.shift()!);
    if (claimed.length > 0) listener.claimed(claimed);
    if (released.length > 0) listener.claimed(released);
    for (const c of batch) c.settled();
    wake();
    notifyWaiters();
  }

  function canSend(now: number): boolean {
    return running && credentials !== 'rejected' && connectivity.get() !== 'offline' && now >= notBefore;
  }

  async function attempt(entry: EntryRow, signal: AbortSignal): Promise<UpdateOutcome> {
    const request = buildUpdateRequest(entry.orderId, entry.requestId, [entry.action]);
    if (!request.ok)
      return { kind: 'permanent', status: 0, errorCode: request.problem.code ?? 'INVALID_REQUEST', message: request.problem.message };
    try {
      return await sender.update(request.value, signal);
    } catch (e) {
      // The sender promises never to throw; if it does, treat it as a send whose fate is unknown.
      log.error('sender threw', { error: e });
      return { kind: 'transient', message: `Sending failed: ${e instanceof Error ? e.message : String(e)}`, noAnswer: true };
    }
  }

  function onSettled(settlement: Settlement, outcome: UpdateOutcome): void {
    // Counted and published first: the state changes below may wake a drain that is about to finish.
    for (const c of counters) c.settled(settlement);
    listener.settled(settlement);
    if (settlement.result === 'sent' || settlement.result === 'unreadable') lastSuccessAt = options.now();
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
    if (inflight.size > 0 || ready.length > 0) return false;
    if (credentials === 'rejected') return true;
    return store.outbox.nextWakeAt() === null;
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
    problem: (): string | null => problem,
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
      const counting: SyncListener = {
        claimed: () => undefined,
        changed: () => undefined,
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
            remaining = store.outbox.counts().waiting;
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
