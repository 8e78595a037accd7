/**
 * The engine facade: the one object the Electron shell, the web harness, the CLI and the tests
 * drive (its calls: types.ts). It opens the store, puts the outbox (the queue) and the sync engine
 * (the scheduler) together, and turns their changes into the events, views and status of
 * src/shared/ipc/. Each part lives with its concern: opening the file (db/open-or-replace.ts), the
 * sender lock and upkeep (outbox/), the views (outbox/views.ts), packing (packing/steps.ts), the
 * status sentence (status.ts), what is read (reads.ts) and what a person does (writes.ts); here
 * they are built and wired together, and started and stopped.
 */
import { randomUUID } from 'node:crypto';
import type { SyncStatus } from '../../../shared/ipc';
import { fileHealth, openOrReplace, parsedActionsKept, watchDamage } from '../db';
import { silentLogger } from '../log';
import { createOutbox, createSenderLock, createUpkeep, DEFAULT_BACKOFF, type Outbox, storeViews } from '../outbox';
import { createSync, type Sync } from '../sync';
import { createPacking } from '../packing';
import { createStaff } from '../staff';
import { sharedRecords } from './shared-records';
import { createEngineConflicts } from './conflicts';
import { systemTimers, TimerSlot } from '../time';
import { createPublisher, EventHub } from './events';
import { guarded } from './guard';
import { clamp, engineReads } from './reads';
import { backlogDueIn, damagedStatus, syncStatus } from './status';
import type { Engine, EngineOptions } from './types';
import { engineWrites } from './writes';

export type { Engine, EngineOptions } from './types';

const DEFAULT_UNDO_MS = 5000;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_BACKLOG_MS = 15 * 60 * 1000;
const CHECKPOINT_DELAY_MS = 250;

/** Opens the data folder and builds the engine; throws ProblemError only when no data file can be used at all. */
export function createEngine(options: EngineOptions): Engine {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const timers = options.timers ?? systemTimers;
  const log = (options.log ?? silentLogger).child('engine');
  const openingCheck = options.openingCheck ?? 'now';
  const { store, notice: storeNotice, salvage: storeSalvage } = openOrReplace(options.dataDir, now, options.terminalId, log, openingCheck);

  let undoWindowMs = clamp(options.undoWindowMs ?? DEFAULT_UNDO_MS, 0, 60_000);
  let concurrency = clamp(options.concurrency ?? DEFAULT_CONCURRENCY, 1, 16);
  const backlogThresholdMs = options.backlogThresholdMs ?? DEFAULT_BACKLOG_MS;
  const hub = new EventHub(log);
  let started = false;
  let stopped = false;
  let lastTap: number | null = null;
  let startedAt: number | null = null;
  /** This counter's name in its store hub, or null (set by the host's hub binding). */
  let counterName: string | null = null;

  // Folds the WAL into the main file shortly after writes, between taps rather than inside one.
  const checkpointTimer = new TimerSlot(timers, now, () => {
    if (stopped) return;
    try {
      store.checkpoint();
    } catch (e) {
      log.warn('checkpoint failed', { error: e });
    }
  });
  const wrote = (): void => checkpointTimer.arm(CHECKPOINT_DELAY_MS);
  const views = storeViews({ store, now, log });
  // Damage found while the file is in use is said at once, and the host opens the engine again.
  const fileDamage = watchDamage({
    file: store.file,
    log,
    stopped: () => stopped,
    found: (reason) => {
      publisher.status();
      options.onDamaged?.(reason);
    },
  });
  const damaged = (e: unknown): boolean => fileDamage.damaged(e);
  const publisher = createPublisher({ hub, log, stopped: () => stopped, wrote, views, damaged, current: () => currentStatus() });
  const guard = guarded({ stopped: () => stopped, damaged, log });

  const staff = createStaff({
    store,
    now,
    ...(options.isManagerPin ? { isManagerPin: options.isManagerPin } : {}),
    ...(options.staffPinCost ? { cost: options.staffPinCost } : {}),
    ...(options.staffSharing ? { sharing: options.staffSharing } : {}),
    onChange: (packer) => hub.emit('staff.changed', { packer, named: staff.named() }),
  });
  const packing = createPacking({ store, now, packer: () => staff.packerName(), ...(options.taughtSharing ? { sharing: options.taughtSharing } : {}) });
  const outbox: Outbox = createOutbox({
    store,
    terminalId: options.terminalId,
    now,
    random,
    newRequestId: randomUUID,
    undoWindowMs: () => undoWindowMs,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    serviceNow: () => now() - (options.clockSkewMs?.() ?? 0),
    packer: () => staff.packerName(),
  });
  const sync: Sync = createSync(
    {
      outbox,
      sender: options.sender,
      ...(options.statusCheck ? { statusCheck: options.statusCheck } : {}),
      now,
      random,
      timers,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      concurrency: () => concurrency,
      online: options.online,
      log: log.child('sync'),
      pollMs: options.pollMs,
      stopGraceMs: options.stopGraceMs,
    },
    {
      claimed: (entries) => publisher.changed(entries, false),
      settled: (s) => publisher.changed([s.entry, ...(s.others ?? [])], s.orderChanged),
      changed: () => publisher.status(),
      batch: (fn) => publisher.batch(fn),
    },
  );

  // Re-evaluates the status when the oldest waiting tap crosses the backlog threshold.
  const backlogTimer = new TimerSlot(timers, now, () => publisher.status());
  const upkeep = createUpkeep({
    store, now, timers, log, wrote, damaged,
    terminalId: options.terminalId,
    finishedKeepMs: options.finishedKeepMs,
    counterName: () => counterName,
    lastActivity: () => lastTap ?? startedAt,
    stopped: () => stopped,
    removed: (orderIds) => hub.emit('orders.removed', { orderIds: [...orderIds] }),
  });
  const senderLock = createSenderLock({
    outbox, store, now, timers, log,
    pollMs: options.pollMs,
    stopped: () => stopped,
    recovered: (entries) => publisher.changed(entries, false),
    changed: () => publisher.status(),
    sending: () => {
      sync.start();
      publisher.status();
      upkeep.start(options.retireFirstMs);
    },
  });

  /** The status (status.ts) from what the parts say now; on a damaged file whose counts cannot be read, what can still be said. */
  function currentStatus(): SyncStatus {
    try {
      const counts = store.outbox.counts();
      const t = now();
      const due = backlogDueIn(counts, t, backlogThresholdMs);
      if (due !== null && due > 0 && !stopped) backlogTimer.arm(due);
      return syncStatus({
        counts,
        now: t,
        backlogThresholdMs,
        connectivity: sync.connectivity(),
        lastSuccessAt: sync.lastSuccessAt(),
        credentialsKnown: options.credentialsState?.(),
        credentialsSync: sync.credentials(),
        tokenProblem: options.tokenProblem?.() ?? null,
        serviceCertificate: options.serviceCertificate?.() ?? null,
        clockSkewMs: options.clockSkewMs?.() ?? null,
        clockDisagreementMs: options.clockDisagreementMs?.() ?? null,
        damage: fileDamage.reason(),
        storeNotice,
        storeSalvage,
        startStorage: senderLock.storage(),
        syncProblem: sync.problem(),
        syncStorage: sync.storage() !== null,
        lockNotice: senderLock.notice(),
      });
    } catch (e) {
      if (!damaged(e)) throw e;
      return damagedStatus({ connectivity: sync.connectivity(), lastSuccessAt: sync.lastSuccessAt(), damage: fileDamage.reason() });
    }
  }

  const start = (): void => {
    if (started || stopped) return;
    started = true;
    startedAt = now();
    senderLock.takeAndSend();
    // Right after the start, not inside it: starting the worker thread is itself a few ms of this thread.
    if (openingCheck === 'later') timers.setTimeout(() => fileDamage.checkPages(), 0);
  };

  return {
    start,

    async stop() {
      if (stopped) return;
      senderLock.stopRetry();
      fileDamage.cancel();
      await sync.stop();
      stopped = true;
      backlogTimer.clear();
      checkpointTimer.clear();
      upkeep.stop();
      hub.clear();
      senderLock.release();
      store.close();
    },

    ...engineReads({ store, views, terminalId: options.terminalId, stopped: () => stopped, counterName: () => counterName }),
    ...engineWrites({
      store, outbox, views, packing, hub, now, guard, wrote,
      terminalId: options.terminalId,
      counterName: () => counterName,
      publish: (entries, alwaysOrders) => publisher.changed(entries, alwaysOrders),
      publishStatus: () => publisher.status(),
      wake: () => sync.wake(),
      tapped: () => {
        lastTap = now();
      },
    }),

    setCounterName(name) {
      counterName = name;
    },
    shared: sharedRecords({ store, staff, packing, now, log }),
    conflicts: createEngineConflicts({ store, packing, now, order: (id) => views.viewOf(id)?.order ?? null }),
    status: () => currentStatus(),

    async drain(drainOptions) {
      if (stopped) return { sent: 0, failed: 0, remaining: 0 };
      start();
      // An explicit drain tries for the lock at once rather than at the next retry.
      if (!senderLock.held()) senderLock.tryNow();
      if (!senderLock.held()) return { sent: 0, failed: 0, remaining: store.outbox.counts().waiting };
      return sync.drain({ untilEmpty: drainOptions.untilEmpty, timeoutMs: Math.max(0, drainOptions.timeoutMs) });
    },

    storage: () => senderLock.storage() ?? sync.storage(),
    credentialsChanged: () => sync.credentialsChanged(),
    clockSkewChanged: () => publisher.status(),
    tapsChangedElsewhere: () => publisher.status(),

    setOptions(patch) {
      if (patch.undoWindowMs !== undefined) undoWindowMs = clamp(patch.undoWindowMs, 0, 60_000);
      if (patch.concurrency !== undefined) concurrency = clamp(patch.concurrency, 1, 16);
      sync.wake();
    },

    lastTapAt: () => lastTap,
    held: () => ({ bodies: store.orders.bodiesKept(), actions: parsedActionsKept(), tapProjections: outbox.projectionsKept(), viewProjections: views.projectionsKept() }),
    sendingCount: () => sync.inFlight(),
    health: () => fileHealth(store, { dataDir: options.dataDir, notice: storeNotice, stopped }),
    on: (event, listener) => hub.on(event, listener),
    staff,
  };
}
