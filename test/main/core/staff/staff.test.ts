/**
 * The store's packers (issue 24): the staff list on a real SQLite file, personal PINs stored hashed
 * and checked, badges, and every tap and audited move stamped with the packer signed in. Real
 * engine against the sandbox over HTTP on 127.0.0.1.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFilePath } from '../../../../src/main/core/db';
import { isBadgeCode } from '../../../../src/shared/staff';
import { Cleanup, newOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const cheap = { N: 1 << 10, r: 8, p: 1 };
const accept = { kind: 'orderState', state: 'ACCEPTED' } as const;

describe('the staff list', () => {
  it('keeps names, badges and hashed PINs; a PIN or a badge signs a packer in, one scan switches', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const { engine } = serviceEngine(cleanup, box, dir, { staffPinCost: cheap, isManagerPin: async (pin) => pin === '9999' });
    const { staff } = engine;
    expect(staff.named()).toBe(false);
    // Screens hear when the list gains its first name (they then ask for a badge).
    const heard: { packer: unknown; named: boolean }[] = [];
    engine.on('staff.changed', (body) => heard.push(body));

    const ravi = await staff.add('  Ravi   Kumar ', '2468');
    const meera = await staff.add('Meera');
    if (!ravi.ok || !meera.ok) throw new Error('add failed');
    expect(ravi.value).toMatchObject({ name: 'Ravi Kumar', hasPin: true });
    expect(meera.value.hasPin).toBe(false);
    expect(isBadgeCode(ravi.value.badge)).toBe(true);
    expect(ravi.value.badge).not.toBe(meera.value.badge);
    expect(staff.named()).toBe(true);
    expect(heard[0]).toEqual({ packer: null, named: true });

    // The manager PIN, another packer's PIN, a name taken in another case: refused.
    expect(await staff.update(meera.value.id, { pin: '9999' })).toMatchObject({ ok: false, problem: { code: 'STAFF_PIN_IS_MANAGER' } });
    expect(await staff.update(meera.value.id, { pin: '2468' })).toMatchObject({ ok: false, problem: { code: 'STAFF_PIN_TAKEN' } });
    expect(await staff.add('ravi kumar')).toMatchObject({ ok: false, problem: { code: 'STAFF_NAME_TAKEN' } });
    expect(await staff.isPackerPin('2468')).toBe(true);
    expect(await staff.isPackerPin('1357')).toBe(false);

    // The PIN itself is nowhere in the data file.
    const raw = new Database(dataFilePath(dir), { readonly: true });
    const rows = raw.prepare('SELECT name, pin_hash FROM staff').all() as { name: string; pin_hash: string | null }[];
    raw.close();
    expect(rows.find((r) => r.name === 'Ravi Kumar')?.pin_hash).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
    for (const f of fs.readdirSync(dir).filter((f) => f.startsWith('packdesk.sqlite')))
      expect(fs.readFileSync(`${dir}/${f}`).includes(Buffer.from('2468'))).toBe(false);

    expect(await staff.signInByPin('2468')).toMatchObject({ ok: true, value: { name: 'Ravi Kumar' } });
    expect(staff.signInByBadge(meera.value.badge.toLowerCase())).toMatchObject({ ok: true, value: { name: 'Meera' } });
    expect(staff.current()?.name).toBe('Meera');
    expect(staff.signInByBadge('PDKS-00000000')).toMatchObject({ ok: false, problem: { code: 'BADGE_UNKNOWN' } });
    expect(staff.current()?.name).toBe('Meera');

    // A new badge: the old one stops working.
    const reissued = await staff.update(meera.value.id, { newBadge: true });
    if (!reissued.ok) throw new Error('reissue failed');
    expect(staff.signInByBadge(meera.value.badge)).toMatchObject({ ok: false, problem: { code: 'BADGE_UNKNOWN' } });
    expect(staff.signInByBadge(reissued.value.badge).ok).toBe(true);

    // Removing the packer signed in signs them out.
    expect(staff.remove(meera.value.id).ok).toBe(true);
    expect(staff.current()).toBeNull();
    expect(staff.list().map((m) => m.name)).toEqual(['Ravi Kumar']);
  }, 30_000);

  it('pauses PIN sign-in after five wrong PINs, while a badge still works', async () => {
    const box = await sandbox(cleanup);
    let t = 1_000_000;
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { staffPinCost: cheap, now: () => t });
    const ravi = await engine.staff.add('Ravi', '2468');
    if (!ravi.ok) throw new Error('add failed');
    for (let i = 0; i < 5; i++) expect(await engine.staff.signInByPin('1111')).toMatchObject({ ok: false, problem: { code: 'STAFF_PIN_WRONG' } });
    expect(await engine.staff.signInByPin('2468')).toMatchObject({ ok: false, problem: { code: 'STAFF_PIN_PAUSED' } });
    expect(engine.staff.signInByBadge(ravi.value.badge).ok).toBe(true);
    t += 31_000;
    expect((await engine.staff.signInByPin('2468')).ok).toBe(true);
  }, 30_000);
});

describe('who made each tap', () => {
  it('stamps taps, undo and refusals with the packer signed in, null when nobody is; the CLI-facing views carry it', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const { engine } = serviceEngine(cleanup, box, dir, { staffPinCost: cheap, undoWindowMs: 60_000 });
    const [first, second] = newOrderIds(box);
    if (!first || !second) throw new Error('too few orders');
    const ravi = await engine.staff.add('Ravi');
    if (!ravi.ok) throw new Error('add failed');

    const nobody = engine.submitTap(first, accept);
    expect(nobody.ok && nobody.value.packer).toBeNull();
    engine.staff.signInByBadge(ravi.value.badge);
    const byRavi = engine.submitTap(second, accept);
    if (!byRavi.ok) throw new Error(byRavi.problem.message);
    expect(byRavi.value.packer).toBe('Ravi');
    expect(engine.undo(byRavi.value.id).ok).toBe(true);
    // A tap the terminal refuses (Accept twice) is audited with who tried.
    engine.submitTap(first, accept);

    expect(engine.listOutbox({ includeDone: true }).map((e) => [e.orderId, e.packer])).toEqual([
      [first, null],
      [second, 'Ravi'],
    ]);
    await engine.stop();
    const raw = new Database(dataFilePath(dir), { readonly: true });
    const audit = raw.prepare('SELECT kind, outcome, packer FROM audit ORDER BY id').all();
    raw.close();
    expect(audit).toEqual(
      expect.arrayContaining([
        { kind: 'undo', outcome: 'undone', packer: 'Ravi' },
        { kind: 'tap', outcome: 'refused', packer: 'Ravi' },
      ]),
    );
  }, 30_000);
});
