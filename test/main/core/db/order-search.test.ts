/**
 * The order finder over a real SQLite file: what a packer types (an id, its last digits, a name,
 * a phone, an invoice number) finds the orders on the terminal, most certain first, through the
 * FTS5 index the migration builds and its triggers keep; orders taken off the terminal are not found.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFilePath, searchPlan, type Store } from '../../../../src/main/core/db';
import { MIGRATIONS } from '../../../../src/main/core/db/migrations';
import type { Order } from '../../../../src/shared/protocol';
import { Cleanup, openedStore, tempDir } from '../../../support/engine';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const T0 = Date.UTC(2026, 10, 25, 9, 0);

/** An order for `name` with `phone`, the delivery going to them; an invoice when given. */
function order(id: string, name: string, phone: string, invoice?: string): Order {
  const base = sampleOrder({ id });
  return {
    ...base,
    billing: { name, phone },
    fulfillments: base.fulfillments.map((f) =>
      f.type === 'DELIVERY' ? { ...f, end: { person: { name }, contact: { phone } } } : f,
    ),
    ...(invoice ? { clientOrderInfo: { sellerInvoiceId: invoice } } : {}),
  } as Order;
}

function filled(dir: string): Store {
  const store = openedStore(cleanup, dir, () => T0);
  store.transaction(() => {
    store.orders.saveBody(order('ORD-3586689', 'Meera Iyer', '+91 98450 12345', 'INV-BLR-2611-0042'), T0);
    store.orders.saveBody(order('ORD-3586326', 'Aarav Meerani', '9876500042'), T0);
    store.orders.saveBody(order('OD2401121901140533863584', 'Priya Nair', '080-4123-4567'), T0);
    store.orders.ensure('ORD-7777001', T0); // scanned, its items not read yet
  });
  return store;
}

const find = (store: Store, text: string, limit = 8) => store.search.find(text, limit);

describe('the order finder', () => {
  it('finds an order by its whole id, in any case, and by its last digits', () => {
    const store = filled(tempDir(cleanup));
    expect(find(store, 'ORD-3586689').found).toEqual([{ id: 'ORD-3586689', by: 'id' }]);
    expect(find(store, 'ord-3586689').found).toEqual([{ id: 'ORD-3586689', by: 'id' }]);
    expect(find(store, '3586689').found).toEqual([{ id: 'ORD-3586689', by: 'idEnd' }]);
    expect(find(store, '6689').found).toEqual([{ id: 'ORD-3586689', by: 'idEnd' }]);
    // An order whose items are not read yet is found by its id all the same.
    expect(find(store, '7001').found).toEqual([{ id: 'ORD-7777001', by: 'idEnd' }]);
    // Digits from the middle of an id are not its end.
    expect(find(store, '35866').found).toEqual([]);
  });

  it("finds by the customer's name from any word's start, and several orders as a short list", () => {
    const store = filled(tempDir(cleanup));
    expect(find(store, 'Meera').found.map((f) => f.id).sort()).toEqual(['ORD-3586326', 'ORD-3586689']);
    expect(find(store, 'iyer').found).toEqual([{ id: 'ORD-3586689', by: 'customer' }]);
    expect(find(store, 'meera iy').found).toEqual([{ id: 'ORD-3586689', by: 'customer' }]);
    // Not from the middle of a word: "eera" is nobody's name.
    expect(find(store, 'eera').found).toEqual([]);
    expect(find(store, 'Meera', 1)).toEqual({ found: [expect.objectContaining({ by: 'customer' })], more: true });
  });

  it("finds by the customer's phone, whole or its last digits, however it is written", () => {
    const store = filled(tempDir(cleanup));
    expect(find(store, '98450 12345').found).toEqual([{ id: 'ORD-3586689', by: 'phone' }]);
    expect(find(store, '+919845012345').found).toEqual([{ id: 'ORD-3586689', by: 'phone' }]);
    expect(find(store, '4567').found).toEqual([{ id: 'OD2401121901140533863584', by: 'phone' }]);
    // An id ending in the digits comes before a phone ending in them.
    store.transaction(() => store.orders.saveBody(order('ORD-9912345', 'Rohan Das', '9000000001'), T0));
    expect(find(store, '12345').found).toEqual([
      { id: 'ORD-9912345', by: 'idEnd' },
      { id: 'ORD-3586689', by: 'phone' },
    ]);
  });

  it('finds by the invoice number, whole or in part, as the service last answered it', () => {
    const store = filled(tempDir(cleanup));
    expect(find(store, 'INV-BLR-2611-0042').found).toEqual([{ id: 'ORD-3586689', by: 'invoice' }]);
    // "0042" is the end of an invoice and of a phone: the invoice is named first.
    expect(find(store, '0042').found).toEqual([
      { id: 'ORD-3586689', by: 'invoice' },
      { id: 'ORD-3586326', by: 'phone' },
    ]);
    // A new answer with another invoice: found by the new one only.
    store.transaction(() => store.orders.saveBody(order('ORD-3586689', 'Meera Iyer', '+91 98450 12345', 'INV-BLR-2611-0077'), T0 + 1));
    expect(find(store, 'INV-BLR-2611-0042').found).toEqual([]);
    expect(find(store, 'INV-BLR-2611-0077').found).toEqual([{ id: 'ORD-3586689', by: 'invoice' }]);
  });

  it('rewrites an index row only when what it is found by changed: an answer that moves the order on costs the index nothing', () => {
    const store = filled(tempDir(cleanup));
    // Rows this connection wrote, the index's own included.
    const written = (): number => Number(store.generation().split(':')[0]);
    const meera = order('ORD-3586689', 'Meera Iyer', '+91 98450 12345', 'INV-BLR-2611-0042');
    let before = written();
    expect(store.transaction(() => store.orders.saveBody({ ...meera, orderState: 'Completed' }, T0 + 1))).toBe(true);
    expect(written() - before).toBe(1);
    expect(find(store, 'Iyer').found).toEqual([{ id: 'ORD-3586689', by: 'customer' }]);
    expect(find(store, 'INV-BLR-2611-0042').found).toEqual([{ id: 'ORD-3586689', by: 'invoice' }]);
    // A new name and phone at the delivery's end: found by the new ones, not the old.
    before = written();
    const moved = { ...order('ORD-3586689', 'Meera Krishnan', '+91 90000 11111', 'INV-BLR-2611-0042'), orderState: 'Completed' };
    expect(store.transaction(() => store.orders.saveBody(moved, T0 + 2))).toBe(true);
    expect(written() - before).toBeGreaterThan(1);
    expect(find(store, 'Krishnan').found).toEqual([{ id: 'ORD-3586689', by: 'customer' }]);
    expect(find(store, '11111').found).toEqual([{ id: 'ORD-3586689', by: 'phone' }]);
    expect(find(store, 'Iyer').found).toEqual([]);
    expect(find(store, '12345').found).toEqual([]);
  });

  it('does not find orders taken off the terminal, nor their customers once their details are dropped', () => {
    const store = filled(tempDir(cleanup));
    store.transaction(() => {
      store.orders.remove('ORD-3586326', T0);
      store.orders.retire('ORD-3586689', T0);
    });
    expect(find(store, 'Meera').found).toEqual([]);
    expect(find(store, 'ORD-3586689').found).toEqual([]);
    // Scanned again, it is back and found by its id.
    store.transaction(() => store.orders.ensure('ORD-3586689', T0 + 1));
    expect(find(store, '3586689').found).toEqual([{ id: 'ORD-3586689', by: 'idEnd' }]);
    expect(find(store, 'Iyer').found).toEqual([]);
  });

  it("keeps no trigram of a customer's name or phone in the file once the order has left the terminal", () => {
    const dir = tempDir(cleanup);
    const store = filled(dir);
    store.transaction(() => store.orders.saveBody(order('ORD-5550001', 'Qjxqjx Zvwzvw', '+91 86868 68686'), T0));
    store.checkpoint();
    const file = dataFilePath(dir);
    const bytes = (): Buffer => Buffer.concat([file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
    // The index holds the name and the phone as trigrams ('qjx', 'zvw', '868'...).
    expect(['qjx', 'zvw', '868'].map((t) => bytes().includes(t))).toEqual([true, true, true]);
    // Taken off as retire.ts does it: details dropped with secure_delete, then the WAL emptied.
    store.scrubbing(() => store.orders.retire('ORD-5550001', T0 + 1));
    expect(store.emptyWal()).toBe(true);
    expect(['qjx', 'zvw', '868'].map((t) => bytes().includes(t))).toEqual([false, false, false]);
    expect(find(store, 'Qjxqjx').found).toEqual([]);
    expect(find(store, 'Meera').found).toHaveLength(2);
  });

  it('takes quotes and FTS5 syntax as plain text, and nothing for text too short to mean anything', () => {
    const store = filled(tempDir(cleanup));
    for (const text of ['"', 'Meera" OR "a', 'NEAR(a b)', '*', 'ab', '12']) expect(() => find(store, text)).not.toThrow();
    expect(find(store, 'Meera" OR "a').found).toEqual([]);
    expect(searchPlan('  ')).toEqual([]);
    expect(searchPlan('12').map((s) => s.by)).toEqual(['id']);
  });

  it('an existing data file gets its orders indexed when it is opened by this version', () => {
    const dir = tempDir(cleanup);
    // A file as the version before wrote it: the migrations up to 5, an order already in it.
    const db = new Database(dataFilePath(dir));
    for (const m of MIGRATIONS.filter((x) => x.version <= 5)) db.exec(m.sql);
    db.pragma('user_version = 5');
    db.prepare('INSERT INTO orders (id, body, synced_at, added_at) VALUES (?, ?, ?, ?)').run(
      'ORD-1234567',
      JSON.stringify(order('ORD-1234567', 'Kavya Rao', '9123456789')),
      T0,
      T0,
    );
    db.close();
    const store = openedStore(cleanup, dir, () => T0);
    expect(find(store, 'Kavya').found).toEqual([{ id: 'ORD-1234567', by: 'customer' }]);
    expect(find(store, '4567').found).toEqual([{ id: 'ORD-1234567', by: 'idEnd' }]);
  });

  it("is merged after pruning to the size of what it holds: orders that left free their index's pages", () => {
    const dir = tempDir(cleanup);
    const store = openedStore(cleanup, dir, () => T0);
    // Twenty days of orders, a commit each day's worth (each commit adds a segment of its own).
    for (let d = 0; d < 20; d++)
      store.transaction(() => {
        for (let k = 0; k < 40; k++) store.orders.saveBody(order(`ORD-${5_000_000 + d * 100 + k}`, `Customer ${d}-${k} Sharma`, `98450${String(d * 100 + k).padStart(5, '0')}`, `INV-${d}-${k}`), T0 + d);
      });
    const raw = new Database(dataFilePath(dir));
    cleanup.add(() => raw.close());
    const pages = (): number => raw.prepare(`SELECT COUNT(*) FROM dbstat WHERE name = 'order_search_data'`).pluck().get() as number;
    // The first 16 days' orders leave (their rows pruned): their words go, their pages stay.
    raw.prepare(`DELETE FROM orders WHERE id < 'ORD-5001600'`).run();
    const beforeMerge = pages();
    let steps = 0;
    while (store.transaction(() => store.search.mergeStep(64))) steps++;
    expect(steps).toBeGreaterThan(0);
    const merged = pages();
    // Nothing more to merge: the next step writes nothing.
    expect(store.transaction(() => store.search.mergeStep(64))).toBe(false);

    // The same 160 orders indexed afresh in a file of their own: the merged index is that size.
    const fresh = openedStore(cleanup, tempDir(cleanup), () => T0);
    fresh.transaction(() => {
      for (let d = 16; d < 20; d++) for (let k = 0; k < 40; k++) fresh.orders.saveBody(order(`ORD-${5_000_000 + d * 100 + k}`, `Customer ${d}-${k} Sharma`, `98450${String(d * 100 + k).padStart(5, '0')}`, `INV-${d}-${k}`), T0 + d);
    });
    const freshRaw = new Database(fresh.file, { readonly: true });
    cleanup.add(() => freshRaw.close());
    const freshPages = freshRaw.prepare(`SELECT COUNT(*) FROM dbstat WHERE name = 'order_search_data'`).pluck().get() as number;
    expect(merged).toBeLessThan(beforeMerge / 2);
    expect(merged).toBeLessThanOrEqual(freshPages + 1);
    // And it finds what it found.
    expect(find(store, 'Customer 17-5 Sharma').found.map((f) => f.id)).toEqual(['ORD-5001705']);
    expect(find(store, 'INV-19-39').found.map((f) => f.id)).toEqual(['ORD-5001939']);
    expect(find(store, 'Customer 3-5 ').found).toEqual([]);
  });
  it("reads what an order's standing rests on without its whole body: its step facts, and whether a tap shapes it", () => {
    const store = filled(tempDir(cleanup));
    store.transaction(() => {
      store.orders.saveBody({ ...order('ORD-3586700', 'Rohan Das', '9000000002'), orderState: 'Completed', items: [{ itemId: 'I-1' }] } as unknown as Order, T0);
      store.orders.saveBody({ ...order('ORD-3586701', 'Rohan Das', '9000000003'), fulfillments: [{ type: 'STORE' }] } as unknown as Order, T0);
      store.outbox.insert({ randomId: crypto.randomUUID(), orderId: 'ORD-3586326', action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }, createdAt: T0, sendAfter: T0, terminalId: 'T-test' });
    });
    const step = { orderState: 'Accepted', fulfillments: [{ fulfillmentId: 'F-STORE', type: 'STORE', fulfillmentState: 'Pending' }, { fulfillmentId: 'F-DEL', type: 'DELIVERY' }] };
    expect(store.search.standingFacts('ORD-3586689')).toEqual({ shaped: false, hasBody: true, step });
    expect(store.search.standingFacts('ORD-3586326')).toEqual({ shaped: true, hasBody: true, step });
    expect(store.search.standingFacts('ORD-7777001')).toEqual({ shaped: false, hasBody: false, step: null });
    // Only the facts are checked: a body whose items do not read still gives them (its view tells the rest) ...
    expect(store.search.standingFacts('ORD-3586700')?.step).toMatchObject({ orderState: 'Completed' });
    // ... and one whose facts do not read gives none.
    expect(store.search.standingFacts('ORD-3586701')).toEqual({ shaped: false, hasBody: true, step: null });
    store.scrubbing(() => store.orders.retire('ORD-3586689', T0));
    expect(store.search.standingFacts('ORD-3586689')).toBeNull();
    expect(store.search.standingFacts('ORD-0000000')).toBeNull();
  });
});
