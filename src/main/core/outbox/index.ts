/** The outbox: a persisted queue of taps that owns its entries' lifecycle, claims, settles, recovers and holds the sender lease. */
export { createOutbox, type Answered, type Committed, type Outbox, type OutboxContext, type Settlement, type TapHubContext } from './outbox';
export { attemptEntry, type AttemptDeps, type AttemptOutcome, type CheckNote } from './attempt';
export { ENTRY_TRANSITIONS, allows, move, type TransitionName } from './lifecycle';
export { takeSenderLease, processAlive, type IsAlive, type LeaseOptions, type LeaseResult } from './lease';
export type { StatusCheck, StatusCheckResult } from './status-check';
export { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
export { checkTap, isPending, project, sameAction, type ProjectFn } from './validate';
export { Projector, slimOrder } from './projection';
export { entryView, orderView, storeViews, type StoreViews } from './views';
export { createSenderLock, type SenderLock, type SenderLockOptions } from './sender-lock';
export { createUpkeep, type Upkeep, type UpkeepOptions } from './upkeep';
export { summarize } from './summary';
export {
  FINISHED_KEEP_MS,
  HISTORY_KEEP_MS,
  mergeFinder,
  pruneHistory,
  type Pruned,
  reclaimSpace,
  type Reclaimed,
  retireFinished,
  type RetireCursor,
  type Retired,
  type RetireOptions,
} from './retire';
