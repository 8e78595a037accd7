/**
 * `packdesk hub create|join|leave|status` in-process against real nats-server (127.0.0.1) and the
 * real keychain (gnome-keyring under dbus-run-session):
 *   dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/cli/hub-and-run.test.ts
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Kvm } from '@nats-io/kv';
import { runCli } from '../../src/cli';
import { runHub } from '../../src/cli/hub';
import { COUNTER_NAMES_BUCKET } from '../../src/main/core/hub/counter-names';
import { formatJoinCode, parseJoinCode } from '../../src/main/core/hub/join-code';
import { type HubSupervisor, prepareHubServer } from '../../src/main/core/hub/server';
import { freePort } from '../support/nats';

const run = promisify(execFile);
const keyring = process.env.PACKDESK_KEYRING === '1';
const why = keyring ? '' : ' (SKIPPED: needs a real keychain; run under scripts/with-keyring.sh)';
if (!keyring) console.warn(`test/cli/hub-and-run.test.ts skipped:${why}`);

const dirs: string[] = [];
let running: HubSupervisor | null = null;
afterAll(async () => {
  await running?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'packdesk-hubcli-'));
  dirs.push(dir);
  return dir;
}

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { env, write: (t) => (out += t), writeError: (t) => (err += t) });
  return { code, out, err };
}

async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const key of keys) all.push(key);
  return all;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function keychainValue(environment: string): Promise<string | null> {
  try {
    return (await run('secret-tool', ['lookup', 'service', `Packdesk-${environment}`, 'account', 'hub-secret'])).stdout;
  } catch {
    return null;
  }
}

describe.skipIf(!keyring)(`packdesk hub${why}`, () => {
  const hubDir = dataDir();
  const hubEnv = { PACKDESK_DATA_DIR: hubDir, PACKDESK_ENVIRONMENT: 'staging', PACKDESK_TERMINAL_ID: 'hub-pc' };
  const counterEnv = { PACKDESK_DATA_DIR: dataDir(), PACKDESK_ENVIRONMENT: 'training', PACKDESK_TERMINAL_ID: 'till-2' };
  const thirdEnv = { PACKDESK_DATA_DIR: dataDir(), PACKDESK_ENVIRONMENT: 'production', PACKDESK_TERMINAL_ID: 'till-3' };
  let code = '';
  let port = 0;

  it('refuses to make a hub listening on the store network with nats-server 2.9.10, in words, and writes nothing', async () => {
    const dir = dataDir();
    const r = await cli(['hub', 'create'], { PACKDESK_DATA_DIR: dir, PACKDESK_ENVIRONMENT: 'staging' });
    expect(r.code).toBe(8);
    expect(r.err).toMatch(/nats-server 2\.9\.10, older than 2\.9\.23.*CVE-2023-47090/);
    expect(existsSync(path.join(dir, 'hub'))).toBe(false);
    expect(await keychainValue('staging')).toBeNull();
  });

  it('hub create makes this PC the hub, proves it starts, and prints the join code on its last line', async () => {
    port = await freePort();
    const r = await cli(['hub', 'create', '--listen', `127.0.0.1:${port}`], hubEnv);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    code = lines.at(-1)!;
    const parsed = parseJoinCode(code);
    expect(parsed).toMatchObject({ ok: true, code: { host: '127.0.0.1', port } });
    expect(r.out).toContain('"Counter 1"');
    if (!parsed.ok) return;
    // The secret is in the keychain and in no file of the data folder (nats.conf holds its bcrypt hash).
    expect(await keychainValue('staging')).toBe(parsed.code.secret);
    for (const file of filesUnder(hubDir)) expect({ file, has: readFileSync(file).includes(parsed.code.secret) }).toEqual({ file, has: false });
    expect(readFileSync(path.join(hubDir, 'hub', 'nats.conf'), 'utf8')).toMatch(/password: "\$2[aby]\$10\$/);
    // Run again: the same code, not a new hub.
    const again = await cli(['hub', 'create', '--listen', `127.0.0.1:${port}`, '--json'], hubEnv);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ ok: true, role: 'hub', joinCode: code, counterName: 'Counter 1' });
  });

  it('hub join gives the next free name, stores the secret in the keychain, and status says connected', async () => {
    // The app on the hub PC runs the hub.
    const prepared = await prepareHubServer({ dataDir: hubDir, listen: `127.0.0.1:${port}` });
    if (!prepared.ok) throw new Error(prepared.message);
    running = prepared.supervisor;
    expect((await running.start()).running).toBe(true);

    const joined = await cli(['hub', 'join', code], counterEnv);
    expect(joined.err).toBe('');
    expect(joined.out).toBe(`Joined the store hub at 127.0.0.1:${port} as "Counter 2".\n`);
    expect(await keychainValue('training')).toBe(parseJoinCode(code).ok && (parseJoinCode(code) as { code: { secret: string } }).code.secret);
    const third = await cli(['hub', 'join', code, '--json'], thirdEnv);
    expect(JSON.parse(third.out)).toMatchObject({ ok: true, counterName: 'Counter 3' });

    const status = await cli(['hub', 'status', '--json'], counterEnv);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({ mode: 'connected', role: 'counter', counterName: 'Counter 2', server: null, problem: null });
    // The seam for the hub's rules: a reader given the live connection fills the lease holder and counters.
    let out = '';
    const withReader = await runHub(
      { name: 'hub', action: 'status', json: true },
      { folder: counterEnv.PACKDESK_DATA_DIR, dataDir: counterEnv.PACKDESK_DATA_DIR, strayDataFile: null, authUrl: null, baseUrl: null, environment: 'training', terminalId: 'till-2', credentialsFrom: 'keychain', serviceProviderId: null },
      { env: counterEnv, write: (t) => (out += t), writeError: (t) => (out += t) },
      {
        readStatus: async (nc, self) => {
          const names = await new Kvm(nc).open(COUNTER_NAMES_BUCKET);
          const ids = (await collect(await names.keys('id.>'))).sort();
          const counters = await Promise.all(ids.map(async (key) => ({ counterId: key.slice(3), counterName: (await names.get(key))!.string() })));
          return {
            intakeHolder: { counterId: 'hub-pc', counterName: 'Counter 1' },
            counters: counters.map((c) => ({ ...c, version: '1.0.0', at: 0, tapsWaiting: 0, oldestWaitingAt: null, lastSentAt: null, clockDifferenceMs: null, online: true, present: true, isThisCounter: c.counterId === self.counterId, holdsIntake: c.counterId === 'hub-pc' })),
          };
        },
      },
    );
    expect(withReader).toBe(0);
    const read = JSON.parse(out);
    expect(read.intakeHolder).toEqual({ counterId: 'hub-pc', counterName: 'Counter 1' });
    expect(read.counters.map((c: { counterName: string; isThisCounter: boolean }) => [c.counterName, c.isThisCounter])).toEqual([
      ['Counter 1', false],
      ['Counter 2', true],
      ['Counter 3', false],
    ]);
    const hubStatus = await cli(['hub', 'status', '--json'], hubEnv);
    expect(hubStatus.code).toBe(0);
    expect(JSON.parse(hubStatus.out)).toMatchObject({ mode: 'connected', role: 'hub', server: { running: true, pid: running.status().pid, version: '2.9.10', listen: `127.0.0.1:${port}`, problem: null } });
  });

  it('hub join says a typo is a typing mistake (exit 2) and a wrong secret is a wrong or old code (exit 8)', async () => {
    const env = { PACKDESK_DATA_DIR: dataDir(), PACKDESK_ENVIRONMENT: 'staging' };
    const typo = await cli(['hub', 'join', code.slice(0, -1) + (code.endsWith('0') ? '1' : '0')], env);
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/This join code has a typing mistake/);
    const parsed = parseJoinCode(code);
    if (!parsed.ok) throw new Error('code');
    const old = formatJoinCode({ ...parsed.code, secret: 'abcdefabcdefabcdefabcdef' });
    const wrong = await cli(['hub', 'join', old], env);
    expect(wrong.code).toBe(8);
    expect(wrong.err).toMatch(/join code is wrong or old/);
    expect(existsSync(path.join(env.PACKDESK_DATA_DIR, 'hub', 'hub.json'))).toBe(false);
  });

  it('hub leave forgets the hub and frees the name; status is then a one-counter store; with the hub stopped, status exits 8', async () => {
    const left = await cli(['hub', 'leave'], thirdEnv);
    expect(left.code).toBe(0);
    expect(await keychainValue('production')).toBeNull();
    expect(JSON.parse((await cli(['hub', 'status', '--json'], thirdEnv)).out)).toMatchObject({ mode: 'solo', role: 'none' });
    // Joining again takes the freed name.
    expect(JSON.parse((await cli(['hub', 'join', code, '--json'], thirdEnv)).out)).toMatchObject({ counterName: 'Counter 3' });

    await running?.stop();
    const away = await cli(['hub', 'status'], counterEnv);
    expect(away.code).toBe(8);
    expect(away.out).toMatch(/NOT connected: The hub cannot be reached/);
  });
});
