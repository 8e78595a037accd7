/**
 * Opens the terminal's SQLite file: WAL, synchronous=FULL (a committed tap survives a power cut),
 * foreign keys, a busy timeout for the CLI running next to the app, then a check of every page
 * (quick_check, now or beside the engine: later-check.ts) and migrations. A damaged file is moved aside and reported; this module never replaces it silently.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database, { type Database as Db } from 'better-sqlite3';
import { fail, ok, type Result } from '../../../shared/result';
import { type AlarmsTable, createAlarmsTable } from './alarms-table';
import { type AuditTable, createAuditTable } from './audit-table';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';
import { createHistoryTable, type HistoryTable } from './history-table';
import { createIntakeTable, type IntakeTable } from './intake-table';
import { createOrdersTable, type OrdersTable } from './orders-table';
import { createOrderSearch, type OrderSearch } from './order-search';
import { createLeaseTable, type LeaseTable } from './lease-table';
import { createOutboxTable, type OutboxTable } from './outbox-table';
import { createPackingTable, type PackingTable } from './packing-table';
import { createStaffTable, type StaffTable } from './staff-table';
import { createStoreTapsTable, type StoreTapsTable } from './store-taps-table';
import { createHubTapsTable, type HubTapsTable } from './hub-taps-table';
import { createConflictsTable, type ConflictsTable } from './conflicts-table';
import { CHECK_MMAP_BYTES, damageMarkPath, readDamageMark } from './later-check';
import { salvageInto, type SalvageReport } from './salvage';
import { fileSpace, type FileSpace, freeBytesAt, giveBackFreePages, incrementalIfEmpty, switchToIncremental, type SwitchOutcome } from './space';
import { damageIn, storageProblem } from './storage-error';

export const DATA_FILE_NAME = 'packdesk.sqlite';

/** Where the data file of a data folder lives. */
export function dataFilePath(dataDir: string): string {
  return path.join(dataDir, DATA_FILE_NAME);
}

/** The open store: its tables and a transaction runner. */
export interface Store {
  readonly file: string;
  readonly schemaVersion: number;
  readonly outbox: OutboxTable;
  readonly orders: OrdersTable;
  /** Finds orders by what a packer types (id, its last digits, name, phone, invoice). */
  readonly search: OrderSearch;
  readonly audit: AuditTable;
  readonly lease: LeaseTable;
  readonly intake: IntakeTable;
  readonly alarms: AlarmsTable;
  /** What happened on this terminal, read back: a day's taps and orders, an order's timeline, prints, daily figures. */
  readonly history: HistoryTable;
  /** The store's packers and their PIN salt (core/staff). */
  readonly staff: StaffTable;
  /** Scan to pack: units scanned and barcodes taught (core/packing). */
  readonly packing: PackingTable;
  /** Other counters' counted taps, heard through the store hub (the store's shift figures). */
  readonly storeTaps: StoreTapsTable;
  /** Every tap of other counters heard through the store hub (an order's timeline, slips, taps made apart). */
  readonly hubTaps: HubTapsTable;
  /** Orders packed twice while counters could not see each other (issue 39). */
  readonly conflicts: ConflictsTable;
  /** Runs `fn` in one IMMEDIATE transaction; when it returns, the changes are committed and fsync'd. */
  transaction<T>(fn: () => T): T;
  /**
   * `transaction`, with SQLite's secure_delete on: what `fn` deletes or overwrites (a customer's
   * details) is zeroed in the file, not left in its free space.
   */
  scrubbing<T>(fn: () => T): T;
  /**
   * Folds the whole WAL back and empties it, so no older copy of a page stays in it; gives up at
   * once (false) while another connection reads or writes, to be tried again later.
   */
  emptyWal(): boolean;
  /**
   * Which state of the data file this connection sees: its own count of changed rows and SQLite's
   * data_version (which moves whenever another connection, in this process or another, commits).
   * Equal generations mean nothing was written in between; read it inside a transaction.
   */
  generation(): string;
  /** The most SQLite keeps of this connection's pages in memory, KiB (its cache_size). */
  pageCacheKib(): number;
  /** `PRAGMA integrity_check`: 'ok' or what it found. */
  integrity(): 'ok' | string;
  /** Copies the outbox and orders rows SQLite can still read from a damaged file into this one. */
  salvageFrom(damagedFile: string, now: number): SalvageReport;
  /** Folds the WAL back into the main file (done when idle, off the tap path). */
  checkpoint(): void;
  /** The file's pages, free pages and auto-vacuum mode (space.ts). */
  space(): FileSpace;
  /**
   * Gives up to `maxPages` free pages back to the disk, one short transaction (incremental
   * auto-vacuum only; the file is cut at the next checkpoint). The free pages left.
   */
  giveBackFreePages(maxPages: number): number;
  /**
   * The one-time switch of a file made before auto-vacuum to incremental auto-vacuum (space.ts): a
   * VACUUM of the whole file, as long as the file is large, then the WAL emptied. Only with no
   * tap to wait behind it; a crash or failure meanwhile leaves the file as it was.
   */
  switchToIncrementalVacuum(): SwitchOutcome;
  close(): void;
}

export interface OpenStoreOptions {
  readonly dataDir: string;
  readonly now: () => number;
  readonly busyTimeoutMs?: number;
  /** Told where a damaged file was set aside (before STORE_BROKEN is returned), so it can be salvaged. */
  readonly onSetAside?: (target: string) => void;
  /**
   * When the pages are checked: 'now' (default) before the store is returned, or 'later' by the
   * caller with checkLater (the app: the packer need not wait for a whole-file read). Either way a
   * file marked damaged by an earlier check is set aside at once.
   */
  readonly openingCheck?: 'now' | 'later';
  /**
   * What this connection keeps in memory: SQLite's page cache, KiB (default DEFAULT_PAGE_CACHE_KIB),
   * and parsed order bodies (default orders-table's BODY_CACHE_SIZE). A second connection that
   * only writes what it reads once (intake's) needs little of either.
   */
  readonly memory?: { readonly pageCacheKib?: number; readonly bodies?: number };
}

/**
 * SQLite's page cache of the engine's connection, KiB (SQLite's default is 2 MB). A tap reads its
 * order's row and waiting taps: with 2 MB those pages were mostly gone again by the order's next tap
 * (bench/tap-durable.ts: tap p99 0.58-0.69 ms, 0.43-0.48 ms with 32 MB). Pages are held once read,
 * and listing the queue reads every body, so 32 MB a connection was held for good on a terminal
 * with 5,000 orders (its C heap settled at 35 MB with two connections; bench/memory.ts). With 8 MB
 * the cache filled during a 20-minute busy hour and was most of what the host's RSS grew (C heap
 * 13.3 -> 18.4 MB, RSS +5.9 %); with 4 MB the C heap grew 0.8 MB (RSS +2.3 %), while a tap's CPU
 * and p99 and the Orders search at 50,000 orders stayed as they were (docs/decisions.md).
 */
export const DEFAULT_PAGE_CACHE_KIB = 4_096;

class BrokenFile extends Error {}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Opens (creating if needed) `<dataDir>/packdesk.sqlite`. Failure codes:
 * STORE_BROKEN (damaged; the file was set aside, the message says where), STORE_TOO_NEW,
 * STORE_UNAVAILABLE (cannot open: permissions, disk; nothing was moved), STORE_FULL (the disk is full;
 * nothing was moved).
 */
export function openStore(options: OpenStoreOptions): Result<Store> {
  const file = dataFilePath(options.dataDir);
  try {
    fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    return fail('permanent', `Cannot create the data folder ${options.dataDir}: ${describe(e)}`, 'STORE_UNAVAILABLE');
  }
  let db: Db | undefined;
  try {
    // Checked before SQLite touches the file: closing a handle on a non-database may delete its -wal,
    // and support wants the companions exactly as they were.
    const header = readHeader(file);
    if (header !== null && header !== SQLITE_HEADER) throw new BrokenFile('file is not a database');
    const marked = readDamageMark(file);
    if (marked !== null) throw new BrokenFile(marked);
    ownerOnly(file);
    db = new Database(file, { timeout: options.busyTimeoutMs ?? 5000 });
    const opened = db;
    // A new file gives its free pages back to the disk (space.ts); the mode is only taken before
    // the first page is written, so before the journal mode.
    if (header === null) whileBusy(() => incrementalIfEmpty(opened), options.busyTimeoutMs ?? 5000);
    const mode = whileBusy(() => opened.pragma('journal_mode = WAL', { simple: true }), options.busyTimeoutMs ?? 5000);
    if (String(mode).toLowerCase() !== 'wal') throw new Error(`journal mode is ${String(mode)}, not WAL`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // A row replaced (INSERT OR REPLACE: a retired order's row is written anew) fires the delete
    // triggers of the row it replaces only with this on: the order finder's index (migration 7)
    // would otherwise keep the old row's trigrams, the customer's name and phone among them.
    db.pragma('recursive_triggers = ON');
    // Room for a busy store's working set (DEFAULT_PAGE_CACHE_KIB); pages are only held once read.
    db.pragma(`cache_size = -${Math.max(64, Math.round(options.memory?.pageCacheKib ?? DEFAULT_PAGE_CACHE_KIB))}`);
    // The engine folds the WAL back when idle (Store.checkpoint), so a tap does not pay for it;
    // SQLite's own checkpoint stays as a backstop for a process that never idles.
    db.pragma('wal_autocheckpoint = 10000');
    if (options.openingCheck !== 'later') {
      const integrity = whileBusy(() => runOpeningCheck(opened), options.busyTimeoutMs ?? 5000);
      if (integrity !== 'ok') throw new BrokenFile(integrity);
    }
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) {
      db.close();
      return fail(
        'permanent',
        `The data file ${file} was written by a newer Packdesk (schema ${version}, this one knows ${SCHEMA_VERSION}); update Packdesk`,
        'STORE_TOO_NEW',
      );
    }
    migrate(db, version);
    return ok(assemble(db, file, options.memory?.bodies));
  } catch (e) {
    try {
      db?.close();
    } catch {
      // Closing a damaged handle may fail too; the file is handled below either way.
    }
    if (e instanceof BrokenFile || damageIn(e) !== null) {
      const reason = describe(e);
      const moved = setAside(file, options.now());
      if (!moved.ok) return moved;
      // The reason is in the message below; the mark belonged to the file now set aside.
      fs.rmSync(damageMarkPath(file), { force: true });
      options.onSetAside?.(moved.value);
      return fail(
        'permanent',
        `The data file was damaged (${reason}). It was set aside as ${moved.value}; keep it for support.`,
        'STORE_BROKEN',
      );
    }
    if (diskFull(e, options.dataDir))
      return fail('storage', `The disk holding the data file ${file} is full, so it cannot be opened. Free disk space, then try again: nothing was changed`, 'STORE_FULL');
    return fail('permanent', `Cannot open the data file ${file}: ${describe(e)}`, 'STORE_UNAVAILABLE');
  }
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

/**
 * The file holds customer names, addresses and phones: it is created readable by the owner only,
 * and one left wider by an older version is narrowed. SQLite gives the -wal and -shm it creates the
 * main file's permissions; ones already there are narrowed too.
 */
export function ownerOnly(file: string): void {
  if (process.platform === 'win32') return; // NTFS ACLs of the user's profile folder apply instead
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      fs.chmodSync(file + suffix, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}

/** The first 16 bytes of the file as text; null when the file is missing or empty (SQLite will create it). */
function readHeader(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const buf = Buffer.alloc(16);
    const n = fs.readSync(fd, buf, 0, 16, 0);
    return n === 0 ? null : buf.subarray(0, n).toString('latin1');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Runs `step` again while SQLite says the file is busy, up to `timeoutMs`. Two processes opening a
 * new data folder at once can meet SQLITE_BUSY where SQLite does not wait on its busy timeout
 * itself (switching a new file to WAL, reading while another connection recovers the WAL), and
 * SQLITE_SCHEMA where the opening check connects the order finder's FTS5 table just as another
 * process commits a migration (seen about once in 1,000 starts in migration-race.test.ts).
 */
function whileBusy<T>(step: () => T, timeoutMs: number): T {
  const until = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return step();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (typeof code !== 'string' || !(code.startsWith('SQLITE_BUSY') || code === 'SQLITE_SCHEMA') || Date.now() >= until) throw e;
      Atomics.wait(pause, 0, 0, 15);
    }
  }
}

function runIntegrityCheck(db: Db, pragma: 'integrity_check' | 'quick_check' = 'integrity_check'): 'ok' | string {
  const rows = db.pragma(pragma) as Record<string, string>[];
  const lines = rows.map((r) => r[pragma] ?? '');
  if (lines.length === 1 && lines[0] === 'ok') return 'ok';
  return lines.slice(0, 5).join('; ') || 'integrity check returned nothing';
}


/**
 * The check every open runs, on the path from start to the first tap: `quick_check` reads every
 * page and finds what a bad disk or a torn write leaves (broken b-trees, pages lost or used twice,
 * unreadable records) in about a third of `integrity_check`'s time, which also compares every index
 * entry with its row (a logic fault, not a disk one; health() still runs it for doctor and support).
 * The file is memory-mapped only for the check, so everyday reads and writes stay as they were.
 */
function runOpeningCheck(db: Db): 'ok' | string {
  db.pragma(`mmap_size = ${CHECK_MMAP_BYTES}`);
  try {
    return runIntegrityCheck(db, 'quick_check');
  } finally {
    db.pragma('mmap_size = 0');
  }
}

/**
 * Runs the migrations the file lacks. The version is read again inside each IMMEDIATE transaction:
 * another process opening a new data folder at the same moment may have migrated it meanwhile.
 */
function migrate(db: Db, seen: number): void {
  if (seen >= SCHEMA_VERSION) return;
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    db.transaction(() => {
      const current = Number(db.pragma('user_version', { simple: true }));
      if (current >= m.version) return;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}

/** Files `packdesk.sqlite.broken-*` left in the data folder (their -wal/-shm companions not listed). */
export function brokenFiles(dataDir: string): string[] {
  try {
    return fs
      .readdirSync(dataDir)
      .filter((f) => f.startsWith(`${DATA_FILE_NAME}.broken-`) && !f.endsWith('-wal') && !f.endsWith('-shm'))
      .sort();
  } catch {
    return [];
  }
}

/** Below this, an I/O error opening the file is the disk being full (SQLite says only "disk I/O error" when the -shm cannot be made). */
const FULL_BELOW_BYTES = 1024 * 1024;

/** Whether a failure to open is a full disk: SQLite said so, or it could not write and the disk has (almost) no room. */
function diskFull(e: unknown, dir: string): boolean {
  const storage = storageProblem(e);
  if (storage === null) return false;
  if (storage.code === 'STORE_FULL') return true;
  const free = freeBytesAt(dir);
  return free !== null && free < FULL_BELOW_BYTES;
}

/** Moves the file and its -wal/-shm companions to `<file>.broken-<timestamp>`, keeping them openable together. */
function setAside(file: string, now: number): Result<string> {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  let target = `${file}.broken-${stamp}`;
  for (let n = 2; fs.existsSync(target); n++) target = `${file}.broken-${stamp}-${n}`;
  try {
    for (const suffix of ['', '-wal', '-shm']) {
      if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, target + suffix);
    }
    return ok(target);
  } catch (e) {
    return fail(
      'permanent',
      `The data file ${file} is damaged and could not be moved aside (${describe(e)}); call support`,
      'STORE_UNAVAILABLE',
    );
  }
}

function assemble(db: Db, file: string, bodies: number | undefined): Store {
  const run = db.transaction((fn: () => unknown) => fn());
  // Rewrites the schema version with its own value: one page, no change.
  const version = Number(db.pragma('user_version', { simple: true }));
  const restartWal = (): void => {
    run.immediate(() => db.pragma(`user_version = ${version}`));
  };
  // Runs `fn` with a numeric pragma set to `value`, and sets it back to what it was after.
  const withPragma = <T>(name: string, value: number, fn: () => T): T => {
    const was = Number(db.pragma(name, { simple: true }));
    db.pragma(`${name} = ${value}`);
    try {
      return fn();
    } finally {
      db.pragma(`${name} = ${was}`);
    }
  };
  // Two plain statements: the pragma_data_version table function in one SELECT cost five times as much.
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const emptyWal = (): boolean => {
    // Never waits: the page check's reader may hold a snapshot for seconds, and this is the main thread.
    const [done] = withPragma('busy_timeout', 0, () => db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[]);
    if (!done || done.busy !== 0) return false;
    restartWal();
    return true;
  };
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  return {
    file,
    schemaVersion: version,
    outbox: createOutboxTable(db),
    orders: createOrdersTable(db, bodies),
    search: createOrderSearch(db),
    audit: createAuditTable(db),
    lease: createLeaseTable(db),
    intake: createIntakeTable(db),
    alarms: createAlarmsTable(db),
    history: createHistoryTable(db),
    staff: createStaffTable(db),
    packing: createPackingTable(db),
    storeTaps: createStoreTapsTable(db),
    hubTaps: createHubTapsTable(db),
    conflicts: createConflictsTable(db),
    transaction: <T>(fn: () => T): T => run.immediate(fn) as T,
    scrubbing: <T>(fn: () => T): T => withPragma('secure_delete', 1, () => run.immediate(fn) as T),
    emptyWal,
    generation: () => `${String(totalChanges.get())}:${String(dataVersion.get())}`,
    pageCacheKib: () => {
      const size = Number(db.pragma('cache_size', { simple: true }));
      // Negative: KiB; positive: pages.
      return size < 0 ? -size : (size * Number(db.pragma('page_size', { simple: true }))) / 1024;
    },
    integrity: () => runIntegrityCheck(db),
    salvageFrom: (damagedFile, now) => salvageInto(damagedFile, db, now),
    checkpoint: () => {
      const [done] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      // With every frame folded back, the next commit starts the WAL over, and with synchronous=FULL
      // SQLite fsyncs the new WAL header before that commit's own fsync: two fsyncs in one tap. A
      // write of one unchanged page here starts the WAL over now, so the next tap pays one.
      if (done && done.busy === 0 && done.log > 0 && done.checkpointed === done.log) restartWal();
    },
    space: () => fileSpace(db),
    giveBackFreePages: (maxPages) => giveBackFreePages(db, maxPages),
    switchToIncrementalVacuum: () => {
      const outcome = switchToIncremental(db, file);
      if (outcome.kind === 'switched') emptyWal();
      return outcome;
    },
    close: () => {
      if (db.open) db.close();
    },
  };
}
