/**
 * A note written right before quitAndInstall: the installer runs after Packdesk has quit, so only
 * the next start can tell whether it worked (the version changed) or not (still the old one).
 */
import fs from 'node:fs';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from '../settings/files';

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
