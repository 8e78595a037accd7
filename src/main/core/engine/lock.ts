/**
 * One process at a time sends a data folder's queue (the app, or the CLI when the app is closed).
 * Two senders would each treat the other's in-flight entries as crashed. The lock is a file
 * holding the owner's pid; a lock whose process is gone (killed, power cut) is taken over.
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE_NAME = 'packdesk.sender.lock';

// Engines of this process that hold a lock, by folder (two engines in one process must not share).
const heldHere = new Set<string>();

export type LockResult = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly holderPid: number };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the sender lock of `dataDir`, or says which live process holds it. */
export function acquireSenderLock(dataDir: string): LockResult {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const key = path.resolve(file);
  if (heldHere.has(key)) return { ok: false, holderPid: process.pid };
  for (let tries = 0; tries < 3; tries++) {
    // Written whole under a private name, then linked into place: nobody ever reads a half-written lock.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${process.pid}\n`);
    try {
      fs.linkSync(temp, file);
      fs.rmSync(temp, { force: true });
      heldHere.add(key);
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          heldHere.delete(key);
          if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (e) {
      fs.rmSync(temp, { force: true });
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = readPid(file);
      // A pid of our own not held by an engine here is a leftover of an earlier process with the same pid.
      if (pid !== null && pid !== process.pid && alive(pid)) return { ok: false, holderPid: pid };
      fs.rmSync(file, { force: true });
    }
  }
  return { ok: false, holderPid: readPid(file) ?? 0 };
}
