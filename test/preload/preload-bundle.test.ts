/**
 * The built preload (out/preload/index.js, made by `npm run build` before the tests) as a
 * sandboxed renderer runs it: a CommonJS script whose require() knows only 'electron' (and a few
 * harmless modules). Run here in a bare VM context with a stand-in contextBridge and ipcRenderer.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths';

const bundle = path.join(REPO_ROOT, 'out', 'preload', 'index.js');

function runPreload() {
  if (!existsSync(bundle)) throw new Error('out/preload/index.js is missing: run `npm run build` first (npm test does).');
  const exposed: [string, unknown][] = [];
  const required: string[] = [];
  const invokes: [string, unknown[]][] = [];
  const listeners = new Map<string, ((event: unknown, body: unknown) => void)[]>();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]) => (invokes.push([channel, args]), { ok: true, value: { valid: true } }),
      on: (channel: string, l: (event: unknown, body: unknown) => void) => listeners.set(channel, [...(listeners.get(channel) ?? []), l]),
      removeListener: (channel: string, l: unknown) => listeners.set(channel, (listeners.get(channel) ?? []).filter((x) => x !== l)),
    },
  };
  const module = { exports: {} };
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name === 'electron') return electron;
    // What Electron's sandboxed preload require() refuses.
    throw new Error(`module not found: ${name}`);
  };
  // A bare context: no process, no Buffer, no global require, as in a sandboxed renderer.
  const context = vm.createContext({ console });
  const wrapper = vm.runInContext(`(function (exports, require, module) {${readFileSync(bundle, 'utf8')}\n})`, context) as (e: unknown, r: unknown, m: unknown) => void;
  wrapper(module.exports, sandboxRequire, module);
  return { exposed, required, invokes, listeners };
}

describe('the built preload', () => {
  it('requires nothing but electron and exposes exactly one API object as window.packdesk', () => {
    const { exposed, required } = runPreload();
    expect(required).toEqual(['electron']);
    expect(exposed).toHaveLength(1);
    const [key, api] = exposed[0]!;
    expect(key).toBe('packdesk');
    expect(Object.keys(api as object).sort()).toEqual(['invoke', 'on']);
  });

  it('carries commands on their contract channels and events without the IPC event object', async () => {
    const { exposed, invokes, listeners } = runPreload();
    const api = exposed[0]![1] as {
      invoke(c: string, p: unknown): Promise<unknown>;
      on(e: string, l: (...args: unknown[]) => void): () => void;
    };
    expect(await api.invoke('pin.verify', { pin: '1234' })).toEqual({ ok: true, value: { valid: true } });
    expect(invokes).toEqual([['packdesk:pin.verify', [{ pin: '1234' }]]]);
    expect(await api.invoke('shell.openExternal', {})).toMatchObject({ ok: false });
    expect(invokes).toHaveLength(1);

    const seen: unknown[][] = [];
    const off = api.on('updates.status', (...args) => seen.push(args));
    const body = { state: 'idle', currentVersion: '1.0.0', availableVersion: null, message: null, lastCheckAt: null };
    for (const l of listeners.get('packdesk:event:updates.status') ?? []) l({ sender: 'the ipcRenderer itself' }, body);
    expect(seen).toEqual([[body]]);
    off();
    expect(listeners.get('packdesk:event:updates.status')).toEqual([]);
  });
});
