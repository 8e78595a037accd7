/**
 * A PIN sign-in costs a small, fixed number of key derivations however many staff entries the store
 * hub holds (issue 38): 150 entries written into the hub, each with a salt of its own, made one
 * sign-in (or one wrong PIN) derive 150 times. Real SQLite files, real scrypt (counted).
 */
import type * as Crypto from 'node:crypto';
import { randomBytes, scryptSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../../../src/main/core/db';
import { createStaff, MAX_PIN_DERIVATIONS, type SharedMember, type Staff, storeSaltOf } from '../../../../src/main/core/staff';
import { Cleanup, tempDir } from '../../../support/engine';

const derivations = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  // Counts what core/staff derives; the derivation itself is node's.
  const scrypt = (...args: Parameters<typeof real.scrypt>) => {
    derivations.count += 1;
    return (real.scrypt as (...a: unknown[]) => void)(...args);
  };
  return { ...real, default: { ...real, scrypt }, scrypt };
});

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const cheap = { N: 1 << 10, r: 8, p: 1 };
const FINGERPRINT = 'ab'.repeat(16);

/** One counter's file and staff list; `storeSalt` as a counter in a store hub would have it. */
function counter(clock: { t: number }, storeSalt: string | null): { store: Store; staff: Staff; sent: SharedMember[] } {
  const opened = openStore({ dataDir: tempDir(cleanup), now: () => clock.t });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  cleanup.add(() => store.close());
  const sent: SharedMember[] = [];
  const staff = createStaff({ store, now: () => clock.t, cost: cheap, sharing: { changed: (m) => sent.push(m), storeSalt: () => storeSalt } });
  return { store, staff, sent };
}

/** An entry as anyone who can write the hub's staff bucket might put it there: a PIN made with a salt of its own. */
function foreignEntry(n: number, pin: string): SharedMember {
  const salt = randomBytes(16);
  return {
    uid: `foreign-${n}`,
    name: `Packer ${n}`,
    badge: `PDKS-F${String(n).padStart(7, '0')}`,
    pinHash: scryptSync(pin, salt, 32, { ...cheap, maxmem: 256 * cheap.N * cheap.r }).toString('base64'),
    pinSalt: salt.toString('base64'),
    addedAt: 1_000 + n,
    updatedAt: 1_000 + n,
    removedAt: null,
  };
}

describe('PIN sign-in against a staff list full of salts', () => {
  it('150 entries each with its own salt: a sign-in and a wrong PIN each derive at most MAX_PIN_DERIVATIONS times', async () => {
    const clock = { t: 1_000 };
    const here = counter(clock, storeSaltOf(FINGERPRINT));
    for (let n = 0; n < 150; n++) expect(here.staff.merge(foreignEntry(n, String(100_000 + n)))).toBe(true);
    const ravi = await here.staff.add('Ravi', '2468');
    expect(ravi.ok).toBe(true);

    derivations.count = 0;
    expect(await here.staff.signInByPin('2468')).toMatchObject({ ok: true, value: { name: 'Ravi' } });
    expect(derivations.count).toBeLessThanOrEqual(MAX_PIN_DERIVATIONS);
    derivations.count = 0;
    expect(await here.staff.signInByPin('9999')).toMatchObject({ ok: false, problem: { code: 'STAFF_PIN_WRONG' } });
    expect(derivations.count).toBeLessThanOrEqual(MAX_PIN_DERIVATIONS);
    // A PIN given to another packer is checked against the list at the same cost.
    derivations.count = 0;
    expect(await here.staff.add('Meera', '2468')).toMatchObject({ ok: false, problem: { code: 'STAFF_PIN_TAKEN' } });
    expect(derivations.count).toBeLessThanOrEqual(MAX_PIN_DERIVATIONS + 1);
  });

  it("a PIN set before the hub, with the other counter's own salt, still signs in here; it is then made with the store's salt, one derivation on every counter", async () => {
    const clock = { t: 1_000 };
    const one = counter(clock, null);
    const asha = await one.staff.add('Asha', '1357');
    expect(asha.ok).toBe(true);
    // Both counters join one hub: one salt for the store now.
    const salt = storeSaltOf(FINGERPRINT);
    const two = counter(clock, salt);
    for (const m of one.sent.splice(0)) two.staff.merge(m);

    clock.t = 2_000;
    expect(await two.staff.signInByPin('1357')).toMatchObject({ ok: true, value: { name: 'Asha' } });
    const moved = two.sent.at(-1)!;
    expect(moved).toMatchObject({ name: 'Asha', pinSalt: salt });

    const oneInHub = counter(clock, salt);
    oneInHub.staff.merge(moved);
    derivations.count = 0;
    expect(await oneInHub.staff.signInByPin('1357')).toMatchObject({ ok: true, value: { name: 'Asha' } });
    expect(derivations.count).toBe(1);
    derivations.count = 0;
    expect(await two.staff.signInByPin('1357')).toMatchObject({ ok: true, value: { name: 'Asha' } });
    expect(derivations.count).toBe(1);
  });
});
