/**
 * One process at a time sends a data file's queue (the app, or the CLI when the app is closed):
 * two senders would each treat the other's in-flight entries as crashed. The holder is a row in
 * the data file, read and taken inside one IMMEDIATE transaction, so of several processes that
 * all find a dead holder exactly one takes it over. A holder whose process is gone (or a zombie) is dead.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Store } from '../db';

export type LeaseResult = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly holderPid: number };

/** Whether a process is alive, injected so tests can say. */
export type IsAlive = (pid: number) => boolean;

// Holder tokens of engines of this process, by data file: a second engine of this process on the
// same file must not take a lease the first one holds.
const heldHere = new Map<string, string>();

/**
 * process.kill(pid, 0) (alive, or alive under another user: EPERM), and not a zombie. A process
 * killed while sending stays a zombie until its parent reaps it, and a zombie's pid still answers
 * kill(pid, 0): a counter SIGKILLed under a supervisor that had not reaped it held the lease, and
 * every restart left the queue unsent ("another process sends") until the zombie went.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !zombie(pid);
}

/** Linux says a process's state in /proc (Z: zombie, X: dead); elsewhere kill(pid, 0) already says it (Windows) or cannot tell. */
function zombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) S ...": the name may hold spaces and parentheses; the state follows the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
    return state === 'Z' || state === 'X';
  } catch {
    // Gone between the two looks (dead), or /proc unreadable (then kill's word stands).
    return !existsSync(`/proc/${pid}`) && existsSync('/proc/self');
  }
}

export interface LeaseOptions {
  readonly now: () => number;
  /** Default: process.kill(pid, 0). */
  readonly isAlive?: IsAlive;
  /** This process's id (default process.pid; tests stand in for other processes). */
  readonly pid?: number;
}

/** Takes the sender lease of `store`, or says which live process holds it. */
export function takeSenderLease(store: Store, options: LeaseOptions): LeaseResult {
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processAlive;
  const mine = heldHere.get(store.file);
  if (mine !== undefined) return { ok: false, holderPid: pid };
  const holder = randomUUID();
  const taken = store.transaction((): LeaseResult | null => {
    const current = store.lease.get();
    // Our own pid without an engine here holding it is a leftover of an earlier process with this pid.
    if (current && current.pid !== pid && isAlive(current.pid)) return { ok: false, holderPid: current.pid };
    store.lease.take(holder, pid, options.now());
    return null;
  });
  if (taken) return taken;
  heldHere.set(store.file, holder);
  let released = false;
  return {
    ok: true,
    release: () => {
      if (released) return;
      released = true;
      heldHere.delete(store.file);
      store.transaction(() => store.lease.release(holder));
    },
  };
}
