/** Really damaging a real SQLite file on disk, for the salvage tests (unit and end-to-end). */
import fs from 'node:fs';
import Database from 'better-sqlite3';

/** Overwrites whole pages of a closed database with a pattern SQLite cannot read as a page. */
export function damagePages(file: string, pages: readonly number[]): void {
  const fd = fs.openSync(file, 'r+');
  try {
    for (const page of pages) fs.writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, (page - 1) * 4096);
  } finally {
    fs.closeSync(fd);
  }
}

/** Leaf pages of a table, read with SQLite's dbstat table while the file is still sound. */
export function leafPages(file: string, table: string): number[] {
  const db = new Database(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    return (db.prepare(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno`).all(table) as { pageno: number }[]).map((r) => r.pageno);
  } finally {
    db.close();
  }
}
