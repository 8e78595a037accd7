/**
 * Outbox entries as the engine reports them, keyed by id. The outbox screen lists them with the
 * ones that need a person first; events replace whole entries.
 */
import { create } from 'zustand';
import type { OutboxEntryView } from '../../../shared/ipc';

/** Needs a person: refused by the service, or may already have landed. */
export function needsAttention(e: OutboxEntryView): boolean {
  return e.state === 'failed' || (e.mayBeApplied && e.state !== 'discarded' && e.state !== 'sent');
}

/** Still on its way: queued (maybe in its undo window) or being sent. */
export function isWaiting(e: OutboxEntryView): boolean {
  return e.state === 'queued' || e.state === 'sending';
}

/** Screen order: attention first, then waiting oldest first, then finished newest first. */
export function outboxOrder(entries: Iterable<OutboxEntryView>): OutboxEntryView[] {
  const rank = (e: OutboxEntryView): number => (needsAttention(e) ? 0 : isWaiting(e) ? 1 : 2);
  return [...entries].sort((a, b) => {
    const r = rank(a) - rank(b);
    if (r !== 0) return r;
    return rank(a) === 2 ? b.id - a.id : a.id - b.id;
  });
}

/** Finished entries kept for the "recently finished" list; older ones are dropped from memory. */
export const FINISHED_KEPT = 200;

/** The map with `entries` merged in; only the latest FINISHED_KEPT sent or discarded entries stay. */
export function mergeEntries(
  byId: ReadonlyMap<number, OutboxEntryView>,
  entries: readonly OutboxEntryView[],
): ReadonlyMap<number, OutboxEntryView> {
  if (entries.length === 0) return byId;
  const next = new Map(byId);
  for (const e of entries) next.set(e.id, e);
  const finished = [...next.values()].filter((e) => !needsAttention(e) && !isWaiting(e));
  if (finished.length > FINISHED_KEPT) {
    finished.sort((a, b) => a.id - b.id);
    for (const e of finished.slice(0, finished.length - FINISHED_KEPT)) next.delete(e.id);
  }
  return next;
}

interface OutboxStore {
  byId: ReadonlyMap<number, OutboxEntryView>;
  /** The engine's list of entries still to send or look at: those replace what is known of them. */
  replacePending(entries: readonly OutboxEntryView[]): void;
  /** Forgets everything known (another engine now answers) and takes `entries`. */
  replaceAll(entries: readonly OutboxEntryView[]): void;
  merge(entries: readonly OutboxEntryView[]): void;
}

/**
 * The known entries after a fresh `outbox.list` (pending ones only): an entry the store still
 * holds as pending but the list no longer has has finished meanwhile, and without its final
 * state it is dropped; finished entries the store holds stay for the history.
 */
export function withPending(
  byId: ReadonlyMap<number, OutboxEntryView>,
  pending: readonly OutboxEntryView[],
): ReadonlyMap<number, OutboxEntryView> {
  const listed = new Set(pending.map((e) => e.id));
  const kept = [...byId.values()].filter((e) => listed.has(e.id) || (!needsAttention(e) && !isWaiting(e)));
  return mergeEntries(new Map(kept.map((e) => [e.id, e])), pending);
}

export const useOutbox = create<OutboxStore>()((set) => ({
  byId: new Map(),
  replacePending: (entries) => set((s) => ({ byId: withPending(s.byId, entries) })),
  replaceAll: (entries) => set({ byId: mergeEntries(new Map(), entries) }),
  merge: (entries) => set((s) => ({ byId: mergeEntries(s.byId, entries) })),
}));
