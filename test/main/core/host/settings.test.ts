import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, checkAddress, openSettingsStore } from '../../../../src/main/core/settings';

describe('settings', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'packdesk-settings-'));
    file = join(dir, 'settings.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts in training with defaults and the sandbox addresses of this run', () => {
    const store = openSettingsStore({ file });
    expect(store.loadProblem).toBeNull();
    store.setTrainingAddresses({ authUrl: 'http://127.0.0.1:4000', baseUrl: 'http://127.0.0.1:4000' });
    expect(store.get()).toEqual({ environment: 'training', authUrl: 'http://127.0.0.1:4000', baseUrl: 'http://127.0.0.1:4000', ...DEFAULT_PREFERENCES });
    expect(existsSync(file)).toBe(false);
  });

  it('persists preferences, environment and per-environment addresses', () => {
    const store = openSettingsStore({ file });
    store.update({ undoWindowMs: 2000, sounds: false, quietHour: 3 });
    store.switchTo('staging', { authUrl: 'https://auth.example', baseUrl: 'https://orders.example' });
    const again = openSettingsStore({ file });
    expect(again.get()).toMatchObject({
      environment: 'staging',
      authUrl: 'https://auth.example',
      baseUrl: 'https://orders.example',
      undoWindowMs: 2000,
      sounds: false,
      quietHour: 3,
    });
    again.switchTo('training', null);
    expect(openSettingsStore({ file }).addressesFor('staging')).toEqual({ authUrl: 'https://auth.example', baseUrl: 'https://orders.example' });
  });

  it('sets a corrupt file aside and reports it, but never moves a production terminal to training', () => {
    writeFileSync(file, '{"version":1,"environment":"production",');
    const store = openSettingsStore({ file, now: () => Date.UTC(2025, 0, 2, 3, 4, 5) });
    expect(store.loadProblem).toMatch(/settings file could not be read.*not valid JSON.*stays on production.*manager must check Settings/);
    expect(store.get().environment).toBe('production');
    const aside = readdirSync(dir).filter((f) => f.startsWith('settings.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toContain('production');
    // Said again after a restart, still on production, until a manager saves settings.
    const again = openSettingsStore({ file });
    expect(again.get().environment).toBe('production');
    expect(again.problem()).toBe(store.loadProblem);
    again.update({ sounds: false });
    expect(again.problem()).toBeNull();
    expect(openSettingsStore({ file }).problem()).toBeNull();
  });

  it('takes the copy saved beside a corrupt or missing file: environment and addresses', () => {
    const first = openSettingsStore({ file });
    first.switchTo('production', { authUrl: 'https://auth.example', baseUrl: 'https://orders.example' });
    for (const damage of [(): void => writeFileSync(file, ''), (): void => rmSync(file)]) {
      damage();
      const store = openSettingsStore({ file });
      expect(store.get()).toMatchObject({ environment: 'production', authUrl: 'https://auth.example', baseUrl: 'https://orders.example' });
      expect(store.problem()).toMatch(/production, with its addresses.*manager must check Settings/);
    }
  });

  it('treats a file of the wrong shape as corrupt', () => {
    writeFileSync(file, JSON.stringify({ version: 1, environment: 'moon', preferences: {}, addresses: {} }));
    const store = openSettingsStore({ file });
    expect(store.loadProblem).toMatch(/environment/);
    expect(store.get().environment).toBe('training');
  });

  it('fills missing preferences from the defaults (a file from an older version)', () => {
    writeFileSync(file, JSON.stringify({ version: 1, environment: 'training', preferences: { concurrency: 2 }, addresses: {} }));
    const store = openSettingsStore({ file });
    expect(store.loadProblem).toBeNull();
    expect(store.get()).toMatchObject({ concurrency: 2, undoWindowMs: DEFAULT_PREFERENCES.undoWindowMs });
  });

  it('lays an override over the file', () => {
    const store = openSettingsStore({ file, override: { undoWindowMs: 1500 } });
    expect(store.get().undoWindowMs).toBe(1500);
  });

  it('checks addresses: http(s), https only in production, no user info', () => {
    expect(checkAddress('staging', 'token server', 'http://127.0.0.1:9000/')).toEqual({ ok: true, value: 'http://127.0.0.1:9000' });
    expect(checkAddress('production', 'token server', 'https://auth.example/base/')).toEqual({ ok: true, value: 'https://auth.example/base' });
    expect(checkAddress('production', 'token server', 'http://auth.example')).toMatchObject({ ok: false, problem: { code: 'ADDRESS_NOT_HTTPS' } });
    expect(checkAddress('staging', 'order service', 'ftp://x.example')).toMatchObject({ ok: false, problem: { code: 'ADDRESS_SCHEME' } });
    expect(checkAddress('staging', 'order service', 'https://u:p@x.example')).toMatchObject({ ok: false, problem: { code: 'ADDRESS_USERINFO' } });
    expect(checkAddress('staging', 'order service', 'not a url')).toMatchObject({ ok: false, problem: { code: 'ADDRESS_INVALID' } });
  });
});
