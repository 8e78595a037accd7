/** The outbox: taps as durable entries, local validation, and settling the service's answers. */
export { createOutbox, type Outbox, type OutboxContext, type Settlement } from './outbox';
export { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
export { checkTap, isPending, project, sameAction, type ProjectFn } from './validate';
export { Projector, slimOrder } from './projection';
export { entryView, orderView } from './views';
export { summarize } from './summary';
