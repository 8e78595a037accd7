/**
 * The storage warnings a counter sends north: from a storage failure the engine or intake reports,
 * from free space on the data folder's real disk, from the real data file's size (a sparse
 * file stands in for a grown one), and from a damaged data file's mark or set-aside copy, looked
 * at once a minute.
 */
import { rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_FILE_LARGE_BYTES, DISK_LOW_BYTES, diskLook, storageWarnings } from '../../../../src/main/core/host/storage-warnings';
import { CounterHealthSchema } from '../../../../src/main/core/hub/chain/north';
import { DATA_FILE_NAME, markDamaged } from '../../../../src/main/core/db';
import { Cleanup, tempDir } from '../../../support/engine';

describe('storage warnings', () => {
  const cleanup = new Cleanup();
  afterAll(() => cleanup.run());

  it('say a full disk, an unwritable data file, little free space, a large data file and a damaged one, and nothing when all is well', () => {
    const fine = { writeFailure: null, freeBytes: 50 * DISK_LOW_BYTES, dataFileBytes: 10_000_000, damaged: false };
    expect(storageWarnings(fine)).toEqual([]);
    expect(storageWarnings({ ...fine, writeFailure: 'STORE_FULL' })).toEqual(['disk-low']);
    expect(storageWarnings({ ...fine, writeFailure: 'STORE_WRITE' })).toEqual(['data-file-unwritable']);
    expect(storageWarnings({ ...fine, freeBytes: DISK_LOW_BYTES - 1 })).toEqual(['disk-low']);
    expect(storageWarnings({ ...fine, dataFileBytes: DATA_FILE_LARGE_BYTES + 1 })).toEqual(['data-file-large']);
    expect(storageWarnings({ ...fine, damaged: true })).toEqual(['data-file-damaged']);
    expect(storageWarnings({ writeFailure: null, freeBytes: null, dataFileBytes: null, damaged: false })).toEqual([]);
    // Every code is one the north schema carries.
    const all = storageWarnings({ writeFailure: 'STORE_WRITE', freeBytes: 0, dataFileBytes: DATA_FILE_LARGE_BYTES * 2, damaged: true });
    expect(all).toEqual(['disk-low', 'data-file-unwritable', 'data-file-large', 'data-file-damaged']);
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
    expect(look().damaged).toBe(false);
  });

  it('say a damaged data file from its mark until it is set aside, and while the set-aside file is kept for support', () => {
    const dir = tempDir(cleanup, 'packdesk-storage-');
    let now = 1_000_000;
    const look = diskLook(dir, () => now);
    const file = path.join(dir, DATA_FILE_NAME);
    writeFileSync(file, '');
    expect(look().damaged).toBe(false);
    // The check after start found damage: the file is marked, and set aside at the next start.
    markDamaged(file, 'database disk image is malformed');
    now += 60_000;
    expect(storageWarnings({ writeFailure: null, ...look() })).toEqual(['data-file-damaged']);
    // Set aside (a new data file in its place), with its companions: still said while it is kept.
    rmSync(`${file}.damaged`);
    writeFileSync(`${file}.broken-2026-11-27T10-00-00-000Z`, 'x');
    writeFileSync(`${file}.broken-2026-11-27T10-00-00-000Z-wal`, 'x');
    now += 60_000;
    expect(look().damaged).toBe(true);
    // Support took it and deleted it: no longer said (a -wal left behind is no damaged file).
    rmSync(`${file}.broken-2026-11-27T10-00-00-000Z`);
    now += 60_000;
    expect(storageWarnings({ writeFailure: null, ...look() })).toEqual([]);
  });
});
