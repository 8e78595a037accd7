/**
 * The life of an outbox entry: one table of named transitions (as src/shared/fulfilment/states.ts
 * is for orders) and the one function that applies them. Every state change of an entry goes
 * through `move`, which refuses a transition outside the table without touching the file, and
 * otherwise runs one guarded UPDATE (`WHERE state = <from>`) whose row count decides.
 */
import type { EntryState } from '../../../shared/ipc';
import { fail, ok, ProblemError, type Result } from '../../../shared/result';
import type { EntryRow, EntryPatch, OutboxTable } from '../db';

interface Transition {
  readonly from: readonly EntryState[];
  readonly to: EntryState;
  /** Why it exists, for the reader of this table. */
  readonly why: string;
}

/** Every way an entry may change state. Nothing else writes `outbox.state`. */
export const ENTRY_TRANSITIONS = {
  claim: { from: ['queued'], to: 'sending', why: 'due and at the head of its order: about to go out' },
  release: { from: ['sending'], to: 'queued', why: 'claimed but never sent (stop, pause, offline)' },
  recover: { from: ['sending'], to: 'queued', why: 'a process stopped while sending: no answer seen' },
  deliver: { from: ['sending'], to: 'sent', why: 'the service answered 2xx' },
  confirm: { from: ['sending', 'failed'], to: 'sent', why: "a status check shows the entry's effect on the order" },
  retryLater: { from: ['sending'], to: 'queued', why: 'transient failure, auth pause, or status check unreachable' },
  refuse: { from: ['sending'], to: 'failed', why: 'the service refused the action' },
  retry: { from: ['failed'], to: 'queued', why: 'a person asked to send a failed entry again' },
  sendNow: { from: ['queued'], to: 'queued', why: 'a person asked to send a waiting entry at the next chance' },
  dropBackoff: { from: ['queued'], to: 'queued', why: 'the reason for its backoff is gone (network back, a new process)' },
  undo: { from: ['queued'], to: 'discarded', why: 'taken back by the packer inside the undo window' },
  discard: { from: ['queued', 'failed'], to: 'discarded', why: 'given up by a person (manager PIN)' },
  doneElsewhere: {
    from: ['sending'],
    to: 'discarded',
    why: 'refused as already done, and the order shows it done although this tap never went unanswered: another counter or the marketplace made the change, not this tap',
  },
  setAside: {
    from: ['queued', 'sending', 'failed'],
    to: 'discarded',
    why: 'the service cancelled its order (from elsewhere): it would only be refused, so it is not sent, and a refused one needs no PIN',
  },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof ENTRY_TRANSITIONS;

/** The columns a transition may change besides the state (see EntryPatch). */
export type MovePatch = Omit<EntryPatch, 'to'>;

/** True when `name` may start from `state`. */
export function allows(name: TransitionName, state: EntryState): boolean {
  return (ENTRY_TRANSITIONS[name].from as readonly EntryState[]).includes(state);
}

/** Moves `entry` (as the caller last read it) along `name`; a refusal leaves the row as it was. */
export function move(table: OutboxTable, entry: Pick<EntryRow, 'id' | 'state'>, name: TransitionName, now: number, patch: MovePatch = {}): Result<EntryRow> {
  const t = ENTRY_TRANSITIONS[name];
  if (!allows(name, entry.state))
    return fail('invalid', `Tap ${entry.id} cannot ${name} from ${entry.state} (only from ${t.from.join(' or ')})`, 'NOT_ALLOWED');
  const after = table.move(entry.id, entry.state, now, { ...patch, to: t.to });
  if (!after) return fail('invalid', `Tap ${entry.id} is no longer ${entry.state}; look again`, 'STATE_CHANGED');
  return ok(after);
}

/** `move` where a refusal means the caller's picture is stale: thrown, so the enclosing transaction rolls back. */
export function mustMove(table: OutboxTable, entry: Pick<EntryRow, 'id' | 'state'>, name: TransitionName, now: number, patch: MovePatch = {}): EntryRow {
  const r = move(table, entry, name, now, patch);
  if (!r.ok) throw new ProblemError(r.problem);
  return r.value;
}
