/**
 * Setup file of the `unit` tier (vitest.config.mts): a unit test is pure code in memory. This
 * records any reach for what the integration and e2e tiers own (a child process, a server
 * listening, a connection out, a temporary folder, a SQLite file on disk, the keychain) and fails
 * the test that did it, naming what it started, so a file that grows a real part is moved to
 * `integration` (see test/README.md) rather than slowing `npm run test:unit` down unnoticed.
 *
 * The reach is recorded and failed after the test, not only thrown at the call: code under test
 * may catch the error and carry on, and the test must still fail.
 */
import childProcess from 'node:child_process';
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterEach, expect } from 'vitest';

const reached: string[] = [];

function refuse(what: string): never {
  const message = `${what}: a unit test stays in memory; this file belongs in the integration tier (vitest.config.mts)`;
  reached.push(message);
  throw new Error(message);
}

type AnyFn = (...args: never[]) => unknown;

function forbid<T extends object>(target: T, names: readonly string[], what: (name: string) => string): void {
  for (const name of names) {
    if (typeof (target as Record<string, unknown>)[name] !== 'function') continue;
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: function forbidden(this: unknown) {
        return refuse(what(name));
      } as AnyFn,
    });
  }
}

forbid(childProcess, ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'], (n) => `child_process.${n}`);
forbid(fs, ['mkdtemp', 'mkdtempSync'], (n) => `fs.${n} (a folder on disk)`);
forbid(fs.promises, ['mkdtemp'], () => 'fs.promises.mkdtemp (a folder on disk)');
forbid(net.Server.prototype, ['listen'], () => 'a server listening on a port');
forbid(net.Socket.prototype, ['connect'], () => 'a network connection');
// `import { spawn } from 'node:child_process'` reads the ES module's copy of the builtin's exports.
syncBuiltinESMExports();

const load = createRequire(__filename);

// better-sqlite3 opens the file in native code: check each database the first time it is used.
const Database = load('better-sqlite3') as { prototype: Record<string, unknown> };
for (const name of ['prepare', 'exec', 'pragma', 'transaction', 'backup']) {
  const original = Database.prototype[name] as ((...args: unknown[]) => unknown) | undefined;
  if (typeof original !== 'function') continue;
  Database.prototype[name] = function (this: { memory: boolean; name: string }, ...args: unknown[]) {
    if (!this.memory) refuse(`a SQLite file on disk (${this.name})`);
    return original.apply(this, args);
  };
}

// The keychain binding may be missing where libsecret is; then nothing can reach it anyway.
try {
  forbid(load('keytar') as object, ['getPassword', 'setPassword', 'deletePassword', 'findCredentials', 'findPassword'], (n) => `the keychain (keytar.${n})`);
} catch {
  /* no keychain binding on this machine */
}

afterEach(() => {
  const seen = reached.splice(0);
  expect(seen, 'what this unit test reached outside memory').toEqual([]);
});
