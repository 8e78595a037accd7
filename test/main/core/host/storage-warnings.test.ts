/**
 * The storage warnings a counter sends north: from a storage failure the engine or intake reports,
 * from free space on the data folder's real disk, and from the real data file's size (a sparse
 * file stands in for a grown one), looked at once a minute.
 */
import { truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_FILE_LARGE_BYTES, DISK_LOW_BYTES, diskLook, storageWarnings } from '../../../../src/main/core/host/storage-warnings';
import { CounterHealthSchema } from '../../../../src/fleet/north';
import { DATA_FILE_NAME } from '../../../../src/main/core/db/store';
import { Cleanup, tempDir } from '../../../support/engine';

describe('storage warnings', () => {
  const cleanup = new Cleanup();
  afterAll(() => cleanup.run());

  it('say a full disk, an unwritable data file, little free space and a large data file, and nothing when all is well', () => {
    const fine = { writeFailure: null, freeBytes: 50 * DISK_LOW_BYTES, dataFileBytes: 10_000_000 };
    expect(storageWarnings(fine)).toEqual([]);
    expect(storageWarnings({ ...fine, writeFailure: 'STORE_FULL' })).toEqual(['disk-low']);
    expect(storageWarnings({ ...fine, writeFailure: 'STORE_WRITE' })).toEqual(['data-file-unwritable']);
    expect(storageWarnings({ ...fine, freeBytes: DISK_LOW_BYTES - 1 })).toEqual(['disk-low']);
    expect(storageWarnings({ ...fine, dataFileBytes: DATA_FILE_LARGE_BYTES + 1 })).toEqual(['data-file-large']);
    expect(storageWarnings({ writeFailure: null, freeBytes: null, dataFileBytes: null })).toEqual([]);
    // Every code is one the north schema carries.
    const all = storageWarnings({ writeFailure: 'STORE_WRITE', freeBytes: 0, dataFileBytes: DATA_FILE_LARGE_BYTES * 2 });
    expect(all).toEqual(['disk-low', 'data-file-unwritable', 'data-file-large']);
    expect(CounterHealthSchema.shape.storageWarnings.safeParse(all).success).toBe(true);
  });

  it('reads the data folder’s disk and data file, at most once a minute', () => {
    const dir = tempDir(cleanup, 'packdesk-storage-');
    let now = 1_000_000;
    const look = diskLook(dir, () => now);
    const first = look();
    expect(first.freeBytes).toBeGreaterThan(0);
    expect(first.dataFileBytes).toBeNull();
    // A data file grown past the bound (sparse: it takes no space).
    const file = path.join(dir, DATA_FILE_NAME);
    writeFileSync(file, '');
    truncateSync(file, DATA_FILE_LARGE_BYTES + 4096);
    expect(look().dataFileBytes).toBeNull();
    now += 60_000;
    expect(look().dataFileBytes).toBe(DATA_FILE_LARGE_BYTES + 4096);
    expect(storageWarnings({ writeFailure: null, ...look() })).toContain('data-file-large');
  });
});
