/**
 * A counter's storage warnings, as the codes its health carries north (docs/fleet.md): what the
 * engine and intake report (the data file refused writes: a full disk, or unwritable), free space
 * on the data folder's disk below a floor, and a data file grown past what a counter should hold.
 * The disk is looked at once a minute at most: the north sender asks every second for a change.
 */
import { statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { StorageWarning } from '../../../fleet/north';
import { DATA_FILE_NAME } from '../db/store';

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
}

/** The warnings these facts come to, in a fixed order (a change of order is no change). */
export function storageWarnings(facts: StorageFacts): StorageWarning[] {
  const warnings: StorageWarning[] = [];
  if (facts.writeFailure === 'STORE_FULL' || (facts.freeBytes !== null && facts.freeBytes < DISK_LOW_BYTES)) warnings.push('disk-low');
  if (facts.writeFailure !== null && facts.writeFailure !== 'STORE_FULL') warnings.push('data-file-unwritable');
  if (facts.dataFileBytes !== null && facts.dataFileBytes > DATA_FILE_LARGE_BYTES) warnings.push('data-file-large');
  return warnings;
}

/** Free space and data file size of a data folder, read at most once a minute. */
export function diskLook(dataDir: string, now: () => number, everyMs = DISK_LOOK_EVERY_MS): () => { freeBytes: number | null; dataFileBytes: number | null } {
  let last: { at: number; freeBytes: number | null; dataFileBytes: number | null } | null = null;
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
      dataFileBytes = statSync(path.join(dataDir, DATA_FILE_NAME)).size;
    } catch {
      // No data file yet.
    }
    last = { at: now(), freeBytes, dataFileBytes };
    return last;
  };
}
