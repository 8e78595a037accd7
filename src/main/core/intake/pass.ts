/**
 * One intake pass (decisions.md, "Intake and reconciliation"): read every page of `changes` for the
 * window from the cursor minus the overlap to now, fetch each id with `status` (a few at a time,
 * after the outbox), store each body unless a newer one is held, and only then move the cursor. A
 * pass that stops early leaves the cursor where it was, so the next one reads the window again.
 */
import { buildChangesRequest } from '../../../shared/protocol/intake';
import type { ChangesOutcome, ReadFailure, StatusOutcome } from '../api/read-outcome';
import type { Order } from '../../../shared/protocol/schemas';
import type { ServiceNow } from '../time/service-clock';
import type { IntakeReader, IntakeStore } from './ports';
import { intakeWindow } from './window';

const BATCH_SIZE = 200;
const BATCH_WAIT_MS = 500;

export interface PassOptions {
  readonly reader: IntakeReader;
  readonly store: IntakeStore;
  readonly serviceProviderId: string;
  readonly now: () => number;
  /** The order service's clock, which windows are read on (IntakeOptions.serviceNow). */
  readonly serviceNow: () => Promise<ServiceNow>;
  readonly newRequestId: () => string;
  readonly overlapMs: number;
  /** How far back the very first pass looks. */
  readonly initialLookbackMs: number;
  readonly pageSize: number;
  readonly concurrency: number;
  /** Resolves when the outbox leaves the network free (the outbox always goes first). */
  readonly yieldToOutbox: () => Promise<void>;
  /** Each id as it is stored, so the screen can show it at once. */
  readonly onStored: (orderId: string) => void;
  /** Every read that got an HTTP answer (true) or none (false). */
  readonly onReachable: (reachable: boolean) => void;
  readonly signal?: AbortSignal;
}

export interface PassCounts {
  readonly new: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
}

export type PassResult =
  | { readonly kind: 'completed'; readonly counts: PassCounts; readonly window: { from: number; to: number } }
  /** The pass stopped; the cursor did not move. */
  | { readonly kind: 'stopped'; readonly counts: PassCounts; readonly call: 'changes' | 'status'; readonly failure: ReadFailure };

/** Runs one pass from the stored cursor; never throws for anything the service does. */
export async function runPass(o: PassOptions): Promise<PassResult> {
  const counts = { new: 0, updated: 0, unchanged: 0, failed: 0 };
  const { from, to } = intakeWindow({
    serviceNow: await o.serviceNow(),
    own: o.now(),
    cursor: o.store.state().cursorTo,
    overlapMs: o.overlapMs,
    initialLookbackMs: o.initialLookbackMs,
  });

  // Ids are collected over every page first: a page cursor is only good for its own window.
  const ids = new Set<string>();
  let nextPage: string | null = null;
  do {
    await o.yieldToOutbox();
    const outcome: ChangesOutcome = await o.reader.changes(
      buildChangesRequest({ requestId: o.newRequestId(), serviceProviderId: o.serviceProviderId, fromTimestamp: from, toTimestamp: to, size: o.pageSize, nextPage }),
      o.signal,
    );
    o.onReachable(!(outcome.kind === 'transient' && outcome.network));
    if (outcome.kind === 'accepted') break; // an empty 2xx: nothing on this page, nothing after it
    if (outcome.kind === 'notFound') return { kind: 'stopped', counts, call: 'changes', failure: { kind: 'noAccess', status: 404, message: outcome.message } };
    if (outcome.kind !== 'ok') return { kind: 'stopped', counts, call: 'changes', failure: outcome };
    for (const id of outcome.value.orderIds) ids.add(id);
    nextPage = outcome.value.nextPage;
  } while (nextPage !== null);

  // Bodies are written in small batches: a durable write per order would make a catch-up after an
  // outage cost one fsync per order; a short wait keeps a lone new order on screen at once.
  const batch: Order[] = [];
  let lastFlush = o.now();
  const flush = (): void => {
    if (batch.length === 0) return;
    const orders = batch.splice(0);
    lastFlush = o.now();
    const results = o.store.saveAllIfNewer(orders, lastFlush);
    results.forEach((saved, i) => {
      counts[saved]++;
      if (saved !== 'unchanged') o.onStored(orders[i]!.id);
    });
  };

  const queue = [...ids];
  // A holder, not a local: the workers set it while the pass awaits them.
  const halt: { failure: ReadFailure | null } = { failure: null };
  const worker = async (): Promise<void> => {
    while (halt.failure === null && queue.length > 0) {
      await o.yieldToOutbox();
      const id = queue.shift();
      if (id === undefined) return;
      const outcome: StatusOutcome = await o.reader.status(id, o.signal);
      o.onReachable(!(outcome.kind === 'transient' && outcome.network));
      switch (outcome.kind) {
        case 'order': {
          if (outcome.order.id !== id) {
            counts.failed++;
            break;
          }
          batch.push(outcome.order);
          if (batch.length >= BATCH_SIZE || o.now() - lastFlush >= BATCH_WAIT_MS || queue.length === 0) flush();
          break;
        }
        // Listed but gone, or answered without a body: nothing to store, and nothing a retry would change.
        case 'notFound':
        case 'accepted':
        case 'refused':
          counts.failed++;
          break;
        default:
          counts.failed++;
          halt.failure ??= outcome;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, queue.length)) }, worker));
  flush();
  if (halt.failure !== null) return { kind: 'stopped', counts, call: 'status', failure: halt.failure };
  o.store.commit(to, o.now());
  return { kind: 'completed', counts, window: { from, to } };
}
