/**
 * A really full disk for tests: a small tmpfs mounted on a temp folder, and a filler file that
 * takes every byte left. Mounting needs the right to mount (root in CI's container); where it is
 * missing, `canMountTmpfs` is false and the tests that need it skip themselves, visibly.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Cleanup } from './engine';

function tryMount(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether this process may mount a tmpfs (checked once, by mounting and unmounting one). */
export const canMountTmpfs: boolean = (() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-mountcheck-'));
  try {
    if (!tryMount(dir, '64k')) return false;
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
})();

export interface SmallDisk {
  /** The mounted folder (use a subfolder as the data folder). */
  readonly dir: string;
  /** Takes every free byte; returns how many it took. */
  fill(): number;
  /** Gives the filler's bytes back. */
  free(): void;
}

/** Mounts a tmpfs of `size` (e.g. '8m') on a new temp folder; unmounted and removed at cleanup. */
export function smallDisk(cleanup: Cleanup, size: string): SmallDisk {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-disk-'));
  if (!tryMount(dir, size)) throw new Error(`cannot mount a tmpfs on ${dir}`);
  cleanup.add(() => {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const chunk = Buffer.alloc(16 * 1024);
      const fd = fs.openSync(filler, 'a');
      let n = 0;
      try {
        for (;;) n += fs.writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        fs.closeSync(fd);
      }
      // The last partial block too.
      const small = Buffer.alloc(512);
      const fd2 = fs.openSync(filler, 'a');
      try {
        for (;;) n += fs.writeSync(fd2, small);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        fs.closeSync(fd2);
      }
      return n;
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
  };
}
