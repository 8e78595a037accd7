/**
 * The data file's space. Pruning (outbox/retire.ts) frees pages, but SQLite keeps a freed page in
 * the file for reuse: the file stays at the most it ever held, and a year with a busier season
 * than the last left it larger for good. With auto_vacuum = INCREMENTAL, free pages can be given
 * back to the disk a few at a time (`PRAGMA incremental_vacuum`), so the file is the pages in use.
 *
 * A new data file gets the mode when it is created (openStore, before any table). A file made by an
 * earlier Packdesk needs one VACUUM to switch: a rewrite of the whole file, done by the engine at a
 * quiet moment (engine.ts). VACUUM is one transaction (in WAL mode its pages go through the WAL and
 * count only once committed), so a crash or a full disk during it leaves the file as it was before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database as Db } from 'better-sqlite3';

/** SQLite's auto_vacuum modes, by the number `PRAGMA auto_vacuum` answers. */
export type VacuumMode = 'none' | 'full' | 'incremental';
const MODES: readonly VacuumMode[] = ['none', 'full', 'incremental'];

export interface FileSpace {
  readonly mode: VacuumMode;
  readonly pageSize: number;
  /** Pages in the file (as its last commit left it; the WAL may not be folded back yet). */
  readonly pages: number;
  /** Of those, pages that hold nothing (SQLite's freelist). */
  readonly freePages: number;
}

/**
 * Room on disk a switch must find besides the file itself: the VACUUM writes the new file to a
 * temporary one and then, page by page, into the WAL. Below this much left over it waits.
 */
const SPARE_BYTES = 64 * 1024 * 1024;

export type SwitchOutcome =
  | { readonly kind: 'already' }
  | { readonly kind: 'switched'; readonly bytesBefore: number; readonly pagesAfter: number }
  | { readonly kind: 'no-room'; readonly needBytes: number; readonly freeBytes: number; readonly where: string };

export function fileSpace(db: Db): FileSpace {
  const n = (pragma: string) => Number(db.pragma(pragma, { simple: true }));
  return { mode: MODES[n('auto_vacuum')] ?? 'none', pageSize: n('page_size'), pages: n('page_count'), freePages: n('freelist_count') };
}

/**
 * Set on a file that has no table yet (a new data folder), before the journal mode: after the
 * file's first page is written SQLite no longer takes it. Said where it is not set (a file with
 * tables keeps its mode until `switchToIncremental`).
 */
export function incrementalIfEmpty(db: Db): void {
  const tables = Number(db.prepare('SELECT COUNT(*) FROM sqlite_schema').pluck().get());
  if (tables === 0) db.pragma('auto_vacuum = INCREMENTAL');
}

/**
 * Gives up to `maxPages` free pages back (one short transaction: pages from the end of the file
 * move into the free ones, and the file is cut at the next checkpoint). The free pages left.
 * Nothing happens in any other mode.
 */
export function giveBackFreePages(db: Db, maxPages: number): number {
  if (fileSpace(db).mode !== 'incremental') return 0;
  db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(maxPages))})`);
  return Number(db.pragma('freelist_count', { simple: true }));
}

/** Bytes free for this user on the file system holding `dir`; null where it cannot be told. */
export function freeBytesAt(dir: string): number | null {
  try {
    const s = fs.statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/** Where SQLite puts its temporary files on this system (os.c's order; TMPDIR first, as Node's own). */
function sqliteTempDir(): string {
  if (process.platform === 'win32') return os.tmpdir();
  return process.env.SQLITE_TMPDIR ?? process.env.TMPDIR ?? '/var/tmp';
}

/**
 * The one-time switch of an existing file to incremental auto-vacuum: one VACUUM, which rewrites
 * the whole file (every row keeps its rowid: the order finder's index refers to the orders' rowids,
 * test/main/core/db/space.test.ts). Takes as long as the file is large and holds the write lock
 * meanwhile: call it only with no tap to wait behind it. Waits ('no-room') while the disk has too
 * little room for the copies it writes. Throws what SQLite throws (busy, full disk): the file is
 * then as it was. Not inside a transaction.
 */
export function switchToIncremental(db: Db, file: string): SwitchOutcome {
  const before = fileSpace(db);
  if (before.mode === 'incremental') return { kind: 'already' };
  const used = (before.pages - before.freePages) * before.pageSize;
  const dataDir = path.dirname(file);
  // The copy in the temporary file, then the same pages in the WAL: twice over where both are one disk.
  const tempDir = sqliteTempDir();
  const sameDisk = fs.existsSync(tempDir) && fs.statSync(tempDir).dev === fs.statSync(dataDir).dev;
  const needs: [string, number][] = sameDisk ? [[dataDir, 2 * used + SPARE_BYTES]] : [[dataDir, used + SPARE_BYTES], [tempDir, used + SPARE_BYTES]];
  for (const [where, needBytes] of needs) {
    const freeBytes = freeBytesAt(where);
    if (freeBytes !== null && freeBytes < needBytes) return { kind: 'no-room', needBytes, freeBytes, where };
  }
  const bytesBefore = fs.statSync(file).size;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  // The new file is in the WAL until it is folded back (Store.emptyWal); then the main file is cut to it.
  return { kind: 'switched', bytesBefore, pagesAfter: Number(db.pragma('page_count', { simple: true })) };
}
