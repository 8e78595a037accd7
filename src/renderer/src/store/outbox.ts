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

/** The map with `entries` merged in. */
export function mergeEntries(
  byId: ReadonlyMap<number, OutboxEntryView>,
  entries: readonly OutboxEntryView[],
): ReadonlyMap<number, OutboxEntryView> {
  if (entries.length === 0) return byId;
  const next = new Map(byId);
  for (const e of entries) next.set(e.id, e);
  return next;
}

interface OutboxStore {
  byId: ReadonlyMap<number, OutboxEntryView>;
  replace(entries: readonly OutboxEntryView[]): void;
  merge(entries: readonly OutboxEntryView[]): void;
}

export const useOutbox = create<OutboxStore>()((set) => ({
  byId: new Map(),
  replace: (entries) => set({ byId: mergeEntries(new Map(), entries) }),
  merge: (entries) => set((s) => ({ byId: mergeEntries(s.byId, entries) })),
}));
