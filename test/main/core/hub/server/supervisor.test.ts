/**
 * The hub's supervisor against real nats-server processes on 127.0.0.1: it starts and reports
 * ready, restarts after a SIGKILL, stops on quit, and clears an orphan left by a crash (but never
 * a process that is not our nats-server).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHubFiles, HubSupervisor, hubFiles, newHubSecret, processAlive, type ServerHealth } from '../../../../../src/main/core/hub/server';
import { manualClock, manualTimers } from '../../../../support/clock';
import { makeTestHub, type TestHub, until } from '../hub-fixture';

const hubs: TestHub[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const hub of hubs.splice(0)) await hub.dispose();
});


describe('hub supervisor', () => {
  it('starts nats-server, reports it running with its pid, version and address, and stops it on quit', async () => {
    const hub = await makeTestHub();
    hubs.push(hub);
    const health = hub.supervisor.status();
    expect(health).toMatchObject({ running: true, restarts: 0, version: hub.version, listen: hub.listen, problem: null });
    expect(health.pid).toBeGreaterThan(1);
    const pid = health.pid!;
    expect(processAlive(pid)).toBe(true);
    // Asked to start again while running: the same process, not a second one fighting for the port.
    expect((await hub.supervisor.start()).pid).toBe(pid);
    // nats-server wrote the pid file named in the generated nats.conf.
    expect(readFileSync(hub.files.pidPath, 'utf8').trim()).toBe(String(pid));
    await hub.supervisor.stop();
    expect(processAlive(pid)).toBe(false);
    expect(hub.supervisor.status()).toMatchObject({ running: false, pid: null });
  });

  it('restarts nats-server after a SIGKILL, after a short pause, and counts the restart', async () => {
    const hub = await makeTestHub({ supervisor: { backoff: { initialMs: 200, maxMs: 2000 } } });
    hubs.push(hub);
    const seen: ServerHealth[] = [];
    hub.supervisor.onChange((h) => seen.push(h));
    const first = hub.supervisor.status().pid!;
    process.kill(first, 'SIGKILL');
    await until(() => hub.supervisor.status().running && hub.supervisor.status().pid !== first);
    const after = hub.supervisor.status();
    expect(after.restarts).toBe(1);
    expect(after.problem).toBeNull();
    expect(processAlive(after.pid!)).toBe(true);
    // While it was down, the health said so in words.
    expect(seen.some((h) => !h.running && /stopped \(SIGKILL\); restarting it/.test(h.problem ?? ''))).toBe(true);
  });

  it('does not restart nats-server once stopped on quit', async () => {
    // A restart could only come from a timer of the supervisor's: on manual timers, firing every
    // one left after the stop is "any time later", without waiting for it.
    const manual = manualTimers();
    const hub = await makeTestHub({ supervisor: { backoff: { initialMs: 100, maxMs: 100 }, timers: manual.timers } });
    hubs.push(hub);
    const pid = hub.supervisor.status().pid!;
    await hub.supervisor.stop();
    expect(processAlive(pid)).toBe(false);
    expect(manual.pending(), 'timers left by the stop').toEqual([]);
    manual.fire(0);
    expect(hub.supervisor.status()).toMatchObject({ running: false, restarts: 0, pid: null });
  });

  it('clears an orphan nats-server left by a crash (its pid file names it) and starts its own on the same port', async () => {
    const hub = await makeTestHub({ start: false });
    hubs.push(hub);
    // What a crash of Packdesk leaves: nats-server with this hub's config, still holding the port.
    const orphan = spawn(hub.program, ['-c', hub.files.configPath], { stdio: 'ignore' });
    children.push(orphan);
    await until(() => existsSync(hub.files.pidPath) && readFileSync(hub.files.pidPath, 'utf8').trim() === String(orphan.pid));
    const health = await hub.supervisor.start();
    expect(health.running).toBe(true);
    expect(health.pid).not.toBe(orphan.pid);
    await until(() => orphan.exitCode !== null || orphan.signalCode !== null);
    expect(processAlive(orphan.pid!)).toBe(false);
  });

  it('leaves alone a process the pid file names that is not our nats-server (a reused pid)', async () => {
    const hub = await makeTestHub({ start: false });
    hubs.push(hub);
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    children.push(stranger);
    writeFileSync(hub.files.pidPath, String(stranger.pid));
    const health = await hub.supervisor.start();
    expect(health.running).toBe(true);
    expect(processAlive(stranger.pid!)).toBe(true);
  });

  it('says why when nats-server cannot start (the port is taken by something else)', async () => {
    const hub = await makeTestHub();
    hubs.push(hub);
    const otherDir = mkdtempSync(path.join(os.tmpdir(), 'packdesk-hub-'));
    const files = hubFiles(otherDir);
    await createHubFiles(files, { listen: hub.listen, secret: newHubSecret(), now: new Date() });
    const second = new HubSupervisor({ program: hub.program, version: hub.version, files, listen: hub.listen, backoff: { initialMs: 60_000, maxMs: 60_000 } });
    const health = await second.start();
    await second.stop();
    rmSync(otherDir, { recursive: true, force: true });
    expect(health.running).toBe(false);
    expect(health.problem).toMatch(/address already in use/);
  });
});

describe('restart pauses', () => {
  it('waits longer after each failed start (0.5, 1, 2, 4 s ... up to the maximum), on the injected timers, and says so', async () => {
    const hub = await makeTestHub({ start: false });
    hubs.push(hub);
    const manual = manualTimers();
    const clock = manualClock();
    // A program that dies at once, as a nats-server with a broken store would.
    const failing = new HubSupervisor({ program: '/bin/false', version: '2.9.10', files: hub.files, listen: hub.listen, timers: manual.timers, now: clock.now, backoff: { initialMs: 500, maxMs: 4000 } });
    const health = await failing.start();
    expect(health.running).toBe(false);
    expect(health.problem).toMatch(/^The hub program exited \(code 1\); restarting it in 1 s/);
    const pauses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const restart = Math.min(...manual.pending().filter((ms) => ms < 20_000));
      pauses.push(restart);
      const exited = new Promise<void>((resolve) => {
        const stop = failing.onChange((h) => {
          if (!h.running && /restarting/.test(h.problem ?? '')) {
            stop();
            resolve();
          }
        });
      });
      manual.advance(restart);
      await exited;
    }
    expect(pauses).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(failing.status().restarts).toBe(5);
    await failing.stop();
    // Stopped: no restart is left waiting.
    expect(manual.pending().filter((ms) => ms < 20_000)).toEqual([]);
  });
});

describe('version refusal', () => {
  it('refuses to listen beyond 127.0.0.1 with nats-server older than 2.9.23, in words, without starting it', async () => {
    const hub = await makeTestHub({ start: false, supervisor: { listen: '0.0.0.0:14222' } });
    hubs.push(hub);
    const health = await hub.supervisor.start();
    expect(hub.version).toBe('2.9.10');
    expect(health.running).toBe(false);
    expect(health.pid).toBeNull();
    expect(health.problem).toMatch(/nats-server 2\.9\.10, older than 2\.9\.23.*CVE-2023-47090/);
    expect(existsSync(hub.files.pidPath)).toBe(false);
  });
});
