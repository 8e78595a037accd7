import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataFilePath, type NewEntry, openStore, SCHEMA_VERSION, type Store } from '../../../../src/main/core/db';
import type { Action } from '../../../../src/shared/protocol';
import { MIGRATIONS } from '../../../../src/main/core/db/migrations';
import { ORDERS_LISTING_COLUMNS } from '../../../../src/main/core/db/rows';
import { Cleanup, tempDir } from '../../../support/engine';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const NOW = Date.UTC(2025, 0, 15, 9, 30);

const ACCEPT: Action = { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' };
const invoice = (n: number): Action => ({ type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: `INV-${n}` } });

/** A new entry of terminal T1 tapped at NOW, from a fresh random UUID unless one is given. */
function newEntry(orderId: string, action: Action, randomId: string = randomUUID()): NewEntry {
  return { randomId, orderId, action, createdAt: NOW, sendAfter: NOW, terminalId: 'T1' };
}

function open(dir: string): Store {
  const r = openStore({ dataDir: dir, now: () => NOW });
  if (!r.ok) throw new Error(r.problem.message);
  cleanup.add(() => r.value.close());
  return r.value;
}

// Reads pragmas with a plain connection: this test checks what is on disk, not the store's own view.
function pragmas(file: string): Record<string, unknown> {
  const db = new Database(file, { readonly: true });
  try {
    return {
      journal_mode: db.pragma('journal_mode', { simple: true }),
      user_version: db.pragma('user_version', { simple: true }),
      tables: (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((t) => t.name),
    };
  } finally {
    db.close();
  }
}

describe('store', () => {
  it('creates packdesk.sqlite in WAL mode with the current schema and keeps rows across reopen', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    expect(store.file).toBe(path.join(dir, 'packdesk.sqlite'));
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.integrity()).toBe('ok');
    const { requestId } = store.transaction(() => {
      store.orders.ensure('ORD-1', NOW);
      return store.outbox.insert(newEntry('ORD-1', ACCEPT));
    });
    store.close();

    const info = pragmas(dataFilePath(dir));
    expect(info.journal_mode).toBe('wal');
    expect(info.user_version).toBe(SCHEMA_VERSION);
    expect(info.tables).toEqual(expect.arrayContaining(['audit', 'orders', 'outbox']));

    const again = open(dir);
    const entry = again.outbox.byRequestId(requestId);
    expect(entry).toMatchObject({ orderId: 'ORD-1', seq: 1, state: 'queued', attempts: 0 });
  });

  it('numbers entries per order in tap order', () => {
    const store = open(tempDir(cleanup));
    store.orders.ensure('A', NOW);
    store.orders.ensure('B', NOW);
    const add = (orderId: string, n: number) => store.outbox.insert(newEntry(orderId, invoice(n)));
    expect([add('A', 1).seq, add('B', 1).seq, add('A', 2).seq, add('A', 3).seq, add('B', 2).seq]).toEqual([1, 1, 2, 3, 2]);
  });

  it('counts what waits and what failed from the state index alone, the same as counting every row', () => {
    const store = open(tempDir(cleanup));
    expect(store.outbox.counts()).toEqual({ waiting: 0, sending: 0, failed: 0, mayBeApplied: 0, oldestWaitingAt: null });
    const states = ['queued', 'sending', 'sent', 'failed', 'discarded'] as const;
    for (let n = 0; n < 60; n++) {
      const orderId = `ORD-${n % 7}`;
      store.orders.ensure(orderId, NOW);
      store.outbox.insert({ ...newEntry(orderId, invoice(n)), createdAt: NOW - 1_000 * ((n * 37) % 61), sendAfter: NOW });
    }
    // Every state, some failed entries that may already be applied, in no order of creation.
    const raw = new Database(store.file);
    try {
      const set = raw.prepare(`UPDATE outbox SET state = ?, may_be_applied = ? WHERE id = ?`);
      const ids = raw.prepare(`SELECT id FROM outbox ORDER BY id`).pluck().all() as number[];
      ids.forEach((id, i) => set.run(states[(i * 3) % states.length], states[(i * 3) % states.length] === 'failed' && i % 2 === 0 ? 1 : 0, id));
      // Counted row by row, as the store counted before.
      const expected = raw
        .prepare(
          `SELECT SUM(state IN ('queued', 'sending')) AS waiting, SUM(state = 'sending') AS sending, SUM(state = 'failed') AS failed,
                  SUM(state = 'failed' AND may_be_applied = 1) AS mayBeApplied, MIN(CASE WHEN state IN ('queued', 'sending') THEN created_at END) AS oldestWaitingAt
           FROM outbox`,
        )
        .get() as { waiting: number; sending: number; failed: number; mayBeApplied: number; oldestWaitingAt: number };
      expect(expected.failed).toBeGreaterThan(expected.mayBeApplied);
      expect(expected.mayBeApplied).toBeGreaterThan(0);
      expect(store.outbox.counts()).toEqual(expected);
      // The oldest waiting entry is a sending one: still the oldest of both.
      raw.prepare(`UPDATE outbox SET created_at = ? WHERE id = (SELECT MIN(id) FROM outbox WHERE state = 'sending')`).run(NOW - 999_999);
      expect(store.outbox.counts()).toEqual({ ...expected, oldestWaitingAt: NOW - 999_999 });
      // Nothing waits: no oldest.
      raw.prepare(`UPDATE outbox SET state = 'sent' WHERE state IN ('queued', 'sending')`).run();
      expect(store.outbox.counts()).toEqual({ waiting: 0, sending: 0, failed: expected.failed, mayBeApplied: expected.mayBeApplied, oldestWaitingAt: null });
    } finally {
      raw.close();
    }
  });

  it('gives every entry of a file its own requestId, made from its row id, even from the same random UUID', () => {
    const store = open(tempDir(cleanup));
    store.orders.ensure('A', NOW);
    const same = '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c';
    const entries = Array.from({ length: 300 }, (_, n) => store.outbox.insert(newEntry('A', invoice(n), same)));
    expect(new Set(entries.map((e) => e.requestId)).size).toBe(300);
    // A UUID (version 8): the random part kept, the row id in the last 12 hex digits.
    expect(entries[0]!.requestId).toBe(`3f2b8c1e-9d4a-8e7b-a1c2-${entries[0]!.id.toString(16).padStart(12, '0')}`);
    for (const e of entries) expect(e.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // What was returned is what was written.
    expect(entries.map((e) => store.outbox.get(e.id)?.requestId)).toEqual(entries.map((e) => e.requestId));
    expect(() => store.outbox.insert(newEntry('A', ACCEPT, 'req-1'))).toThrow(/random UUID/);
  });

  it('moves a version 2 file to the outbox without the request_id index, keeping every row as it was', () => {
    const dir = tempDir(cleanup);
    fs.mkdirSync(dir, { recursive: true });
    const old = new Database(dataFilePath(dir));
    old.pragma('journal_mode = WAL');
    for (const m of MIGRATIONS.filter((m) => m.version <= 2)) old.exec(m.sql);
    old.pragma('user_version = 2');
    old.prepare(`INSERT INTO orders (id, added_at) VALUES ('ORD-1', 1)`).run();
    const insertOld = old.prepare(
      `INSERT INTO outbox (request_id, order_id, seq, action, state, created_at, send_after, attempts, updated_at, terminal_id, last_error)
       VALUES (?, 'ORD-1', ?, '{"type":"ORDER_STATE_UPDATE","orderState":"ACCEPTED"}', ?, 1, 1, 0, 1, 'T1', ?)`,
    );
    insertOld.run('6b1f0c9e-1111-4a2b-9c3d-000000000007', 1, 'sent', null);
    insertOld.run('6b1f0c9e-2222-4a2b-9c3d-000000000008', 2, 'failed', '{"kind":"permanent","code":"X","message":"no"}');
    const before = old.prepare(`SELECT * FROM outbox ORDER BY id`).all();
    old.close();

    const store = open(dir);
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.integrity()).toBe('ok');
    const raw = new Database(dataFilePath(dir), { readonly: true });
    try {
      // Every row as it was, with the columns later migrations added empty (units_before: not a unit cut; packer: made before
      // schema 12; hub_unchecked and hub_seen: made before schema 15, in no store hub).
      expect(raw.prepare(`SELECT * FROM outbox ORDER BY id`).all()).toEqual(
        before.map((r) => ({ ...(r as object), units_before: null, packer: null, hub_unchecked: null, hub_seen: null })),
      );
      const indexes = (raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox' ORDER BY name`).all() as { name: string }[]).map(
        (r) => r.name,
      );
      // (order_id, seq) stays unique; request_id has no index of its own any more.
      expect(indexes).toEqual(['outbox_awaiting', 'outbox_hub_unchecked', 'outbox_state', 'sqlite_autoindex_outbox_1']);
      expect(raw.prepare(`PRAGMA index_info('sqlite_autoindex_outbox_1')`).all().map((r) => (r as { name: string }).name)).toEqual(['order_id', 'seq']);
    } finally {
      raw.close();
    }
    // The next tap continues after the old rows, and the old ones keep their requestIds.
    const next = store.outbox.insert(newEntry('ORD-1', ACCEPT));
    expect(next).toMatchObject({ id: 3, seq: 3 });
    expect(next.requestId.endsWith('-000000000003')).toBe(true);
    expect(store.outbox.byRequestId('6b1f0c9e-2222-4a2b-9c3d-000000000008')).toMatchObject({ id: 2, state: 'failed' });
  });

  it("lists the queue from the listing index alone, never reading the orders' bodies (a version 4 file gains it)", () => {
    const dir = tempDir(cleanup);
    fs.mkdirSync(dir, { recursive: true });
    const old = new Database(dataFilePath(dir));
    for (const m of MIGRATIONS.filter((m) => m.version <= 4)) old.exec(m.sql);
    old.pragma('user_version = 4');
    old.prepare(`INSERT INTO orders (id, added_at, body, body_rev, synced_at) VALUES ('ORD-2', 2, ?, 1, 5)`).run(JSON.stringify(sampleOrder({ id: 'ORD-2' })));
    old.prepare(`INSERT INTO orders (id, added_at) VALUES ('ORD-1', 1)`).run();
    old.close();

    const store = open(dir);
    expect(store.orders.list().map((r) => [r.id, r.body?.id ?? null, r.syncedAt])).toEqual([
      ['ORD-1', null, null],
      ['ORD-2', 'ORD-2', 5],
    ]);
    const raw = new Database(dataFilePath(dir), { readonly: true });
    try {
      const plan = raw.prepare(`EXPLAIN QUERY PLAN SELECT ${ORDERS_LISTING_COLUMNS} FROM orders WHERE removed_at IS NULL ORDER BY added_at, id`).all();
      expect(plan.map((r) => (r as { detail: string }).detail)).toEqual(['SCAN orders USING COVERING INDEX orders_listing']);
    } finally {
      raw.close();
    }
  });

  it('prunes audit lines older than a cut-off and keeps the rest', () => {
    const store = open(tempDir(cleanup));
    store.transaction(() => {
      for (let i = 0; i < 1000; i++) store.audit.add({ time: i * 10, terminal: 'T1', kind: 'tap', outcome: 'queued', message: `tap ${i}` });
    });
    expect(store.audit.prune(5000)).toBe(500);
    const left = store.audit.recent(10_000);
    expect(left).toHaveLength(500);
    expect(left[0]).toMatchObject({ time: 5000, message: 'tap 500' });
    expect(store.audit.prune(5000)).toBe(0);
    expect(store.audit.prune(0)).toBe(0);
    expect(store.audit.prune(100_000)).toBe(500);
    expect(store.audit.prune(100_000)).toBe(0);
  });

  it('reads no whole table of history in any statement it prepares, apart from the ones that say why', () => {
    // Every statement the store prepares, caught as it opens.
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const store = open(tempDir(cleanup));
    const statements = [...new Set(prepare.mock.calls.map(([sql]) => String(sql)))].filter((sql) => /^\s*(SELECT|INSERT|UPDATE|DELETE)/i.test(sql));
    prepare.mockRestore();
    // Walks that stop early or that serve support, not a tap, an answer or a start.
    const allowed: readonly [RegExp, string][] = [
      [/ORDER BY id DESC LIMIT \?\) ORDER BY id$/, 'the newest rows: stops after LIMIT'],
      [/FROM orders WHERE removed_at IS NULL/, "the queue's listing: the covering index of orders on the terminal"],
      [/FROM outbox WHERE awaiting_refresh = 1/, 'the partial index of sent entries whose answer was unreadable (rarely any)'],
      [/FROM outbox WHERE hub_unchecked = 1/, 'the partial index of taps made while other counters could not be checked (a handful after the hub was away)'],
      [/FROM outbox WHERE request_id = \?/, 'support looks an entry up by requestId (no index: it would be one more page per tap)'],
      [/FROM audit WHERE kind = \? AND outcome = \? ORDER BY id DESC LIMIT 1/, 'the health check after a salvage: newest first'],
      [/FROM audit WHERE entry_id = \?/, "support reads one entry's audit lines"],
    ];
    const raw = new Database(store.file, { readonly: true });
    try {
      const walks: string[] = [];
      for (const sql of statements) {
        const named = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1] ?? ''))];
        const plan = raw.prepare(`EXPLAIN QUERY PLAN ${sql}`);
        const rows = (named.length > 0 ? plan.all(Object.fromEntries(named.map((n) => [n, null]))) : plan.all(...Array<null>((sql.match(/\?/g) ?? []).length).fill(null))) as { detail: string }[];
        const flat = sql.replace(/\s+/g, ' ').trim();
        if (rows.some((r) => /^SCAN (outbox|audit|orders)\b/.test(r.detail)) && !allowed.some(([pattern]) => pattern.test(flat))) walks.push(flat);
      }
      expect(statements.length).toBeGreaterThan(30);
      expect(walks).toEqual([]);
    } finally {
      raw.close();
    }
  });

  it('starts the WAL over in checkpoint(), so the next tap commits with one fsync, not two', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    const wal = `${store.file}-wal`;
    // The salts in the WAL header change each time SQLite starts the WAL over; starting over with
    // synchronous=FULL fsyncs the new header before the commit's own fsync.
    const salts = (): string => fs.readFileSync(wal).subarray(16, 24).toString('hex');
    const tap = (n: number): boolean => store.transaction(() => store.orders.ensure(`ORD-${n}`, NOW));
    tap(1);
    tap(2);
    store.checkpoint();
    const afterCheckpoint = salts();
    tap(3);
    expect(salts()).toBe(afterCheckpoint);
    store.checkpoint();
    expect(salts()).not.toBe(afterCheckpoint);
    expect(store.orders.count()).toBe(3);
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(pragmas(store.file).user_version).toBe(SCHEMA_VERSION);
  });

  it('sets an unreadable file aside with its -wal and -shm and says where, never opening over it', () => {
    const dir = tempDir(cleanup);
    const file = dataFilePath(dir);
    fs.writeFileSync(file, Buffer.from('this is not a database, it is a shopping list '.repeat(200)));
    fs.writeFileSync(`${file}-wal`, 'junk');
    const r = openStore({ dataDir: dir, now: () => NOW });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problem.code).toBe('STORE_BROKEN');
    const aside = `${file}.broken-2025-01-15T09-30-00-000Z`;
    expect(r.problem.message).toContain(aside);
    expect(fs.existsSync(aside)).toBe(true);
    expect(fs.existsSync(`${aside}-wal`)).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readFileSync(aside, 'utf8')).toContain('shopping list');
  });

  it('sets aside a file whose pages fail the integrity check', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    store.transaction(() => {
      for (let i = 0; i < 300; i++) store.orders.ensure(`ORD-${i}-${'x'.repeat(100)}`, NOW);
    });
    store.close();
    // Overwrite a page in the middle of the file (not the header): SQLite still opens it, integrity_check does not pass.
    const file = dataFilePath(dir);
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 4096 * 3);
    fs.closeSync(fd);
    const r = openStore({ dataDir: dir, now: () => NOW });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.code).toBe('STORE_BROKEN');
    expect(fs.readdirSync(dir).some((f) => f.startsWith('packdesk.sqlite.broken-'))).toBe(true);
  });

  it("reads an order's body again only when a write changed it, whichever process wrote it", () => {
    const dir = tempDir(cleanup);
    const mine = open(dir);
    const body = (state: string) => ({ id: 'ORD-1', orderState: state, items: [], fulfillments: [] });
    mine.orders.saveBody(body('Created'), NOW);
    const first = mine.orders.get('ORD-1')?.body;
    expect(first?.orderState).toBe('Created');
    // Unchanged: the same parsed body, from the queue's list as from a tap's read.
    expect(mine.orders.get('ORD-1')?.body).toBe(first);
    expect(mine.orders.list()[0]?.body).toBe(first);
    // Another process (the CLI, intake's own connection) writes the body: this one sees it.
    const other = open(dir);
    other.orders.saveBody(body('Accepted'), NOW + 1);
    expect(mine.orders.get('ORD-1')?.body?.orderState).toBe('Accepted');
    expect(mine.orders.list()[0]?.body?.orderState).toBe('Accepted');
    // A row written before bodies had revisions (NULL) is read, and then a write is seen too.
    const raw = new Database(mine.file);
    raw.prepare(`UPDATE orders SET body = ?, body_rev = NULL WHERE id = 'ORD-1'`).run(JSON.stringify(body('In progress')));
    raw.close();
    const fresh = open(dir);
    expect(fresh.orders.get('ORD-1')?.body?.orderState).toBe('In progress');
    other.orders.saveBody(body('Completed'), NOW + 2);
    expect(fresh.orders.list()[0]?.body?.orderState).toBe('Completed');
  });

  it('refuses a file from a newer Packdesk without moving it', () => {
    const dir = tempDir(cleanup);
    open(dir).close();
    const db = new Database(dataFilePath(dir));
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const r = openStore({ dataDir: dir, now: () => NOW });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem.code).toBe('STORE_TOO_NEW');
      expect(r.problem.message).toMatch(/newer Packdesk/);
    }
    expect(fs.existsSync(dataFilePath(dir))).toBe(true);
  });

  it('reports a folder it cannot use without touching anything', () => {
    const dir = tempDir(cleanup);
    const blocker = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocker, 'x');
    const r = openStore({ dataDir: blocker, now: () => NOW });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.code).toBe('STORE_UNAVAILABLE');
    expect(fs.readFileSync(blocker, 'utf8')).toBe('x');
  });
});
