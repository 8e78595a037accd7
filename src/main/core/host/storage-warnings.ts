/**
 * A counter's storage warnings, as the codes its health carries north (docs/fleet.md): what the
 * engine and intake report (the data file refused writes: a full disk, or unwritable), free space
 * on the data folder's disk below a floor, a data file grown past what a counter should hold, and
 * a damaged data file (found damaged and marked so, or set aside and still in the data folder).
 * The disk is looked at once a minute at most: the north sender asks every second for a change.
 */
import { statfsSync, statSync } from 'node:fs';
import type { StorageWarning } from '../hub/chain/north';
import { brokenFiles, dataFilePath, readDamageMark } from '../db';

/** Below this much free space on the data folder's disk, the chain's support hears of it. */
export const DISK_LOW_BYTES = 500 * 1024 * 1024;
/** A data file past this size: orders are retired after days, so it grows only when something is wrong. */
export const DATA_FILE_LARGE_BYTES = 1024 * 1024 * 1024;
/** How long a look at the disk is kept. */
export const DISK_LOOK_EVERY_MS = 60_000;

export interface StorageFacts {
  /** The engine's or intake's storage failure code (STORE_FULL, STORE_WRITE), or null. */
  readonly writeFailure: string | null;
  /** Free bytes on the data folder's disk for this user, or null when unknown. */
  readonly freeBytes: number | null;
  readonly dataFileBytes: number | null;
  /**
   * The data file was found damaged: marked by the check after start (set aside at the next
   * start), or set aside and kept in the data folder for support, until someone deletes it.
   */
  readonly damaged: boolean;
}

/** The warnings these facts come to, in a fixed order (a change of order is no change). */
export function storageWarnings(facts: StorageFacts): StorageWarning[] {
  const warnings: StorageWarning[] = [];
  if (facts.writeFailure === 'STORE_FULL' || (facts.freeBytes !== null && facts.freeBytes < DISK_LOW_BYTES)) warnings.push('disk-low');
  if (facts.writeFailure !== null && facts.writeFailure !== 'STORE_FULL') warnings.push('data-file-unwritable');
  if (facts.dataFileBytes !== null && facts.dataFileBytes > DATA_FILE_LARGE_BYTES) warnings.push('data-file-large');
  if (facts.damaged) warnings.push('data-file-damaged');
  return warnings;
}

/** Free space, data file size and damage of a data folder, read at most once a minute. */
export function diskLook(dataDir: string, now: () => number, everyMs = DISK_LOOK_EVERY_MS): () => Omit<StorageFacts, 'writeFailure'> {
  let last: ({ at: number } & Omit<StorageFacts, 'writeFailure'>) | null = null;
  return () => {
    if (last && now() - last.at < everyMs) return last;
    let freeBytes: number | null = null;
    let dataFileBytes: number | null = null;
    try {
      const fs = statfsSync(dataDir);
      freeBytes = fs.bavail * fs.bsize;
    } catch {
      // Unknown: no warning rather than a false one.
    }
    try {
      dataFileBytes = statSync(dataFilePath(dataDir)).size;
    } catch {
      // No data file yet.
    }
    const damaged = readDamageMark(dataFilePath(dataDir)) !== null || brokenFiles(dataDir).length > 0;
    last = { at: now(), freeBytes, dataFileBytes, damaged };
    return last;
  };
}
