/**
 * A note written right before quitAndInstall: the installer runs after Packdesk has quit, so only
 * the next start can tell whether it worked (the version changed) or not (still the old one).
 */
import fs from 'node:fs';
import { z } from 'zod';
import type { UpdateStatus } from '../../../shared/ipc';
import type { Logger } from '../log';
import { readJsonFile, writeFileAtomic } from '../settings/files';
import { installDidNotCompleteMessage, updatedMessage } from './status-words';

const PendingInstallSchema = z.object({ from: z.string().min(1), to: z.string().min(1), at: z.number() });
export type PendingInstall = z.infer<typeof PendingInstallSchema>;

/** Records the install about to run (owner-only file). */
export function notePendingInstall(file: string, pending: PendingInstall): void {
  writeFileAtomic(file, `${JSON.stringify(pending)}\n`, 0o600);
}

/** What happened to an install noted before the last quit, and forgets the note. */
export function takePendingInstall(
  file: string,
  currentVersion: string,
): { readonly kind: 'none' } | { readonly kind: 'installed'; readonly from: string } | { readonly kind: 'failed'; readonly to: string } {
  const read = readJsonFile(file, PendingInstallSchema);
  forgetPendingInstall(file);
  if (read.kind !== 'ok') return { kind: 'none' };
  if (currentVersion === read.value.to) return { kind: 'installed', from: read.value.from };
  if (currentVersion === read.value.from) return { kind: 'failed', to: read.value.to };
  return { kind: 'none' };
}

/** Removes the note (the install was refused on the spot, or the next start has read it). */
export function forgetPendingInstall(file: string): void {
  fs.rmSync(file, { force: true });
}

/** What the start says about the install noted before the last quit. */
export interface LastInstall {
  /** The version whose installer did not complete: not tried again by the schedule, only by a manager. */
  readonly failedOf: string | null;
  /** The status to show, or null when there is nothing to say. */
  readonly said: Partial<UpdateStatus> | null;
}

/** Reads (and forgets) the note of the install that ran after the last quit, and says what became of it. */
export function lastInstall(file: string, currentVersion: string, log: Logger): LastInstall {
  let outcome: ReturnType<typeof takePendingInstall>;
  try {
    outcome = takePendingInstall(file, currentVersion);
  } catch (err) {
    log.warn('could not read the note of the last install', { error: err instanceof Error ? err.message : String(err) });
    return { failedOf: null, said: null };
  }
  if (outcome.kind === 'installed') {
    log.info('update installed', { from: outcome.from, to: currentVersion });
    return { failedOf: null, said: { message: updatedMessage(outcome.from, currentVersion) } };
  }
  if (outcome.kind === 'failed') {
    // Not retried by the schedule: an installer that fails every time must not quit the app every few minutes.
    log.error('the update installer did not complete after the last quit', { version: outcome.to, running: currentVersion });
    return { failedOf: outcome.to, said: { state: 'error', availableVersion: outcome.to, message: installDidNotCompleteMessage(outcome.to, currentVersion) } };
  }
  return { failedOf: null, said: null };
}
