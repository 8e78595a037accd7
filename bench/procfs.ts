/**
 * What Linux says of a process, read from /proc without touching the process (reading these files
 * never wakes it): resident and proportional memory, CPU time used, its children. The benchmarks
 * measure other processes (the host, Chromium's renderers) with it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ). */
const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export interface ProcessMemory {
  /** Resident set size now, bytes. */
  readonly rss: number;
  /** The most the resident set has been since the process began (VmHWM), bytes. */
  readonly peakRss: number;
  /** Proportional set size (shared pages divided among their sharers), bytes. */
  readonly pss: number;
  /**
   * Pages this process alone has (Private_Clean + Private_Dirty: the unique set), bytes. PSS also
   * moves when other processes map or leave the same files (another Chromium started on the machine
   * lowers it); this does not.
   */
  readonly uss: number;
}

/** A `Name:   1234 kB` line of a /proc file, in bytes. */
function kbLine(text: string, name: string): number {
  const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
  if (!m) throw new Error(`no ${name} line`);
  return Number(m[1]) * 1024;
}

export function processMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return { rss: kbLine(status, 'VmRSS'), peakRss: kbLine(status, 'VmHWM'), pss: kbLine(rollup, 'Pss'), uss: kbLine(rollup, 'Private_Clean') + kbLine(rollup, 'Private_Dirty') };
}

/** CPU time the process has used (user + system), ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null; // gone meanwhile
  }
}

/** The process's command line, its arguments joined by spaces ('' once it has gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every process under `pid` (children, theirs, ...). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(Number(name));
    if (parent === null) continue;
    parents.set(parent, [...(parents.get(parent) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const child of parents.get(p) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

export interface ResidentKinds {
  /** Pages of files mapped in: the program, its libraries (shared with other processes running them). */
  readonly file: number;
  /** The C heap (malloc's main arena: SQLite's page cache, native modules, ...). */
  readonly brk: number;
  /** Anonymous mappings: V8's heap, malloc's other arenas (threads), large allocations. */
  readonly anon: number;
}

/** Where the resident set lies, by kind of mapping (/proc/<pid>/smaps). */
export function residentKinds(pid: number): ResidentKinds {
  let file = 0;
  let brk = 0;
  let anon = 0;
  let kind: 'file' | 'brk' | 'anon' = 'anon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1] ?? '';
      kind = name.startsWith('/') ? 'file' : name === '[heap]' ? 'brk' : 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    const bytes = Number(rss[1]) * 1024;
    if (kind === 'file') file += bytes;
    else if (kind === 'brk') brk += bytes;
    else anon += bytes;
  }
  return { file, brk, anon };
}

/** The resident set by what is mapped (/proc/<pid>/smaps): a file's path, [heap], [anon], memfd:…, with its PSS. */
export function residentByMapping(pid: number): Map<string, { rss: number; pss: number }> {
  const out = new Map<string, { rss: number; pss: number }>();
  let at = { rss: 0, pss: 0 };
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = (head[1] ?? '').replace(/ \(deleted\)$/, '') || '[anon]';
      at = out.get(name) ?? { rss: 0, pss: 0 };
      out.set(name, at);
      continue;
    }
    const kb = /^(Rss|Pss):\s+(\d+) kB/.exec(line);
    if (kb) at[kb[1] === 'Rss' ? 'rss' : 'pss'] += Number(kb[2]) * 1024;
  }
  return out;
}
