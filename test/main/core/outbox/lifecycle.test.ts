/**
 * The entry lifecycle: every transition of the table works from its from-states, every other
 * (transition, state) pair is refused and leaves the row exactly as it was, and a caller whose
 * picture of the entry is stale is refused by the guarded UPDATE (real SQLite file).
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFilePath, type Store } from '../../../../src/main/core/db';
import { allows, ENTRY_TRANSITIONS, move, type TransitionName } from '../../../../src/main/core/outbox';
import type { EntryState } from '../../../../src/shared/ipc';
import { Cleanup, openedStore, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const STATES: readonly EntryState[] = ['queued', 'sending', 'sent', 'failed', 'discarded'];
const NAMES = Object.keys(ENTRY_TRANSITIONS) as TransitionName[];
// Every column a transition may write, so a refused one would show in the row if it wrote anything.
const PATCH = {
  addAttempt: true,
  nextAttemptAt: 123,
  lastError: { kind: 'transient', code: 'X', message: 'x' },
  mayBeApplied: true,
  noAnswerBefore: true,
  sentNow: true,
  awaitingRefresh: true,
  dueNow: true,
} as const;

function setup(): { store: Store; raw: Database.Database; entryIn(state: EntryState): number; row(id: number): unknown } {
  const dir = tempDir(cleanup);
  const store = openedStore(cleanup, dir, () => 1000);
  // A second connection forces a row into any state, as no code path may.
  const raw = new Database(dataFilePath(dir));
  cleanup.add(() => raw.close());
  let n = 0;
  return {
    store,
    raw,
    entryIn(state) {
      const id = store.transaction(() => {
        store.orders.ensure('ORD-L', 1000);
        return store.outbox.insert({
          randomId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
          orderId: 'ORD-L',
          action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
          createdAt: 1000,
          sendAfter: 5000,
          terminalId: 'T',
        }).id;
      });
      raw.prepare(`UPDATE outbox SET state = ? WHERE id = ?`).run(state, id);
      return id;
    },
    row: (id) => raw.prepare(`SELECT * FROM outbox WHERE id = ?`).get(id),
  };
}

describe('entry lifecycle', () => {
  it('moves along every transition of the table from each of its from-states, and nowhere else', () => {
    const { store, entryIn, row } = setup();
    let allowed = 0;
    let refused = 0;
    for (const name of NAMES) {
      for (const state of STATES) {
        const id = entryIn(state);
        const before = row(id);
        const r = store.transaction(() => move(store.outbox, { id, state }, name, 2000, PATCH));
        if (allows(name, state)) {
          allowed++;
          expect(r.ok, `${name} from ${state}`).toBe(true);
          expect((row(id) as { state: string }).state).toBe(ENTRY_TRANSITIONS[name].to);
        } else {
          refused++;
          expect(r, `${name} from ${state}`).toMatchObject({ ok: false, problem: { code: 'NOT_ALLOWED' } });
          expect(row(id), `${name} from ${state} left the row as it was`).toEqual(before);
        }
      }
    }
    expect(allowed).toBeGreaterThan(0);
    expect(refused).toBe(NAMES.length * STATES.length - allowed);
  });

  it('refuses a transition whose caller read a state the row no longer has (guarded UPDATE, row count checked)', () => {
    const { store, entryIn, row, raw } = setup();
    for (const name of NAMES) {
      for (const from of ENTRY_TRANSITIONS[name].from) {
        for (const actual of STATES.filter((s) => s !== from)) {
          const id = entryIn(from);
          raw.prepare(`UPDATE outbox SET state = ? WHERE id = ?`).run(actual, id);
          const before = row(id);
          const r = move(store.outbox, { id, state: from }, name, 2000, PATCH);
          expect(r, `${name}: read ${from}, is ${actual}`).toMatchObject({ ok: false, problem: { code: 'STATE_CHANGED' } });
          expect(row(id)).toEqual(before);
        }
      }
    }
  });

  it('sent and discarded are final: no transition leaves them', () => {
    for (const name of NAMES) {
      expect(allows(name, 'sent')).toBe(false);
      expect(allows(name, 'discarded')).toBe(false);
    }
  });
});
