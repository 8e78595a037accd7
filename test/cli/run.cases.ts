/**
 * `packdesk run`, `claim`, `release`, the claims in `orders --json` and doctor's hub line, against
 * real nats-server (127.0.0.1), the sandbox over HTTP, real SQLite and the real keychain
 * (gnome-keyring under dbus-run-session); `run` as child processes stopped with SIGTERM:
 *   dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/cli/hub-and-run.test.ts
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli';
import { hubFiles, prepareHubServer, processAlive } from '../../src/main/core/hub/server';
import type { Sandbox } from '../../sandbox';
import { envFor } from '../support/cli-env';
import { Cleanup, sandbox, tempDir } from '../support/engine';
import { freePort } from '../support/nats';
import { REPO_ROOT } from '../support/paths';
import { until } from '../support/until';

const keyring = process.env.PACKDESK_KEYRING === '1';
const why = keyring ? '' : ' (SKIPPED: needs a real keychain; run under scripts/with-keyring.sh)';
if (!keyring) console.warn(`test/cli/hub-and-run.test.ts skipped:${why}`);

const cleanup = new Cleanup();
afterAll(() => cleanup.run());

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { env, write: (t) => (out += t), writeError: (t) => (err += t) });
  return { code, out, err };
}

/** A `packdesk run` child: its output so far, a wait for a line, and SIGTERM. */
interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  out(): string;
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  stop(): Promise<number | null>;
}

function startRun(env: Record<string, string>, args: readonly string[] = []): Running {
  // Through tsx, not a bundle: keytar is loaded by a dynamic import a bundle cannot resolve.
  // The keychain's D-Bus session and the nats-server program come from this process's environment.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/packdesk.ts', 'run', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  cleanup.add(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    out: () => out,
    async waitFor(pattern, ms = 20_000) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const line = out.split('\n').find((l) => pattern.test(l));
        if (line) return line;
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no line matching ${pattern} within ${ms} ms; stdout:\n${out}\nstderr:\n${err}`);
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}


describe.skipIf(!keyring)(`packdesk run, claim, release${why}`, () => {
  let box: Sandbox;
  const hubDir = tempDir(cleanup, 'packdesk-run-hub-');
  const counterDir = tempDir(cleanup, 'packdesk-run-c2-');
  let hubEnv: Record<string, string>;
  let counterEnv: Record<string, string>;
  let hubRun: Running;
  let counterRun: Running;
  let natsPid = 0;

  beforeAll(async () => {
    box = await sandbox(cleanup, { orderCount: 3, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    hubEnv = envFor(box, hubDir, { PACKDESK_TERMINAL_ID: 'hub-pc' });
    counterEnv = envFor(box, counterDir, { PACKDESK_TERMINAL_ID: 'till-2' });
  });

  it('run on the hub PC starts the hub and takes in orders; run on a joined counter leaves intake to it; both say who polls', async () => {
    const port = await freePort();
    const made = await cli(['hub', 'create', '--listen', `127.0.0.1:${port}`], hubEnv);
    expect(made.code, made.err).toBe(0);
    const code = made.out.trim().split('\n').at(-1)!;

    hubRun = startRun(hubEnv);
    expect(await hubRun.waitFor(/hub: store hub "Counter 1", connected.*takes in orders: Counter 1/)).toMatch(/hub program running \(pid \d+/);
    natsPid = Number.parseInt(readFileSync(hubFiles(hubDir).pidPath, 'utf8'), 10);
    expect(processAlive(natsPid)).toBe(true);

    const joined = await cli(['hub', 'join', code], counterEnv);
    expect(joined.code, joined.err).toBe(0);
    counterRun = startRun(counterEnv);
    // One poller for the store: the counter says the hub PC takes in orders, and gets them through the hub.
    expect(await counterRun.waitFor(/hub: counter "Counter 2", connected/)).toMatch(/takes in orders: Counter 1; counters present: /);
    const listed = await until(
      'the three orders listed at Counter 2',
      async () => {
        const r = await cli(['orders', '--json'], counterEnv);
        const orders = JSON.parse(r.out) as { id: string }[];
        return orders.length === 3 ? orders : undefined;
      },
      20_000,
      200,
    );
    expect(listed).toHaveLength(3);
    expect(counterRun.out()).not.toMatch(/takes in orders: Counter 2/);
  }, 60_000);

  it('claim: two counters race for one order, exactly one exits 0 and the other exits 9 naming it; orders --json shows the claim; release by the loser exits 9, by the winner 0', async () => {
    const orders = JSON.parse((await cli(['orders', '--json'], counterEnv)).out) as { id: string }[];
    expect(orders).toHaveLength(3);
    for (const { id } of orders) {
      const [a, b] = await Promise.all([cli(['claim', id, '--json'], hubEnv), cli(['claim', id, '--json'], counterEnv)]);
      expect([a.code, b.code].sort()).toEqual([0, 9]);
      const [winner, loser] = a.code === 0 ? [{ r: a, name: 'Counter 1', env: hubEnv }, { r: b, env: counterEnv }] : [{ r: b, name: 'Counter 2', env: counterEnv }, { r: a, env: hubEnv }];
      expect(JSON.parse(loser.r.out)).toMatchObject({ ok: false, orderId: id, counter: winner.name });

      const seen = JSON.parse((await cli(['orders', '--json'], counterEnv)).out) as { id: string; claim: unknown }[];
      expect(seen.find((o) => o.id === id)?.claim).toMatchObject({ counterName: winner.name, here: winner.name === 'Counter 2' });
      expect(typeof (seen.find((o) => o.id === id)?.claim as { expiresAt: number }).expiresAt).toBe('number');
      expect((await cli(['orders'], hubEnv)).out).toContain(`${id}: being packed at ${winner.name} since `);

      const refused = await cli(['release', id], loser.env);
      expect(refused.code).toBe(9);
      expect(refused.err).toContain(`being packed at ${winner.name}`);
      expect((await cli(['release', id], winner.env)).code).toBe(0);
      const after = JSON.parse((await cli(['orders', '--json'], counterEnv)).out) as { id: string; claim: unknown }[];
      expect(after.find((o) => o.id === id)?.claim).toBeNull();
    }
  }, 60_000);

  it("doctor's hub line names the role, the connection, who takes in orders and the counters present", async () => {
    const doctor = await cli(['doctor', '--json'], counterEnv);
    const hub = (JSON.parse(doctor.out) as { name: string; ok: boolean; detail: string }[]).find((c) => c.name === 'hub');
    expect(hub).toMatchObject({ ok: true });
    expect(hub?.detail).toMatch(/^counter "Counter 2", connected; takes in orders: Counter 1; counters present: (Counter 2, Counter 1|Counter 1, Counter 2)$/);
    const onHub = await cli(['doctor'], hubEnv);
    expect(onHub.out).toMatch(/hub\s+store hub "Counter 1", connected; hub program running \(pid \d+, nats-server/);
  }, 30_000);

  it('SIGTERM stops both cleanly: exit 0, the lease handed over, no nats-server left; then claim exits 8 and orders say claims unknown', async () => {
    // The hub program now (it would have a new pid had it been restarted meanwhile).
    const natsNow = Number.parseInt(readFileSync(hubFiles(hubDir).pidPath, 'utf8'), 10);
    expect(await counterRun.stop()).toBe(0);
    expect(await hubRun.stop()).toBe(0);
    expect(processAlive(natsNow)).toBe(false);
    expect(hubRun.out()).toMatch(/stopped: intake lease handed over, hub program stopped/);
    expect(processAlive(natsPid)).toBe(false);

    const orders = JSON.parse((await cli(['orders', '--json'], counterEnv)).out) as { id: string; claim: unknown }[];
    const id = orders[0]!.id;
    const claim = await cli(['claim', id], counterEnv);
    expect(claim.code).toBe(8);
    expect(claim.err).toMatch(/cannot be reached/);
    expect(orders.every((o) => o.claim === 'unknown')).toBe(true);
    const text = await cli(['orders'], counterEnv);
    expect(text.out).toMatch(/claims unknown: the store hub cannot be reached/);
    const doctor = await cli(['doctor'], counterEnv);
    expect(doctor.code).toBe(1);
    expect(doctor.out).toMatch(/hub\s+counter "Counter 2", hub away: /);
    const onHub = JSON.parse((await cli(['doctor', '--json'], hubEnv)).out) as { name: string; ok: boolean; detail: string; fix?: string }[];
    expect(onHub.find((c) => c.name === 'hub')).toMatchObject({ ok: false, detail: expect.stringMatching(/^store hub "Counter 1", hub away: .*; hub program NOT running/), fix: expect.stringMatching(/packdesk run/) });
  }, 60_000);

  it('run --json on a one-counter data folder takes in orders itself, says so in JSON lines, and stops on SIGTERM', async () => {
    const dir = tempDir(cleanup, 'packdesk-run-solo-');
    const env = envFor(box, dir, { PACKDESK_TERMINAL_ID: 'solo' });
    const solo = startRun(env, ['--json']);
    expect(JSON.parse(await solo.waitFor(/"event":"hub"/))).toMatchObject({ event: 'hub', intake: 'this counter (no store hub)', status: { mode: 'solo', role: 'none' } });
    await until('the three orders listed', async () => (JSON.parse((await cli(['orders', '--json'], env)).out) as unknown[]).length === 3, 20_000, 200);
    expect(await solo.stop()).toBe(0);
    // A one-counter store's listing is as it was: no claims line.
    expect((await cli(['orders'], env)).out).not.toMatch(/claims|being packed/);
    expect(JSON.parse(solo.out().trim().split('\n').at(-1)!)).toMatchObject({ event: 'stopped' });
    expect((await cli(['claim', 'X1'], env)).code).toBe(8);
  }, 60_000);
});

describe.skipIf(!keyring)(`packdesk run hands the intake lease over on SIGTERM${why}`, () => {
  it('two member counters: the one taking in orders stops on SIGTERM and the other takes in orders well inside the 5 s lease', async () => {
    const box = await sandbox(cleanup, { orderCount: 2, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const hubDir = tempDir(cleanup, 'packdesk-run-hub2-');
    const aEnv = envFor(box, tempDir(cleanup, 'packdesk-run-a-'), { PACKDESK_TERMINAL_ID: 'till-a' });
    const bEnv = envFor(box, tempDir(cleanup, 'packdesk-run-b-'), { PACKDESK_TERMINAL_ID: 'till-b' });
    const port = await freePort();
    const made = await cli(['hub', 'create', '--listen', `127.0.0.1:${port}`], envFor(box, hubDir, { PACKDESK_TERMINAL_ID: 'hub-pc-2' }));
    expect(made.code, made.err).toBe(0);
    // The hub program alone on the hub PC (as the app would run it), so the lease is a member's.
    const prepared = await prepareHubServer({ dataDir: hubDir, listen: `127.0.0.1:${port}` });
    if (!prepared.ok) throw new Error(prepared.message);
    const supervisor = prepared.supervisor;
    cleanup.add(() => supervisor.stop());
    expect((await supervisor.start()).running).toBe(true);
    const code = made.out.trim().split('\n').at(-1)!;
    expect((await cli(['hub', 'join', code], aEnv)).code).toBe(0);
    expect((await cli(['hub', 'join', code], bEnv)).code).toBe(0);

    const a = startRun(aEnv);
    await a.waitFor(/hub: counter "Counter 2", connected.*takes in orders: Counter 2/);
    const b = startRun(bEnv);
    await b.waitFor(/hub: counter "Counter 3", connected.*takes in orders: Counter 2/);
    const stoppedAt = Date.now();
    expect(await a.stop()).toBe(0);
    await b.waitFor(/takes in orders: Counter 3/, 10_000);
    // A lease left to lapse would take 5 s; handed over, the other counter polls within about a second of the stop.
    expect(Date.now() - stoppedAt).toBeLessThan(4_000);
    expect(await b.stop()).toBe(0);
  }, 60_000);
});
