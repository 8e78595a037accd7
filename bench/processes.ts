/**
 * The two processes bench/memory.ts measures beside: the sandbox order service (`npm run sandbox`,
 * its CLI) and the host (bench/host-process.ts, bundled as electron-vite bundles the main process).
 * Each is started here, spoken to, and stopped by its pid.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Reply } from '../src/shared/ipc';
import { bundleChild } from './engine-start';
import type { HostConfig, HostRequest } from './host-process';

const ROOT = join(__dirname, '..');
/** The sandbox's store (sandbox/catalogue.ts): intake polls `changes` for it. */
const SERVICE_PROVIDER_ID = 'SP-BLR-0142';

/** Resolves with the child's first `count` lines of stdout; rejects if it ends first. */
function firstLines(child: ChildProcess, count: number, what: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4_000);
    });
    const reader = createInterface({ input: child.stdout! });
    reader.on('line', (line) => {
      lines.push(line);
      if (lines.length === count) {
        reader.close();
        resolve(lines);
      }
    });
    child.once('exit', (code) => reject(new Error(`${what} ended (${code}) before it was ready: ${stderr.trim()}`)));
  });
}

/** Stops a child by its pid: SIGTERM, then SIGKILL after `graceMs`. */
async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(late);
}

export interface SandboxProcess {
  readonly url: string;
  readonly adminUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** `npm run sandbox -- --port 0 --orders N`, no orders arriving by themselves (the busy hour places them). */
export async function startSandboxProcess(orders: number): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'sandbox', 'cli.ts'), '--port', '0', '--orders', String(orders), '--arrival-every', '0', '--seed', '41'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const [listening, admin] = await firstLines(child, 2, 'the sandbox');
    const url = /^listening on (\S+)$/.exec(listening ?? '')?.[1];
    const adminUrl = /^admin on (\S+)$/.exec(admin ?? '')?.[1];
    if (!url || !adminUrl) throw new Error(`the sandbox said ${JSON.stringify([listening, admin])}`);
    // Its log lines go nowhere from here on.
    child.stdout?.resume();
    child.stderr?.resume();
    return { url, adminUrl, pid: child.pid!, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

export interface HostProcess {
  readonly url: string;
  readonly pid: number;
  request(message: DistributiveOmit<HostRequest, 'id'>): Promise<unknown>;
  /** The host's command through its validating door; throws on a refusal. */
  handle<T>(command: string, payload: unknown): Promise<T>;
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Bundles and starts the host, its data folder in `workDir`, pointed at `serviceUrl`. The bundle is
 * written to a folder of its own in the checkout's out/, two levels under the checkout as the
 * harness's own files are (src/web): the harness finds the page's built scripts (out/web, the
 * bridge the page cannot start without) and the renderer from there, and Node finds better-sqlite3
 * in the checkout's node_modules.
 */
/**
 * `v8Flags`: V8's own flags for the host (`--max-semi-space-size=2`, say), as Electron's `--js-flags` would give its main process.
 * `cores`: the cores it may run on (taskset's list, "0" or "0-1"), else this process's.
 */
export async function startHostProcess(workDir: string, serviceUrl: string, finishedKeepMs: number | undefined, v8Flags: readonly string[] = [], cores?: string): Promise<HostProcess> {
  const out = join(ROOT, 'out');
  mkdirSync(out, { recursive: true });
  const bundleDir = mkdtempSync(join(out, 'bench-host-'));
  try {
    return await startBundled(bundleDir, workDir, serviceUrl, finishedKeepMs, v8Flags, cores);
  } catch (error) {
    rmSync(bundleDir, { recursive: true, force: true });
    throw error;
  }
}

async function startBundled(bundleDir: string, workDir: string, serviceUrl: string, finishedKeepMs: number | undefined, v8Flags: readonly string[], cores: string | undefined): Promise<HostProcess> {
  const bundle = await bundleChild(bundleDir, 'host-process');
  const config: HostConfig = {
    dataDir: join(workDir, 'data'),
    rendererDir: join(ROOT, 'out', 'renderer'),
    serviceUrl,
    serviceProviderId: SERVICE_PROVIDER_ID,
    ...(finishedKeepMs === undefined ? {} : { finishedKeepMs }),
  };
  // Pinned: taskset runs node (its IPC channel's descriptor inherited) on those cores from its first instruction.
  const pinned = cores === undefined ? {} : { execPath: 'taskset', execArgv: ['--cpu-list', cores, process.execPath, ...v8Flags] };
  const child = fork(bundle, [JSON.stringify(config)], {
    execArgv: [...v8Flags],
    ...pinned,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let ready: { url: string; pid: number };
  try {
    const [line] = await firstLines(child, 1, 'the host');
    ready = JSON.parse(line ?? '') as { url: string; pid: number };
    child.stdout?.resume();
    child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[host] ${d.toString()}`));
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  let next = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.ok) w?.resolve(m.result);
    else w?.reject(new Error(m.error));
  });
  child.once('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`the host ended (${code})`));
    waiting.clear();
  });
  const request = (message: DistributiveOmit<HostRequest, 'id'>): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.send({ ...message, id });
    });
  return {
    url: ready.url,
    pid: ready.pid,
    request,
    async handle<T>(command: string, payload: unknown): Promise<T> {
      const reply = (await request({ kind: 'handle', command, payload })) as Reply<T>;
      if (!reply.ok) throw new Error(`${command}: ${reply.problem.message}`);
      return reply.value;
    },
    memory: () => request({ kind: 'memory' }) as Promise<NodeJS.MemoryUsage>,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        await Promise.race([request({ kind: 'stop' }).catch(() => undefined), exited]);
        const late = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(late);
      }
      rmSync(bundleDir, { recursive: true, force: true });
    },
  };
}
