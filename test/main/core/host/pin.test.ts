import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCKOUT_BASE_MS, MAX_FREE_FAILURES, lockoutAfter, openPinStore, type PinStore } from '../../../../src/main/core/pin';

// Low scrypt cost keeps the test fast; the production cost is exercised once below.
const cost = { N: 1024, r: 8, p: 1 };

describe('manager PIN', () => {
  let dir: string;
  let clock: number;
  const now = (): number => clock;
  const open = (): PinStore => {
    const r = openPinStore({ file: join(dir, 'pin.json'), now, cost });
    if (!r.ok) throw new Error(r.problem.message);
    return r.value;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'packdesk-pin-'));
    clock = 1_700_000_000_000;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts unset, refuses checks until set, and sets without a current PIN only the first time', async () => {
    const pins = open();
    expect(pins.isSet()).toBe(false);
    const unset = await pins.check('1234');
    expect(unset.ok).toBe(false);
    expect(!unset.ok && unset.problem.code).toBe('PIN_NOT_SET');

    expect((await pins.set('1234')).ok).toBe(true);
    expect(pins.isSet()).toBe(true);
    const again = await pins.set('5678');
    expect(!again.ok && again.problem.code).toBe('PIN_REQUIRED');
    expect((await pins.check('1234')).ok).toBe(true);
  });

  it('stores a salted scrypt hash, never the PIN', async () => {
    const pins = open();
    await pins.set('482913');
    const text = readFileSync(join(dir, 'pin.json'), 'utf8');
    expect(text).not.toContain('482913');
    const file = JSON.parse(text) as Record<string, unknown>;
    expect(file.algorithm).toBe('scrypt');
    expect(typeof file.salt).toBe('string');
    expect(Buffer.from(String(file.hash), 'base64')).toHaveLength(32);
    // Same PIN, new salt: a different hash.
    const first = file.hash;
    await pins.set('482913', '482913');
    expect(JSON.parse(readFileSync(join(dir, 'pin.json'), 'utf8')).hash).not.toBe(first);
  });

  it('verifies right and wrong PINs and survives a restart', async () => {
    await open().set('2468');
    const pins = open();
    expect(await pins.verify('2468')).toEqual({ ok: true, value: true });
    expect(await pins.verify('1357')).toEqual({ ok: true, value: false });
    const wrong = await pins.check('1357');
    expect(!wrong.ok && wrong.problem).toMatchObject({ kind: 'auth', code: 'PIN_WRONG', message: expect.stringContaining('Wrong PIN') });
  });

  it('changes the PIN only with the right current PIN', async () => {
    const pins = open();
    await pins.set('1111');
    const refused = await pins.set('2222', '9999');
    expect(!refused.ok && refused.problem.code).toBe('PIN_WRONG');
    expect((await pins.check('1111')).ok).toBe(true);
    expect((await pins.set('2222', '1111')).ok).toBe(true);
    expect((await pins.check('2222')).ok).toBe(true);
    expect((await pins.check('1111')).ok).toBe(false);
  });

  it('locks PIN entry after five wrong PINs, for a delay that grows, even across a restart', async () => {
    await open().set('1234');
    let pins = open();
    for (let i = 0; i < MAX_FREE_FAILURES; i++) expect((await pins.check('0000')).ok).toBe(false);
    const locked = await pins.check('1234');
    expect(!locked.ok && locked.problem).toMatchObject({ code: 'PIN_LOCKED', message: expect.stringContaining('30 seconds') });

    pins = open(); // a restart does not reset the lockout
    expect((await pins.check('1234')).ok).toBe(false);

    clock += LOCKOUT_BASE_MS + 1;
    const sixth = await pins.check('0000'); // sixth wrong PIN: locked for twice as long
    expect(!sixth.ok && sixth.problem.code).toBe('PIN_LOCKED');
    expect(pins.lockedUntil()).toBe(clock + 2 * LOCKOUT_BASE_MS);
    clock += LOCKOUT_BASE_MS + 1;
    expect((await pins.check('1234')).ok).toBe(false);
    clock += LOCKOUT_BASE_MS;
    expect((await pins.check('1234')).ok).toBe(true);
    expect(pins.lockedUntil()).toBeNull();
    // The count starts over after the right PIN.
    expect((await pins.check('0000')).ok).toBe(false);
    expect(pins.lockedUntil()).toBeNull();
  });

  it('counts parallel guesses one by one', async () => {
    await open().set('1234');
    const pins = open();
    const answers = await Promise.all(Array.from({ length: 12 }, () => pins.check('0000')));
    expect(answers.filter((a) => !a.ok && a.problem.code === 'PIN_LOCKED').length).toBeGreaterThanOrEqual(12 - MAX_FREE_FAILURES);
  });

  it('grows the delay up to a cap', () => {
    expect(lockoutAfter(MAX_FREE_FAILURES - 1, 0)).toBeNull();
    expect(lockoutAfter(MAX_FREE_FAILURES, 0)).toBe(LOCKOUT_BASE_MS);
    expect(lockoutAfter(MAX_FREE_FAILURES + 1, 0)).toBe(2 * LOCKOUT_BASE_MS);
    expect(lockoutAfter(MAX_FREE_FAILURES + 50, 0)).toBe(60 * 60_000);
  });

  it('refuses to open a damaged PIN file instead of treating it as "no PIN"', async () => {
    writeFileSync(join(dir, 'pin.json'), '{"version":1,"algorithm":"scrypt","N":1024,"r":8,"p":1,"salt":"AA==","hash":"","failures":0,"lockedUntil":null}');
    const r = openPinStore({ file: join(dir, 'pin.json'), now, cost });
    expect(!r.ok && r.problem.code).toBe('PIN_FILE_UNREADABLE');
  });

  it('refuses malformed PINs', async () => {
    const pins = open();
    expect((await pins.set('12a4')).ok).toBe(false);
    await pins.set('1234');
    expect((await pins.check('12345678901')).ok).toBe(false);
  });

  it('uses a real scrypt cost by default', async () => {
    const r = openPinStore({ file: join(dir, 'pin.json'), now });
    if (!r.ok) throw new Error(r.problem.message);
    await r.value.set('7777');
    const file = JSON.parse(readFileSync(join(dir, 'pin.json'), 'utf8')) as { N: number };
    expect(file.N).toBeGreaterThanOrEqual(1 << 14);
    expect((await r.value.check('7777')).ok).toBe(true);
  });
});
