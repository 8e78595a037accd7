/**
 * The update status as the app last saw it, kept in the data folder (`update-status.json`) so that
 * `packdesk doctor`, which runs in a process of its own, can say what the terminal's updater is
 * doing: the same words the manager reads in settings.
 */
import { z } from 'zod';
import { updateStatusSchema, type UpdateStatus } from '../../../shared/ipc';
import { readJsonFile, writeFileAtomic, type JsonFileRead } from '../settings/files';

/** The file's name in the data folder. */
export const UPDATE_STATUS_FILE = 'update-status.json';

const SavedStatusSchema = z.object({ status: updateStatusSchema(), savedAt: z.number() });
export type SavedUpdateStatus = z.infer<typeof SavedStatusSchema>;

/** Saves the status (owner-only, replaced atomically). */
export function saveUpdateStatus(file: string, status: UpdateStatus, savedAt: number): void {
  writeFileAtomic(file, `${JSON.stringify({ status, savedAt })}\n`, 0o600);
}

/** The saved status; 'missing' when the app never saved one; 'unreadable' with why. */
export function readUpdateStatus(file: string): JsonFileRead<SavedUpdateStatus> {
  return readJsonFile(file, SavedStatusSchema);
}

/** How long without reading the feed before doctor calls it a problem (the app reads it every 4 h). */
export const STALE_CHECK_MS = 24 * 60 * 60_000;

/** Doctor's line about updates: whether it is fine and what it says, from the saved status. */
export function updateHealth(saved: JsonFileRead<SavedUpdateStatus>, now: number): { ok: boolean; detail: string; fix?: string } {
  if (saved.kind === 'missing') return { ok: true, detail: 'no update status saved yet: the app saves it when it starts its updater' };
  if (saved.kind === 'unreadable') return { ok: false, detail: `update-status.json cannot be read: ${saved.message}`, fix: 'start Packdesk once; it writes the file again' };
  const s = saved.value.status;
  const checked = s.lastCheckAt === null ? 'never checked' : `last checked ${new Date(s.lastCheckAt).toISOString()}`;
  const offered = s.availableVersion ? `, ${s.availableVersion} ${s.state === 'ready' ? 'downloaded' : 'offered'}` : '';
  const detail = `version ${s.currentVersion}${offered}: ${s.state}${s.message ? ` (${s.message})` : ''}; ${checked}`;
  // Off by design (development build, .deb, platform) is fine; off because of the build's feed
  // (missing, not https, not generic) is a packaging mistake every terminal of that build shares.
  if (s.state === 'disabled') {
    return /update feed/i.test(s.message ?? '') ? { ok: false, detail, fix: 'the build names a feed Packdesk refuses: package again with an https PACKDESK_UPDATE_URL (build/README.md)' } : { ok: true, detail };
  }
  if (s.state === 'error') return { ok: false, detail, fix: 'see "A terminal stuck on an old version" in docs/update.md' };
  const age = now - (s.lastCheckAt ?? saved.value.savedAt);
  if (age > STALE_CHECK_MS) {
    return { ok: false, detail: `${detail}; the feed has not been read for ${Math.floor(age / 3_600_000)} h`, fix: 'check that Packdesk is running and can reach the update feed (docs/update.md)' };
  }
  return { ok: true, detail };
}
