/**
 * Salvage from a damaged data file, the way sqlite3's `.recover` works: read row by row and skip
 * what errors. Each row of the outbox and orders tables is looked up on its own by rowid, so a
 * damaged page loses only the rows on it; every row read passes the same parse as a live row
 * before it is written into the new file. The damaged file itself is never written: a copy in the
 * data folder is read and removed afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database, { type Database as Db } from 'better-sqlite3';
import { parseEntryRow, parseOrderRow } from './rows';

/** What was carried over from a damaged file. */
export interface SalvageReport {
  /** False when the file could not be opened as a database at all. */
  readonly opened: boolean;
  /** Outbox rows (taps) copied into the new file, and how many of them still wait to be sent. */
  readonly tapsRecovered: number;
  readonly tapsPending: number;
  /** Taps that could not be read (damaged pages, rows that do not parse); null when unknown. */
  readonly tapsLost: number | null;
  readonly ordersRecovered: number;
  readonly ordersLost: number;
}

const NOTHING: SalvageReport = { opened: false, tapsRecovered: 0, tapsPending: 0, tapsLost: null, ordersRecovered: 0, ordersLost: 0 };

// When the table's largest rowid cannot be read, look this far past the last row found.
const PROBE_PAST_LAST = 2000;

interface Walked {
  readonly rows: Record<string, unknown>[];
  /** Lookups that errored (a damaged page on the way to the row). */
  readonly errors: number;
  /** The largest rowid, when it could be read. */
  readonly maxRowid: number | null;
  /** Where the walk started: the smallest rowid, when it could be read, else 1. */
  readonly minRowid: number;
  /** How many rows the table holds, when an intact index (or the table) could count them. */
  readonly count: number | null;
}

/**
 * `max(rowid)`, `min(rowid)` or `count(*)` of the table: from the table itself, else from any of
 * its indexes (every index entry carries the rowid, so an intact index knows the rows a damaged
 * table page hid). Null when none can say.
 */
function askTable(db: Db, table: 'outbox' | 'orders', what: 'max(rowid)' | 'min(rowid)' | 'count(*)', indexesFirst = false): number | null {
  const own = `SELECT ${what} AS m FROM ${table}`;
  const byIndex: string[] = [];
  try {
    const indexes = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?`).all(table) as { name: string }[];
    for (const { name } of indexes) byIndex.push(`SELECT ${what} AS m FROM ${table} INDEXED BY "${name.replace(/"/g, '""')}"`);
  } catch {
    // The schema page itself is damaged; only the table can answer.
  }
  for (const sql of indexesFirst ? [...byIndex, own] : [own, ...byIndex]) {
    try {
      const row = db.prepare(sql).get() as { m: number | null };
      return row.m ?? 0;
    } catch {
      // That b-tree is damaged (or the index is partial and cannot be used alone): try the next.
    }
  }
  return null;
}

/** Every row of `table` that can be read, looked up one rowid at a time. */
function walk(db: Db, table: 'outbox' | 'orders'): Walked {
  const maxRowid = askTable(db, table, 'max(rowid)');
  // Pruning deletes the oldest rows (outbox/retire.ts): the walk starts at the first one left.
  const minRowid = Math.max(1, askTable(db, table, 'min(rowid)') ?? 1);
  // Counted on an index first: a damaged table page would hide its rows from the table's own count.
  const count = askTable(db, table, 'count(*)', true);
  const byRowid = db.prepare(`SELECT * FROM ${table} WHERE rowid = ?`);
  const rows: Record<string, unknown>[] = [];
  let errors = 0;
  let errorsPastLast = 0;
  let lastFound = 0;
  for (let rowid = minRowid; maxRowid === null ? rowid <= lastFound + PROBE_PAST_LAST : rowid <= maxRowid; rowid++) {
    try {
      const row = byRowid.get(rowid) as Record<string, unknown> | undefined;
      if (row) {
        rows.push(row);
        lastFound = rowid;
        errors += errorsPastLast;
        errorsPastLast = 0;
      }
    } catch {
      errorsPastLast += 1;
    }
  }
  // With no known end, failures after the last row found may be rows that never existed.
  if (maxRowid !== null) errors += errorsPastLast;
  return { rows, errors, maxRowid, minRowid, count };
}

function columnsOf(db: Db, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name);
}

/** Copies `damagedFile` (and its -wal) aside, reads what it can, and writes it into `target` in one transaction. */
export function salvageInto(damagedFile: string, target: Db, now: number): SalvageReport {
  const work = fs.mkdtempSync(path.join(path.dirname(target.name), '.salvage-'));
  try {
    const copy = path.join(work, 'copy.sqlite');
    fs.copyFileSync(damagedFile, copy);
    if (fs.existsSync(`${damagedFile}-wal`)) fs.copyFileSync(`${damagedFile}-wal`, `${copy}-wal`);
    let source: Db;
    try {
      source = new Database(copy, { fileMustExist: true });
      source.prepare('SELECT count(*) FROM sqlite_schema').get();
    } catch {
      return NOTHING;
    }
    try {
      return copyRows(source, target, now);
    } finally {
      source.close();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function copyRows(source: Db, target: Db, now: number): SalvageReport {
  let orders: Walked;
  let outbox: Walked;
  try {
    orders = walk(source, 'orders');
    outbox = walk(source, 'outbox');
  } catch {
    // The schema itself is unreadable: no table can be found.
    return { ...NOTHING, opened: true };
  }
  const orderColumns = columnsOf(target, 'orders');
  const outboxColumns = columnsOf(target, 'outbox');
  const insertOrder = target.prepare(
    `INSERT INTO orders (${orderColumns.join(', ')}) VALUES (${orderColumns.map((c) => `@${c}`).join(', ')}) ON CONFLICT (id) DO NOTHING`,
  );
  const ensureOrder = target.prepare(`INSERT INTO orders (id, added_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`);
  const insertEntry = target.prepare(
    `INSERT INTO outbox (${outboxColumns.join(', ')}) VALUES (${outboxColumns.map((c) => `@${c}`).join(', ')}) ON CONFLICT DO NOTHING`,
  );
  const pick = (row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> =>
    Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));

  let ordersRecovered = 0;
  let ordersUnparsed = 0;
  let tapsRecovered = 0;
  let tapsPending = 0;
  let tapsUnparsed = 0;
  target.transaction(() => {
    for (const row of orders.rows) {
      try {
        parseOrderRow(row);
      } catch {
        ordersUnparsed += 1;
        continue;
      }
      ordersRecovered += insertOrder.run(pick(row, orderColumns)).changes;
    }
    for (const row of outbox.rows) {
      let entry;
      try {
        entry = parseEntryRow(row);
      } catch {
        tapsUnparsed += 1;
        continue;
      }
      // A tap whose order row was on a damaged page still needs its order to exist.
      ensureOrder.run(entry.orderId, now);
      const written = insertEntry.run(pick(row, outboxColumns)).changes;
      tapsRecovered += written;
      if (written > 0 && (entry.state === 'queued' || entry.state === 'sending' || entry.state === 'failed')) tapsPending += 1;
    }
  }).immediate();
  // Settled taps are pruned after 180 days, so the rowids up to the largest are not all taps: what
  // an intact index counts is. Without one, the rowids from the first to the last left (a guess
  // that counts pruned gaps between old kept taps as lost).
  const tapsLost =
    outbox.count !== null
      ? Math.max(0, outbox.count - tapsRecovered)
      : outbox.maxRowid === null
        ? null
        : Math.max(0, outbox.maxRowid - outbox.minRowid + 1 - tapsRecovered);
  return {
    opened: true,
    tapsRecovered,
    tapsPending,
    tapsLost: tapsLost ?? (outbox.errors + tapsUnparsed),
    ordersRecovered,
    ordersLost: orders.errors + ordersUnparsed,
  };
}

/** The report in words for the manager and support. */
export function describeSalvage(report: SalvageReport): string {
  if (!report.opened || (report.tapsRecovered === 0 && report.ordersRecovered === 0 && !report.tapsLost))
    return 'No taps could be recovered from it; taps in it were not sent by this terminal.';
  const total = report.tapsLost === null ? null : report.tapsRecovered + report.tapsLost;
  const of = total === null ? `${report.tapsRecovered} taps` : `${report.tapsRecovered} of ${total} taps`;
  const lost = report.tapsLost === null ? 'an unknown number' : String(report.tapsLost);
  return (
    `Recovered ${of} (${report.tapsPending} still to send) and ${report.ordersRecovered} orders into the new file; ` +
    `${lost} could not be read${report.ordersLost > 0 ? ` (and ${report.ordersLost} orders)` : ''} and were not sent by this terminal.`
  );
}
