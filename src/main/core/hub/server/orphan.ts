/**
 * Clearing a nats-server left running by a crash of Packdesk (the app killed, the PC's power cut
 * while it restarted). Its pid file names it; only a process that really is nats-server started
 * with this hub's configuration is stopped: a pid may since have been reused by anything else.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Timers } from '../../time';

/** Reads a process's command line, or null when there is no such process (or it cannot be read). */
export type CommandLineReader = (pid: number) => Promise<string | null>;

/** The command line of a process: /proc on Linux, the process table (PowerShell) on Windows. */
export function systemCommandLine(platform: NodeJS.Platform = process.platform): CommandLineReader {
  if (platform === 'win32') {
    return (pid) =>
      new Promise((resolve) => {
        execFile(
          'powershell.exe',
          ['-NoProfile', '-NonInteractive', '-Command', `(Get-CimInstance Win32_Process -Filter "ProcessId=${Math.trunc(pid)}").CommandLine`],
          { timeout: 10_000, windowsHide: true },
          (error, stdout) => resolve(error || !stdout.trim() ? null : stdout.trim()),
        );
      });
  }
  return async (pid) => {
    try {
      return readFileSync(`/proc/${Math.trunc(pid)}/cmdline`, 'utf8').split('\0').join(' ').trim() || null;
    } catch {
      return null;
    }
  };
}

/** Whether a process with this pid exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface OrphanOptions {
  readonly pidPath: string;
  readonly configPath: string;
  readonly commandLine: CommandLineReader;
  readonly timers: Timers;
  /** How long a SIGTERM gets before SIGKILL. */
  readonly graceMs: number;
}

export type OrphanOutcome = { readonly kind: 'none' } | { readonly kind: 'cleared'; readonly pid: number } | { readonly kind: 'notOurs'; readonly pid: number };

// Held open: `packdesk hub leave` awaits this, and an unref'd wait let the process end mid-way.
const sleep = (timers: Timers, ms: number): Promise<void> => new Promise((resolve) => timers.setTimeout(resolve, ms, { keepAlive: true }));

/** Stops the nats-server the pid file names if it is ours and still running; removes the pid file. */
export async function clearOrphan(options: OrphanOptions): Promise<OrphanOutcome> {
  if (!existsSync(options.pidPath)) return { kind: 'none' };
  const pid = Number.parseInt(readFileSync(options.pidPath, 'utf8').trim(), 10);
  const forget = (): void => rmSync(options.pidPath, { force: true });
  if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid || !processAlive(pid)) {
    forget();
    return { kind: 'none' };
  }
  const line = await options.commandLine(pid);
  const ours = line !== null && /nats-server/i.test(line) && normalise(line).includes(normalise(options.configPath));
  if (!ours) {
    forget();
    return { kind: 'notOurs', pid };
  }
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < options.graceMs && processAlive(pid); waited += 100) await sleep(options.timers, 100);
  if (processAlive(pid)) {
    process.kill(pid, 'SIGKILL');
    for (let waited = 0; waited < 5000 && processAlive(pid); waited += 50) await sleep(options.timers, 50);
  }
  forget();
  return { kind: 'cleared', pid };
}

function normalise(text: string): string {
  return text.replace(/\\/g, '/').toLowerCase();
}
