/**
 * settings.json as terminals have it on disk today (version 1): read as it is, written back in the
 * same format, and a damaged or unknown field handled as it always was (a damaged value sets the
 * file aside with the field named; an unknown one is dropped).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSettingsStore, savedEnvironment, settingsFileProblem } from '../../../../src/main/core/settings';

// Written by hand as a version-1 terminal writes it (every preference, both remembered addresses).
const TODAYS_FILE = {
  version: 1,
  environment: 'production',
  preferences: {
    undoWindowMs: 3000,
    concurrency: 2,
    kiosk: true,
    autoLaunch: true,
    sounds: false,
    updateChannel: 'beta',
    scannerPrefix: ']C1',
    orderIdPattern: '^[0-9]{6,}$',
    quietHour: 4,
    paper: 'a4',
    printer: 'Counter Printer',
    autoPrintSlip: true,
    slipWholePhone: true,
    serviceProviderId: 'SP-42',
    intakeIntervalMs: 60000,
    alertRepeatMs: 30000,
    alertVolume: 0.5,
    language: 'hi',
    scanToPack: true,
    claimQuietMs: 1800000,
  },
  addresses: {
    staging: { authUrl: 'https://auth.staging.example', baseUrl: 'https://orders.staging.example' },
    production: { authUrl: 'https://auth.example', baseUrl: 'https://orders.example' },
  },
};

describe('settings.json on disk', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'packdesk-settings-file-'));
    file = join(dir, 'settings.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const onDisk = (): unknown => JSON.parse(readFileSync(file, 'utf8'));

  it("reads a file in today's format as it is, and writes it back in the same format", () => {
    writeFileSync(file, `${JSON.stringify(TODAYS_FILE, null, 2)}\n`);
    const store = openSettingsStore({ file });
    expect(store.loadProblem).toBeNull();
    expect(store.get()).toEqual({ environment: 'production', authUrl: 'https://auth.example', baseUrl: 'https://orders.example', ...TODAYS_FILE.preferences });
    expect(store.addressesFor('staging')).toEqual(TODAYS_FILE.addresses.staging);
    expect(savedEnvironment(file)).toBe('production');
    expect(settingsFileProblem(file)).toBeNull();

    store.update({ sounds: true });
    expect(onDisk()).toEqual({ ...TODAYS_FILE, preferences: { ...TODAYS_FILE.preferences, sounds: true } });
    // The copy beside it is the same file.
    expect(JSON.parse(readFileSync(join(dir, 'settings.backup.json'), 'utf8'))).toEqual(onDisk());
  });

  it('drops a field it does not know (from a newer version) and keeps the rest', () => {
    writeFileSync(file, JSON.stringify({ ...TODAYS_FILE, lastSeenBy: 'v9', preferences: { ...TODAYS_FILE.preferences, confetti: true } }));
    const store = openSettingsStore({ file });
    expect(store.loadProblem).toBeNull();
    expect(store.get()).toMatchObject({ environment: 'production', concurrency: 2, language: 'hi' });
    expect(store.get()).not.toHaveProperty('confetti');
    store.update({ concurrency: 3 });
    expect(onDisk()).toEqual({ ...TODAYS_FILE, preferences: { ...TODAYS_FILE.preferences, concurrency: 3 } });
  });

  for (const [what, damage, field] of [
    ['a value out of range', { preferences: { ...TODAYS_FILE.preferences, concurrency: 99 } }, /preferences\.concurrency/],
    ['a language it does not have', { preferences: { ...TODAYS_FILE.preferences, language: 'xx' } }, /preferences\.language/],
    ['a version it does not know', { version: 2 }, /version/],
  ] as const)
    it(`sets a file with ${what} aside, names the field, and keeps the copy saved before it`, () => {
      writeFileSync(file, JSON.stringify(TODAYS_FILE));
      openSettingsStore({ file }).update({ sounds: false }); // writes the copy beside it
      writeFileSync(file, JSON.stringify({ ...TODAYS_FILE, ...damage }));
      expect(settingsFileProblem(file)).toMatch(field);

      const store = openSettingsStore({ file, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
      expect(store.loadProblem).toMatch(/settings file could not be read \(it does not have the expected shape/);
      expect(store.loadProblem).toMatch(field);
      expect(store.loadProblem).toMatch(/production, with its addresses.*manager must check Settings/);
      expect(store.get()).toMatchObject({ environment: 'production', baseUrl: 'https://orders.example', concurrency: 2, sounds: false });
      expect(readdirSync(dir).filter((f) => f.startsWith('settings.json.corrupt-'))).toHaveLength(1);
    });
});
