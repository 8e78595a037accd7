/**
 * `--cores N`: a bench run on the first N cores of this machine, as on a counter PC with one or two
 * slow cores. The bench runs itself again under `taskset` (util-linux; scripts/programs.sh) pinned
 * to cores 0..N-1 before it starts anything, so everything it starts inherits the pinning: the host,
 * the harness and the training sandbox (in the bench's own process) and Chromium with every one of
 * its processes. Other programs on the machine may still run on those cores: the load is printed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { commandLine, descendants } from './procfs';

/** Set in the run under taskset, so it does not pin itself again. */
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

/**
 * With --cores N, outside a pinned run: runs this same command again under taskset on cores
 * 0..N-1, waits for it, and answers its exit code (the caller then stops). Null: run here.
 */
export function runPinned(): number | null {
  const n = coresWanted();
  if (n === null || process.env[PINNED]) return null;
  const list = n === 1 ? '0' : `0-${n - 1}`;
  const run = spawnSync('taskset', ['--cpu-list', list, process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [PINNED]: list },
  });
  if (run.error) throw new Error(`taskset could not run (Debian package util-linux; scripts/setup.sh checks for it): ${run.error.message}`);
  return run.status ?? 1;
}

/** The cores a process may run on (its Cpus_allowed_list), e.g. "0" or "0-1". */
export function allowedCores(pid: number | 'self' = 'self'): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? '?';
}

/**
 * Where this run and its Chromium may run, said in one line, and an error when any of Chromium's
 * processes escaped the pinning (a browser that sets its own affinity would make the figures lie).
 */
export function pinningReport(): string {
  const mine = allowedCores();
  const chromium = descendants(process.pid).filter((p) => {
    try {
      return /chrom/.test(commandLine(p));
    } catch {
      return false;
    }
  });
  const escaped = chromium.filter((p) => {
    try {
      return allowedCores(p) !== mine;
    } catch {
      return false;
    }
  });
  if (process.env[PINNED] && escaped.length > 0) throw new Error(`Chromium processes ${escaped.join(', ')} run outside cores ${mine}`);
  return `cores: the bench (host, harness, sandbox) and ${chromium.length} Chromium processes on cores ${mine} of ${cpus().length} (${process.env[PINNED] ? 'pinned with taskset' : 'not pinned'}); machine load ${loadavg()[0]?.toFixed(2) ?? '?'}`;
}
