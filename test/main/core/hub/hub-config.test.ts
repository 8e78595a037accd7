/** hub.json: saved and read back through its schema, a damaged file said in words. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clearHubConfig, counterIdOf, type HubConfig, hubConfigPath, loadHubConfig, saveHubConfig } from '../../../../src/main/core/hub/hub-config';

const dir = mkdtempSync(path.join(os.tmpdir(), 'packdesk-hubcfg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hub: HubConfig = { version: 1, role: 'hub', counterId: 'hub-pc', counterName: 'Counter 1', host: '192.168.1.5', port: 4222, fingerprint: 'ab'.repeat(32), listen: '0.0.0.0:4222', since: 1 };

describe('hub.json', () => {
  it('is absent for a one-counter store, round trips, and is removed on leaving', () => {
    expect(loadHubConfig(dir)).toEqual({ ok: true, config: null });
    saveHubConfig(dir, hub);
    expect(loadHubConfig(dir)).toEqual({ ok: true, config: hub });
    clearHubConfig(dir);
    expect(loadHubConfig(dir)).toEqual({ ok: true, config: null });
  });

  it('says a damaged file is damaged, in words, and how to recover', () => {
    saveHubConfig(dir, hub);
    writeFileSync(hubConfigPath(dir), '{"version":1,"role":"boss"}');
    const read = loadHubConfig(dir);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(/damaged .* leave the hub and join again/);
    writeFileSync(hubConfigPath(dir), '{not json');
    expect(loadHubConfig(dir)).toMatchObject({ ok: false, message: expect.stringMatching(/cannot be read/) });
  });

  it('makes a counter id from any terminal id', () => {
    expect(counterIdOf('cli-till.2@store')).toBe('cli-till-2-store');
  });
});
