/**
 * The staff list, taught barcodes and shift figures store-wide (issue 24 with the store hub), with
 * real parts: a real hub (nats-server with TLS), real app hosts as counters (their own SQLite),
 * the sandbox over HTTP. A packer added at one counter signs in at another by badge and by PIN; a
 * rename and a removal reach every counter; a counter that was away brings no removed packer back
 * and loses nothing it did alone; a counter that joins later keeps its own list, merged; a barcode
 * taught at one counter is known at the others; the Shift screen of either counter counts both,
 * says with the hub away that it may be missing taps, and counts them once the hub is back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatJoinCode } from '../../../../src/main/core/hub/join-code';
import type { ShiftReport } from '../../../../src/shared/ipc';
import type { Item } from '../../../../src/shared/protocol';
import { startTestHost, type TestHost } from '../../../support/host';
import { accept, killHub, mode, startStoreOnHub, type StoreCounter, type StoreOnHub, until } from './store-fixture';

const HELD_BACK = { initialMs: 600_000, maxMs: 600_000 };
const EAN = '8901234567897';

let store: StoreOnHub | null = null;
const extra: TestHost[] = [];
afterEach(async () => {
  for (const t of extra.splice(0)) await t.close();
  await store?.close();
  store = null;
});

const engineOf = (c: { t: TestHost }) => {
  const e = c.t.host.engine();
  if (!e) throw new Error('no engine');
  return e;
};
const names = (c: { t: TestHost }): string[] => engineOf(c).staff.list().map((m) => m.name);
const fresh = (s: StoreOnHub): string[] => s.sandbox.orders().filter((o) => o.orderState === 'Created').map((o) => o.id);

describe('store-wide staff, barcodes and shift through a real hub', () => {
  it('a packer made at Counter 1 signs in at Counter 2; renames and removals reach every counter; a counter away brings no one back and loses nothing', async () => {
    store = await startStoreOnHub({ counters: 2, hubBackoff: HELD_BACK });
    const s = store;
    const [one, two] = s.counters as [StoreCounter, StoreCounter];

    const ravi = await engineOf(one).staff.add('Ravi', '2468');
    if (!ravi.ok) throw new Error(ravi.problem.message);
    await until('Ravi on Counter 2', () => names(two).includes('Ravi'));
    // The badge printed at Counter 1, and the PIN set there, sign Ravi in at Counter 2.
    expect(engineOf(two).staff.signInByBadge(ravi.value.badge)).toMatchObject({ ok: true, value: { name: 'Ravi' } });
    expect(await engineOf(two).staff.signInByPin('2468')).toMatchObject({ ok: true, value: { name: 'Ravi' } });
    // Counter 2 cannot give another packer Ravi's PIN, though it was set at Counter 1.
    expect(await engineOf(two).staff.add('Meera', '2468')).toMatchObject({ ok: false, problem: { code: 'STAFF_PIN_TAKEN' } });
    // No PIN hash reaches a screen: the list the renderer gets says only whether there is one.
    expect(Object.keys(engineOf(two).staff.list()[0] ?? {}).sort()).toEqual(['badge', 'hasPin', 'id', 'name']);

    // Renamed at Counter 2: Counter 1 has the new name; the packer signed in at Counter 2 is renamed there.
    const onTwo = engineOf(two).staff.list().find((m) => m.name === 'Ravi');
    expect((await engineOf(two).staff.update(onTwo?.id ?? -1, { name: 'Ravi Kumar' })).ok).toBe(true);
    await until('the rename on Counter 1', () => names(one).includes('Ravi Kumar') && !names(one).includes('Ravi'));
    expect(engineOf(two).staff.current()?.name).toBe('Ravi Kumar');

    // The hub goes away. Meanwhile Counter 1 removes Ravi; Counter 2 (which still has him) adds Asha.
    killHub(s.hub);
    await until('both counters on their own', () => [one, two].every((c) => mode(c) !== 'connected'), 15_000);
    const r1 = engineOf(one).staff.list().find((m) => m.name === 'Ravi Kumar');
    expect(engineOf(one).staff.remove(r1?.id ?? -1).ok).toBe(true);
    expect((await engineOf(two).staff.add('Asha')).ok).toBe(true);
    expect(names(two)).toEqual(['Asha', 'Ravi Kumar']);

    // The hub is back: Ravi stays removed everywhere (Counter 2 does not bring him back), Asha reaches Counter 1.
    await s.hub.supervisor.stop();
    expect((await s.hub.supervisor.start()).running).toBe(true);
    await until('both counters back', () => [one, two].every((c) => mode(c) === 'connected'), 20_000);
    await until('one list on both counters', () => names(one).join() === 'Asha' && names(two).join() === 'Asha', 15_000);
    // Signed in at Counter 2 when he was removed: nobody is now.
    expect(engineOf(two).staff.current()).toBeNull();
    expect(engineOf(two).staff.signInByBadge(ravi.value.badge)).toMatchObject({ ok: false, problem: { code: 'BADGE_UNKNOWN' } });

    // A third counter that kept its own list before joining: its packers are merged, not lost, and
    // the two called Asha both stay (one called "Asha (2)", alike on every counter).
    const three = await startTestHost({
      startTraining: async () => Object.create(s.sandbox, { close: { value: async (): Promise<void> => undefined } }) as typeof s.sandbox,
      settingsOverride: { environment: 'training', undoWindowMs: 0, intakeIntervalMs: 1_000 },
      hubTuning: { awayAfterMs: 5_000 },
    });
    extra.push(three);
    const own = engineOf({ t: three });
    expect((await own.staff.add('Asha')).ok).toBe(true);
    const deepa = await own.staff.add('Deepa', '1357');
    if (!deepa.ok) throw new Error(deepa.problem.message);
    const code = formatJoinCode({ host: '127.0.0.1', port: s.hub.port, secret: s.hub.secret, fingerprint: s.hub.fingerprint });
    const joined = await three.host.hub.join(code, 'Counter 3');
    if (!joined.ok) throw new Error(joined.problem.message);
    const all = ['Asha', 'Asha (2)', 'Deepa'].join();
    for (const c of [one, two, { t: three }]) await until('the merged list on every counter', () => names(c).join() === all, 20_000);
    // Deepa's PIN, set at Counter 3 with its own salt, signs her in at Counter 1.
    expect(await engineOf(one).staff.signInByPin('1357')).toMatchObject({ ok: true, value: { name: 'Deepa' } });
    expect(engineOf(two).staff.signInByBadge(deepa.value.badge)).toMatchObject({ ok: true, value: { name: 'Deepa' } });
  }, 120_000);

  it('a barcode taught at Counter 1 is known at Counter 2, and the Shift screen of either counter shows both counters', async () => {
    store = await startStoreOnHub({ counters: 2, hubBackoff: HELD_BACK });
    const s = store;
    const [one, two] = s.counters as [StoreCounter, StoreCounter];
    const [a, b, c, d] = fresh(s) as [string, string, string, string];

    // Taught once at Counter 1, on order a.
    await accept(one, a);
    const order = engineOf(one).getOrder(a)?.order;
    const item = order?.items[0] as Item;
    expect(engineOf(one).packScan(a, EAN)).toMatchObject({ ok: true, value: { outcome: 'unknown' } });
    expect(engineOf(one).packTeach(a, EAN, item.itemId)).toMatchObject({ ok: true, value: { outcome: 'ticked' } });
    // Counter 2 knows it: scanning it on the same order there ticks that item, not "Which item is this?".
    await until('the barcode on Counter 2', () => engineOf(two).shared.taught().some((t) => t.code === EAN));
    expect(engineOf(two).packScan(a, EAN)).toMatchObject({ ok: true, value: { outcome: 'ticked', itemId: item.itemId } });

    // Taps on both counters: Counter 1 accepted a and accepts b; Counter 2 accepts c.
    await accept(one, b);
    await accept(two, c);
    const wanted = (r: ShiftReport): boolean => {
      const by = new Map(r.byCounter.map((x) => [x.counter, x.figures.accepted]));
      return r.total.accepted === 3 && by.get('Counter 1') === 2 && by.get('Counter 2') === 1;
    };
    for (const x of [one, two]) await until(`${x.name}'s Shift screen shows both counters`, async () => wanted(await x.t.call('shift.report', {})), 10_000);
    const report = await two.t.call('shift.report', {});
    expect(report.hub).toEqual({ missingSince: null, packedTwice: 0 });
    expect(report.byCounter.map((r) => r.counter)).toEqual(['Counter 1', 'Counter 2']);

    // The hub away: the screen still shows what this counter holds, and says since when it may be missing taps.
    killHub(s.hub);
    await until('Counter 2 on its own', () => mode(two) !== 'connected', 15_000);
    const away = await two.t.call('shift.report', {});
    expect(wanted(away)).toBe(true);
    expect(away.hub?.missingSince).toEqual(expect.any(Number));

    // Counter 1 accepts one more meanwhile; when the hub is back, Counter 2 counts it too.
    await until('Counter 1 on its own', () => mode(one) !== 'connected', 15_000);
    await accept(one, d);
    await s.hub.supervisor.stop();
    expect((await s.hub.supervisor.start()).running).toBe(true);
    await until('both counters back', () => [one, two].every((x) => mode(x) === 'connected'), 20_000);
    await until("Counter 2 counts Counter 1's Accept made while the hub was away", async () => {
      const r = await two.t.call('shift.report', {});
      return r.hub?.missingSince === null && r.byCounter.find((x) => x.counter === 'Counter 1')?.figures.accepted === 3;
    }, 15_000);
  }, 120_000);
});
