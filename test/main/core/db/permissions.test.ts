/**
 * The data file, its -wal and -shm, and settings.json hold customer names, addresses and phones:
 * they are created readable by the owner only (0600), and an older, wider file is narrowed on open.
 * Real files on disk, with the usual umask (022) in force.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../src/main/core/engine';
import { openSettingsStore } from '../../../../src/main/core/settings';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const mode = (file: string): string => (fs.statSync(file).mode & 0o777).toString(8);
const noSender = { update: async () => ({ kind: 'transient' as const, message: 'offline', noAnswer: false }), probe: async () => false };
const itPosix = process.platform === 'win32' ? it.skip : it;

describe('file permissions', () => {
  itPosix('a new data file, its -wal and -shm are 0600', async () => {
    const previous = process.umask(0o022);
    cleanup.add(() => process.umask(previous));
    const dir = tempDir(cleanup);
    const engine = createEngine({ dataDir: dir, sender: noSender, terminalId: 'T1', undoWindowMs: 0 });
    cleanup.add(() => engine.stop());
    expect(engine.submitTap('ORD-1', { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
    const file = path.join(dir, 'packdesk.sqlite');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect({ f: path.basename(f), mode: mode(f) }).toEqual({ f: path.basename(f), mode: '600' });
  });

  itPosix('an existing data file left readable by others is narrowed to 0600 on open', async () => {
    const dir = tempDir(cleanup);
    const first = createEngine({ dataDir: dir, sender: noSender, terminalId: 'T1', undoWindowMs: 0 });
    expect(first.submitTap('ORD-1', { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
    await first.stop();
    const file = path.join(dir, 'packdesk.sqlite');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(f)) fs.chmodSync(f, 0o644);
    const again = createEngine({ dataDir: dir, sender: noSender, terminalId: 'T1', undoWindowMs: 0 });
    cleanup.add(() => again.stop());
    expect(again.submitTap('ORD-2', { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect({ f: path.basename(f), mode: mode(f) }).toEqual({ f: path.basename(f), mode: '600' });
  });

  itPosix('settings.json is written 0600, also over an older 0644 one', () => {
    const previous = process.umask(0o022);
    cleanup.add(() => process.umask(previous));
    const file = path.join(tempDir(cleanup), 'settings.json');
    const store = openSettingsStore({ file });
    store.switchTo('staging', { authUrl: 'https://auth.example', baseUrl: 'https://orders.example' });
    expect(mode(file)).toBe('600');
    fs.chmodSync(file, 0o644);
    openSettingsStore({ file }).switchTo('production', { authUrl: 'https://auth.example', baseUrl: 'https://orders.example' });
    expect(mode(file)).toBe('600');
  });
});
