/**
 * The staff list's store-wide rules (core/staff merge and sharedList) on two real SQLite files, as
 * two counters of one store hold them: what one shares the other merges. A removal wins over any
 * change and is remembered; an older word is ignored; two packers of one name both stay (one
 * "Name (2)", the same on both files); a PIN set at the other counter, with that counter's salt,
 * signs in here; a removal carries no PIN hash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../../src/main/core/db';
import { createStaff, type SharedMember, type Staff } from '../../../../src/main/core/staff';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const cheap = { N: 1 << 10, r: 8, p: 1 };

/** One counter's file and staff list; `sent` is everything it shared, in order. */
function counter(clock: { t: number }): { store: Store; staff: Staff; sent: SharedMember[] } {
  const opened = openStore({ dataDir: tempDir(cleanup), now: () => clock.t });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  cleanup.add(() => store.close());
  const sent: SharedMember[] = [];
  const staff = createStaff({ store, now: () => clock.t, cost: cheap, sharing: { changed: (m) => sent.push(m) } });
  return { store, staff, sent };
}

/** Everything `from` shared, merged into `to` (as the hub's watch does); what `to` shared meanwhile is returned. */
function deliver(from: { sent: SharedMember[] }, to: { staff: Staff; sent: SharedMember[] }): SharedMember[] {
  const before = to.sent.length;
  for (const m of from.sent.splice(0)) to.staff.merge(m);
  return to.sent.slice(before);
}

describe('the staff list across two counters', () => {
  it('merges adds, renames and removals; the removal wins and is remembered; older words are ignored', async () => {
    const clock = { t: 1_000 };
    const one = counter(clock);
    const two = counter(clock);
    const ravi = await one.staff.add('Ravi', '2468');
    if (!ravi.ok) throw new Error(ravi.problem.message);
    deliver(one, two);
    expect(two.staff.list().map((m) => m.name)).toEqual(['Ravi']);
    // Set at Counter 1 with its own salt, the PIN signs Ravi in at Counter 2; the badge too.
    expect(await two.staff.signInByPin('2468')).toMatchObject({ ok: true, value: { name: 'Ravi' } });
    expect(two.staff.signInByBadge(ravi.value.badge)).toMatchObject({ ok: true, value: { name: 'Ravi' } });
    // And Counter 2 may not give that PIN to another packer.
    expect(await two.staff.add('Meera', '2468')).toMatchObject({ ok: false, problem: { code: 'STAFF_PIN_TAKEN' } });

    clock.t = 2_000;
    const onTwo = two.staff.list()[0]!;
    expect((await two.staff.update(onTwo.id, { name: 'Ravi Kumar' })).ok).toBe(true);
    const renamed = two.sent.at(-1)!;
    clock.t = 3_000;
    expect(one.staff.remove(ravi.value.id).ok).toBe(true);
    const removal = one.sent.at(-1)!;
    expect(removal).toMatchObject({ removedAt: 3_000, pinHash: null, pinSalt: null });
    // The rename (older) reaches Counter 1 after its removal: Ravi is not brought back.
    expect(one.staff.merge(renamed)).toBe(false);
    expect(one.staff.list()).toEqual([]);
    // The removal reaches Counter 2, where Ravi is signed in: gone, nobody signed in.
    expect(two.staff.merge(removal)).toBe(true);
    expect(two.staff.list()).toEqual([]);
    expect(two.staff.current()).toBeNull();
    // Any later word on Ravi (a counter that was away) stays ignored: the removal is remembered.
    expect(two.staff.merge({ ...renamed, updatedAt: 9_000 })).toBe(false);
    expect(two.staff.sharedList()).toEqual([expect.objectContaining({ uid: removal.uid, removedAt: 3_000, pinHash: null })]);
  });

  it('keeps both packers of one name, called alike on both counters, and shares the rename', async () => {
    const clock = { t: 1_000 };
    const one = counter(clock);
    const two = counter(clock);
    expect((await one.staff.add('Asha')).ok).toBe(true);
    expect((await two.staff.add('asha')).ok).toBe(true);
    const fromOne = deliver(two, one);
    const fromTwo = deliver(one, two);
    // Whichever side renamed shares it; delivered both ways, both files end alike.
    deliver({ sent: [...fromOne] }, two);
    deliver({ sent: [...fromTwo] }, one);
    const names = (s: Staff) => s.sharedList().map((m) => `${m.uid}:${m.name}`).sort();
    expect(names(one.staff)).toEqual(names(two.staff));
    expect(one.staff.list().map((m) => m.name.toLowerCase()).sort()).toEqual(['asha', 'asha (2)']);
  });
});
