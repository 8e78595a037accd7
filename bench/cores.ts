/**
 * `--cores N`: a bench run with the app on the first N cores of this machine, as on a counter PC
 * with one or two slow cores. The app's processes, the host (bench/host-process.ts) and Chromium
 * with every one of its processes, run on cores 0..N-1, pinned with `taskset` (util-linux;
 * scripts/programs.sh) from their first instruction. The bench's own process (its driver,
 * Playwright, and its bookkeeping) and the sandbox (the order service: in a store, another
 * computer) run on the cores left over, N and up, when there are any: on a counter PC neither
 * takes the app's cores. With N the machine's every core, all of them share those cores. The
 * bench runs itself again under taskset on its own cores before it starts anything, so everything
 * it starts inherits them unless started on the app's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, descendants } from './procfs';

/** Set in the run under taskset (to the app's cores), so it does not pin itself again. */
const PINNED = 'PACKDESK_BENCH_PINNED';

/** The cores asked for with --cores (1 or more), or null. */
export function coresWanted(): number | null {
  const i = process.argv.indexOf('--cores');
  if (i < 0) return null;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--cores takes a number of cores, 1 or more (got ${String(process.argv[i + 1])})`);
  if (n > cpus().length) throw new Error(`--cores ${n}: this machine has ${cpus().length}`);
  return n;
}

/** Cores `from`..`to` as taskset's list and /proc's Cpus_allowed_list say it: "0", "0-1". */
function coreList(from: number, to: number): string {
  return from === to ? String(from) : `${from}-${to}`;
}

/** The app's cores with --cores N (0..N-1, taskset's list), or null without it. */
export function appCores(): string | null {
  const n = coresWanted();
  return n === null ? null : coreList(0, n - 1);
}

/** The bench's own cores with --cores N: those after the app's, or the app's when none are left. */
function benchCores(n: number): string {
  const all = cpus().length;
  return n < all ? coreList(n, all - 1) : coreList(0, n - 1);
}

/**
 * With --cores N, outside a pinned run: runs this same command again under taskset on the bench's
 * own cores, waits for it, and answers its exit code (the caller then stops). Null: run here.
 */
export function runPinned(): number | null {
  const n = coresWanted();
  if (n === null || process.env[PINNED]) return null;
  const run = spawnSync('taskset', ['--cpu-list', benchCores(n), process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [PINNED]: coreList(0, n - 1) },
  });
  if (run.error) throw new Error(`taskset could not run (Debian package util-linux; scripts/setup.sh checks for it): ${run.error.message}`);
  return run.status ?? 1;
}

/**
 * Chromium's launch options with its executable started through taskset on the app's cores (a
 * two-line script in a folder of its own, removed when this process ends); as given without --cores.
 */
export function pinnedLaunch<T extends { readonly executablePath: string }>(launch: T): T {
  const cores = appCores();
  if (cores === null) return launch;
  const dir = mkdtempSync(join(tmpdir(), 'packdesk-bench-chromium-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'chromium');
  const quoted = `'${launch.executablePath.replaceAll("'", `'\\''`)}'`;
  writeFileSync(script, `#!/bin/sh\nexec taskset --cpu-list ${cores} ${quoted} "$@"\n`, { mode: 0o755 });
  return { ...launch, executablePath: script };
}

/** The cores a process may run on (its Cpus_allowed_list), e.g. "0" or "0-1". */
export function allowedCores(pid: number | 'self' = 'self'): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? '?';
}

/** allowedCores, or null for a process gone meanwhile. */
function coresOf(pid: number): string | null {
  try {
    return allowedCores(pid);
  } catch {
    return null;
  }
}

/**
 * Where the app (the host, `hostPid`, and Chromium) and the bench run, said in one line, and an
 * error when any of the app's processes runs outside the app's cores (a browser that set its own
 * affinity would make the figures lie).
 */
export function pinningReport(hostPid?: number): string {
  const chromium = descendants(process.pid).filter((p) => {
    try {
      return /chrom/.test(commandLine(p));
    } catch {
      return false;
    }
  });
  const app = appCores();
  const appPids = hostPid === undefined ? chromium : [hostPid, ...chromium];
  const escaped = app === null ? [] : appPids.filter((p) => ![app, null].includes(coresOf(p)));
  if (escaped.length > 0) throw new Error(`processes ${escaped.join(', ')} of the app run outside cores ${app ?? '?'}`);
  const host = hostPid === undefined ? '' : 'the host and ';
  const pinned = app === null ? 'not pinned' : 'pinned with taskset';
  return `cores: ${host}${chromium.length} Chromium processes on cores ${app ?? allowedCores()}, the bench's driver and the sandbox on cores ${allowedCores()}, of ${cpus().length} (${pinned}); machine load ${loadavg()[0]?.toFixed(2) ?? '?'}`;
}
