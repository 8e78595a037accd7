/**
 * Finished orders leave the terminal once nothing has happened to them for the keep period: off
 * the queue, their customers' details gone from the data file, their taps kept. Real SQLite files;
 * the engine's run on its timer against the sandbox on 127.0.0.1.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_FILE_NAME, type Store } from '../../../../src/main/core/db';
import { FINISHED_KEEP_MS, HISTORY_KEEP_MS, move, pruneHistory, type RetireCursor, retireFinished } from '../../../../src/main/core/outbox';
import { mustMove } from '../../../../src/main/core/outbox/lifecycle';
import type { Order } from '../../../../src/shared/protocol';
import { manualTimers } from '../../../support/clock';
import { Cleanup, openedStore, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { readerThread } from '../../../support/reader-thread';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 2, 9, 0);

/** An order of `state` whose delivery goes to a named customer (what must not stay on the PC). */
function order(id: string, state: string, customer = `Customer ${id}`): Order {
  const base = sampleOrder({ id, orderState: state });
  return {
    ...base,
    fulfillments: base.fulfillments.map((f) =>
      f.type === 'DELIVERY' ? { ...f, end: { person: { name: customer }, contact: { phone: '+91 98450 12345' } } } : f,
    ),
  };
}

const open = (dir: string, now: () => number = () => T0): Store => openedStore(cleanup, dir, now);

/** A tap of `orderId` written at `at`, moved to `state` then. */
function tap(store: Store, orderId: string, at: number, state: 'queued' | 'sent' | 'failed'): void {
  store.transaction(() => {
    writeTap(store, orderId, at, state);
  });
}

/** The same inside the caller's transaction; returns the entry's id. */
function writeTap(store: Store, orderId: string, at: number, state: 'queued' | 'sent' | 'failed'): number {
  {
    const entry = store.outbox.insert({
      randomId: crypto.randomUUID(),
      orderId,
      action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
      createdAt: at,
      sendAfter: at,
      terminalId: 'T-test',
    });
    if (state === 'queued') return entry.id;
    const sending = move(store.outbox, entry, 'claim', at, {});
    if (!sending.ok) throw new Error('claim refused');
    const done = move(store.outbox, sending.value, state === 'sent' ? 'deliver' : 'refuse', at, {
      ...(state === 'failed' ? { lastError: { kind: 'permanent', code: 'X', message: 'refused' } } : {}),
    });
    if (!done.ok) throw new Error(`${state} refused`);
    return entry.id;
  }
}

const ids = (store: Store): string[] => store.orders.list().map((r) => r.id).sort();

/** The whole walk, step after step, as the engine makes it: the orders that left, sorted. */
function retireAll(store: Store, now: number): string[] {
  const out: string[] = [];
  let after: RetireCursor | null = null;
  do {
    const step = retireFinished(store, { now, keepMs: FINISHED_KEEP_MS, after });
    out.push(...step.orderIds);
    after = step.next;
  } while (after !== null);
  return out.sort();
}

describe('finished orders leave the terminal', () => {
  it('takes off completed and cancelled orders untouched for the keep period, and nothing else', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    store.transaction(() => {
      store.orders.saveBody(order('OD-COMPLETED', 'Completed'), T0);
      store.orders.saveBody(order('OD-CANCELLED', 'CANCELLED'), T0);
      // Accepted, not yet packed: steps are still to do on this counter.
      store.orders.saveBody(order('OD-ACCEPTED', 'Accepted'), T0);
      store.orders.saveBody(order('OD-RECENT', 'Completed'), T0 + 2 * DAY);
      store.orders.saveBody(order('OD-REFUSED', 'Cancelled'), T0);
      store.orders.saveBody(order('OD-WAITING', 'Cancelled'), T0);
      store.orders.saveBody(order('OD-TAPPED', 'Completed'), T0);
      store.orders.saveBody(order('OD-OLDTAP', 'Completed'), T0);
      store.orders.ensure('OD-UNKNOWN', T0);
    });
    tap(store, 'OD-REFUSED', T0, 'failed');
    tap(store, 'OD-WAITING', T0, 'queued');
    tap(store, 'OD-TAPPED', T0 + 2 * DAY, 'sent');
    tap(store, 'OD-OLDTAP', T0, 'sent');

    const now = T0 + FINISHED_KEEP_MS + DAY;
    expect(retireAll(store, now)).toEqual(['OD-CANCELLED', 'OD-COMPLETED', 'OD-OLDTAP']);
    expect(ids(store)).toEqual(['OD-ACCEPTED', 'OD-RECENT', 'OD-REFUSED', 'OD-TAPPED', 'OD-UNKNOWN', 'OD-WAITING']);
    expect(store.orders.get('OD-COMPLETED')).toBeNull();
    // Its taps stay as their record.
    expect(store.outbox.forOrder('OD-OLDTAP').map((e) => e.state)).toEqual(['sent']);
    // Once they are old enough, the others follow; a second run finds nothing more.
    expect(retireAll(store, now + 2 * DAY)).toEqual(['OD-RECENT', 'OD-TAPPED']);
    expect(retireAll(store, now + 2 * DAY)).toEqual([]);
  });

  it("drops a finished order's scan-to-pack counts with it, and keeps those of orders that stay", () => {
    const store = open(tempDir(cleanup));
    store.transaction(() => {
      store.orders.saveBody(order('OD-DONE', 'Completed'), T0);
      store.orders.saveBody(order('OD-OPEN', 'Accepted'), T0);
      store.packing.setScans('OD-DONE', 'IT-1', 2, T0);
      store.packing.setScans('OD-OPEN', 'IT-1', 1, T0);
    });
    expect(retireAll(store, T0 + FINISHED_KEEP_MS + DAY)).toEqual(['OD-DONE']);
    expect([...store.packing.scans('OD-DONE')]).toEqual([]);
    expect([...store.packing.scans('OD-OPEN')]).toEqual([['IT-1', 1]]);
  });

  it('takes off a delivered order nobody completes, like the others', () => {
    const store = open(tempDir(cleanup));
    /** Packed and delivered, but the service still says `state`: only "Complete order" is left. */
    const delivered = (id: string, state = 'Accepted'): Order => {
      const base = order(id, state);
      return {
        ...base,
        fulfillments: base.fulfillments.map((f) => ({ ...f, fulfillmentState: f.type === 'STORE' ? 'Packed' : 'Delivered' })),
      };
    };
    store.transaction(() => {
      store.orders.saveBody(delivered('OD-DELIVERED'), T0);
      store.orders.saveBody(delivered('OD-DELIVERED-IP', 'In-progress'), T0);
      store.orders.saveBody(delivered('OD-DELIVERED-NEW'), T0 + 2 * DAY);
      store.orders.saveBody(delivered('OD-COMPLETING'), T0);
      // Packed, not yet out for delivery: a step is still to do on this counter.
      store.orders.saveBody({ ...order('OD-PACKED', 'Accepted'), fulfillments: order('OD-PACKED', 'Accepted').fulfillments.map((f) => (f.type === 'STORE' ? { ...f, fulfillmentState: 'Packed' } : f)) }, T0);
    });
    // The packer tapped "Complete order" and it waits: the order stays until it is sent.
    tap(store, 'OD-COMPLETING', T0, 'queued');

    const now = T0 + FINISHED_KEEP_MS + DAY;
    expect(retireAll(store, now)).toEqual(['OD-DELIVERED', 'OD-DELIVERED-IP']);
    expect(ids(store)).toEqual(['OD-COMPLETING', 'OD-DELIVERED-NEW', 'OD-PACKED']);
    expect(retireAll(store, now + 2 * DAY)).toEqual(['OD-DELIVERED-NEW']);
  });

  it("leaves no trace of the customer's name or phone in the data file", async () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    store.transaction(() => {
      store.orders.saveBody(order('OD-GONE', 'Completed', 'Meenakshi Sundaram'), T0);
      store.orders.saveBody(order('OD-KEPT', 'Accepted', 'Harpreet Kaur'), T0);
    });
    store.checkpoint();
    const file = path.join(dir, DATA_FILE_NAME);
    const bytes = (): Buffer => Buffer.concat([file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
    expect(bytes().includes('Meenakshi Sundaram')).toBe(true);

    expect(retireAll(store, T0 + FINISHED_KEEP_MS + 1)).toEqual(['OD-GONE']);
    // Another reader (the page check's thread, a CLI): the WAL is left for later, without waiting.
    // This one lets go by itself 3 s into the call, well inside the data file's 5 s busy timeout:
    // a call that waited for it would then empty the WAL and say true.
    const reader = await readerThread(cleanup, file, 'SELECT COUNT(*) FROM orders', 3_000);
    reader.asking();
    expect(store.emptyWal()).toBe(false);
    await reader.letGo();
    expect(store.emptyWal()).toBe(true);
    expect(bytes().includes('Meenakshi Sundaram')).toBe(false);
    expect(bytes().includes('Harpreet Kaur')).toBe(true);
    expect(store.integrity()).toBe('ok');
  });

  it('frees the pages of orders that left: their rows do not keep a page each', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    // A body of about 3.5 kB: one order to a page, as many real bodies are.
    store.transaction(() => {
      for (let i = 0; i < 300; i++) store.orders.saveBody(order(`OD-BIG-${i}`, 'Completed', `Customer ${i} ${'x'.repeat(2500)}`), T0 + i);
    });
    const pages = (): number => {
      const db = new Database(path.join(dir, DATA_FILE_NAME), { readonly: true });
      try {
        return db.prepare(`SELECT COUNT(*) FROM dbstat WHERE name = 'orders'`).pluck().get() as number;
      } finally {
        db.close();
      }
    };
    store.checkpoint();
    expect(pages()).toBeGreaterThanOrEqual(300);
    expect(retireAll(store, T0 + FINISHED_KEEP_MS + DAY)).toHaveLength(300);
    store.checkpoint();
    // 300 rows of an id and a few times fit in a handful of pages; the rest is free for new orders.
    expect(pages()).toBeLessThan(15);
    expect(store.integrity()).toBe('ok');
  });

  it('walks the orders a batch at a time, past orders that stay', () => {
    const store = open(tempDir(cleanup));
    store.transaction(() => {
      // More open orders than a step looks at, older than the finished ones: the walk must get past them.
      for (let i = 0; i < 250; i++) store.orders.saveBody(order(`OD-OPEN-${i}`, 'Accepted'), T0 + i);
      for (let i = 0; i < 30; i++) store.orders.saveBody(order(`OD-DONE-${i}`, 'Completed'), T0 + 1000 + i);
    });
    const now = T0 + FINISHED_KEEP_MS + DAY;
    const first = retireFinished(store, { now, keepMs: FINISHED_KEEP_MS, after: null });
    expect(first.orderIds).toEqual([]);
    expect(first.next).toEqual({ syncedAt: T0 + 99, id: 'OD-OPEN-99' });
    expect(retireAll(store, now)).toHaveLength(30);
    expect(store.orders.count()).toBe(250);
  });

  it('is brought back, with its details, when the service reports a change to it', () => {
    const store = open(tempDir(cleanup));
    store.transaction(() => store.orders.saveBody(order('OD-BACK', 'Completed'), T0));
    const later = T0 + FINISHED_KEEP_MS + DAY;
    expect(retireAll(store, later)).toEqual(['OD-BACK']);
    // Intake finds it changed at the marketplace (a return, say).
    store.transaction(() => store.orders.saveIfNewer(order('OD-BACK', 'Cancelled'), later + 1));
    const row = store.orders.get('OD-BACK');
    expect(row?.body?.orderState).toBe('Cancelled');
    expect(row?.addedAt).toBe(later + 1);
  });
});

describe('the engine', () => {
  it('takes finished orders off a minute after it starts sending, a step at a time, tells the screens, and looks again later', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    let t = T0;
    const seed = open(dir, () => t);
    seed.transaction(() => {
      // A terminal that ran for weeks before this version: more finished orders than one step takes.
      for (let i = 0; i < 150; i++) seed.orders.saveBody(order(`OD-WEEKS-${i}`, 'Completed'), T0 - 20 * DAY + i);
      seed.orders.saveBody(order('OD-OLD', 'Completed'), T0);
      seed.orders.saveBody(order('OD-LATER', 'Cancelled'), T0 + 2 * DAY);
      seed.orders.saveBody(order('OD-OPEN', 'Accepted'), T0);
    });
    seed.close();

    t = T0 + FINISHED_KEEP_MS + DAY;
    const clock = manualTimers();
    const { engine } = serviceEngine(cleanup, box, dir, { now: () => t, timers: clock.timers });
    const removed: string[][] = [];
    engine.on('orders.removed', ({ orderIds }) => removed.push(orderIds));
    engine.start();
    // Not on the way to the first tap: nothing has left yet.
    expect(removed).toEqual([]);
    expect(engine.listOrders()).toHaveLength(153);

    clock.advance(60_000);
    expect(removed.map((ids) => ids.length)).toEqual([100]);
    clock.advance(100);
    expect(removed.map((ids) => ids.length)).toEqual([100, 51]);
    expect(removed[1]).toContain('OD-OLD');
    expect(engine.listOrders().map((v) => v.id).sort()).toEqual(['OD-LATER', 'OD-OPEN']);
    expect(engine.getOrder('OD-OLD')).toBeNull();

    t += 2 * DAY;
    clock.advance(6 * 60 * 60 * 1000);
    expect(removed.at(-1)).toEqual(['OD-LATER']);
    expect(engine.listOrders().map((v) => v.id)).toEqual(['OD-OPEN']);
  }, 30_000);

  it('prunes history past 180 days after its walk, a step at a time, and keeps what is still to settle', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const t = T0 + HISTORY_KEEP_MS + 30 * DAY;
    const seed = open(dir, () => t);
    seed.transaction(() => {
      // Last year's orders, each with its taps, off the terminal since: more than one step prunes.
      for (let i = 0; i < 120; i++) {
        seed.orders.saveBody(order(`OD-LAST-YEAR-${i}`, 'Completed'), T0);
        for (let n = 0; n < 5; n++) writeTap(seed, `OD-LAST-YEAR-${i}`, T0, 'sent');
        seed.orders.retire(`OD-LAST-YEAR-${i}`, T0 + FINISHED_KEEP_MS + DAY);
      }
      // Finished last week: the walk takes it off now, and its row stays another 180 days.
      seed.orders.saveBody(order('OD-LAST-WEEK', 'Completed'), t - 7 * DAY);
      seed.orders.saveBody(order('OD-REFUSED', 'Accepted'), T0);
      writeTap(seed, 'OD-REFUSED', T0, 'failed');
      seed.orders.saveBody(order('OD-THIS-MONTH', 'Accepted'), t - 5 * DAY);
      writeTap(seed, 'OD-THIS-MONTH', t - 5 * DAY, 'sent');
    });
    seed.close();

    const clock = manualTimers();
    const { engine } = serviceEngine(cleanup, box, dir, { now: () => t, timers: clock.timers });
    engine.start();
    const file = path.join(dir, DATA_FILE_NAME);
    /** The first column of the first row `sql` reads, from a connection of its own. */
    const value = (sql: string): unknown => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(sql).pluck().get();
      } finally {
        db.close();
      }
    };
    expect(value('SELECT COUNT(*) FROM outbox')).toBe(602);
    // The walk first (one step), then pruning, a step at a time with the event loop free between.
    clock.advance(60_000);
    expect(engine.listOrders().map((v) => v.id).sort()).toEqual(['OD-REFUSED', 'OD-THIS-MONTH']);
    expect(value('SELECT COUNT(*) FROM outbox')).toBe(602);
    clock.advance(100);
    expect(value('SELECT COUNT(*) FROM outbox')).toBe(102);
    expect(value('SELECT COUNT(*) FROM orders')).toBe(123);
    clock.advance(100);
    expect(value(`SELECT group_concat(order_id || ':' || state, ' ') FROM (SELECT * FROM outbox ORDER BY id)`)).toBe('OD-REFUSED:failed OD-THIS-MONTH:sent');
    expect(value(`SELECT group_concat(id, ' ') FROM (SELECT id FROM orders ORDER BY id)`)).toBe('OD-LAST-WEEK OD-REFUSED OD-THIS-MONTH');
    // Then the order finder's index is merged (the words of the orders that left freed their
    // segments' rows), a step after the pruning run, before the pages are given back.
    const finderRows = value('SELECT COUNT(*) FROM order_search_data') as number;
    clock.advance(100);
    expect(value('SELECT COUNT(*) FROM order_search_data')).toBeLessThan(finderRows / 2);
    // Six hours on, the next walk finds nothing more to prune.
    clock.advance(6 * 60 * 60 * 1000 + 200);
    expect(value('SELECT COUNT(*) FROM outbox')).toBe(2);
  }, 30_000);
});

describe('history older than 180 days', () => {
  /** Every outbox row's id and state, by id. */
  const entries = (store: Store): [number, string][] =>
    store.outbox.recent(100_000).map((e) => [e.id, e.state]);
  /** Ids of the order rows in the file, on the terminal or not. */
  const rows = (dir: string): string[] => {
    const db = new Database(path.join(dir, DATA_FILE_NAME), { readonly: true });
    try {
      return db.prepare('SELECT id FROM orders ORDER BY id').pluck().all() as string[];
    } finally {
      db.close();
    }
  };
  /** Every step, as the engine makes them: how many entries and orders went. */
  const pruneAll = (store: Store, now: number): { entries: number; orders: number; steps: number } => {
    const total = { entries: 0, orders: 0, steps: 0 };
    for (;;) {
      const step = pruneHistory(store, { now, keepMs: HISTORY_KEEP_MS });
      total.entries += step.entries;
      total.orders += step.orders;
      total.steps += 1;
      if (!step.more) return total;
    }
  };

  it('prunes sent and discarded taps and the rows of orders that left, and never a tap still to settle', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    const ids: Record<string, number> = {};
    store.transaction(() => {
      store.orders.saveBody(order('OD-GONE', 'Completed'), T0);
      store.orders.saveBody(order('OD-HELD', 'Accepted'), T0);
      store.orders.saveBody(order('OD-OPEN', 'Accepted'), T0);
      store.orders.saveBody(order('OD-LATE', 'Completed'), T0);
      store.orders.ensure('OD-SCANNED', T0);
      ids.gone = writeTap(store, 'OD-GONE', T0, 'sent');
      const undone = store.outbox.insert({ randomId: crypto.randomUUID(), orderId: 'OD-GONE', action: { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' }, createdAt: T0, sendAfter: T0, terminalId: 'T-test' });
      ids.undone = mustMove(store.outbox, undone, 'undo', T0).id;
      ids.failed = writeTap(store, 'OD-HELD', T0, 'failed');
      const maybe = mustMove(store.outbox, store.outbox.insert({ randomId: crypto.randomUUID(), orderId: 'OD-HELD', action: { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' }, createdAt: T0, sendAfter: T0, terminalId: 'T-test' }), 'claim', T0);
      ids.maybe = mustMove(store.outbox, maybe, 'refuse', T0, { mayBeApplied: true, lastError: { kind: 'transient', code: 'TIMEOUT', message: 'no answer' } }).id;
      ids.queued = writeTap(store, 'OD-HELD', T0, 'queued');
      const awaiting = mustMove(store.outbox, store.outbox.insert({ randomId: crypto.randomUUID(), orderId: 'OD-OPEN', action: { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' }, createdAt: T0, sendAfter: T0, terminalId: 'T-test' }), 'claim', T0);
      ids.awaiting = mustMove(store.outbox, awaiting, 'deliver', T0, { awaitingRefresh: true, sentNow: true }).id;
      // An open order's old answered tap goes; the order stays on the terminal.
      ids.openSent = writeTap(store, 'OD-OPEN', T0, 'sent');
      // Created long ago, answered lately: kept for 180 days from its answer.
      const late = mustMove(store.outbox, store.outbox.insert({ randomId: crypto.randomUUID(), orderId: 'OD-LATE', action: { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' }, createdAt: T0, sendAfter: T0, terminalId: 'T-test' }), 'claim', T0);
      ids.late = mustMove(store.outbox, late, 'deliver', T0 + 100 * DAY, { sentNow: true }).id;
    });
    // OD-GONE leaves the terminal three days on; OD-SCANNED was a code that was no order, removed by the packer.
    expect(retireAll(store, T0 + FINISHED_KEEP_MS + 1)).toEqual(['OD-GONE']);
    store.transaction(() => store.orders.remove('OD-SCANNED', T0));
    // A tap of this year, the newest entry.
    ids.recent = (() => {
      let id = 0;
      store.transaction(() => {
        id = writeTap(store, 'OD-OPEN', T0 + 170 * DAY, 'sent');
      });
      return id;
    })();

    // 179 days on, nothing is old enough.
    expect(pruneAll(store, T0 + 179 * DAY)).toEqual({ entries: 0, orders: 0, steps: 1 });
    const now = T0 + FINISHED_KEEP_MS + 181 * DAY;
    expect(pruneAll(store, now)).toEqual({ entries: 3, orders: 2, steps: 1 });
    expect(entries(store)).toEqual([
      [ids.failed, 'failed'],
      [ids.maybe, 'failed'],
      [ids.queued, 'queued'],
      [ids.awaiting, 'sent'],
      [ids.late, 'sent'],
      [ids.recent, 'sent'],
    ]);
    expect(store.outbox.get(ids.maybe!)?.mayBeApplied).toBe(true);
    // The order that left and the code removed are gone from the file; the others stay, on the terminal.
    expect(rows(dir)).toEqual(['OD-HELD', 'OD-LATE', 'OD-OPEN']);
    expect(store.orders.list().map((r) => r.id).sort()).toEqual(['OD-HELD', 'OD-LATE', 'OD-OPEN']);
    expect(pruneAll(store, now)).toEqual({ entries: 0, orders: 0, steps: 1 });
    expect(store.integrity()).toBe('ok');
  });

  it('keeps an order whose alarm nobody acknowledged on the terminal, and prunes an acknowledged one with its alarm', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    store.transaction(() => {
      store.orders.saveBody(order('OD-ALARMED', 'Cancelled'), T0);
      store.orders.saveBody(order('OD-SEEN', 'Cancelled'), T0);
      writeTap(store, 'OD-ALARMED', T0, 'sent');
      writeTap(store, 'OD-SEEN', T0, 'sent');
      store.alarms.raise('OD-ALARMED', 'cancelled', T0, T0);
      store.alarms.raise('OD-SEEN', 'cancelled', T0, T0);
      store.alarms.acknowledge('OD-SEEN', T0);
      // The newest entry is always kept: one of another order, so both alarmed orders' taps may go.
      store.orders.saveBody(order('OD-OTHER', 'Accepted'), T0);
      writeTap(store, 'OD-OTHER', T0 + 200 * DAY, 'queued');
    });
    // Cancelled elsewhere and never acknowledged: it stays where a packer will see it.
    expect(retireAll(store, T0 + FINISHED_KEEP_MS + 1)).toEqual(['OD-SEEN']);
    // Half a year on, the acknowledged order's row goes with its alarm (its alarm refers to the row).
    const now = T0 + FINISHED_KEEP_MS + 181 * DAY;
    pruneAll(store, now);
    expect(rows(dir)).toEqual(['OD-ALARMED', 'OD-OTHER']);
    expect(store.alarms.get('OD-SEEN')).toBeNull();
    expect(store.alarms.open().has('OD-ALARMED')).toBe(true);
    expect(store.integrity()).toBe('ok');
  });

  it('keeps the newest entry, so a new tap never takes an id the audit or the service has seen', () => {
    const store = open(tempDir(cleanup));
    store.transaction(() => store.orders.saveBody(order('OD-1', 'Accepted'), T0));
    let last = 0;
    store.transaction(() => {
      for (let i = 0; i < 3; i++) last = writeTap(store, 'OD-1', T0, 'sent');
    });
    expect(pruneAll(store, T0 + HISTORY_KEEP_MS + DAY).entries).toBe(2);
    expect(entries(store)).toEqual([[last, 'sent']]);
    tap(store, 'OD-1', T0 + HISTORY_KEEP_MS + DAY, 'queued');
    expect(store.outbox.recent(1)[0]?.id).toBe(last + 1);
  });

  it('prunes a long history a batch at a time', () => {
    const dir = tempDir(cleanup);
    const store = open(dir);
    store.transaction(() => {
      for (let o = 0; o < 300; o++) {
        store.orders.saveBody(order(`OD-${o}`, 'Completed'), T0);
        for (let t = 0; t < 5; t++) writeTap(store, `OD-${o}`, T0 + o, 'sent');
      }
    });
    expect(retireAll(store, T0 + FINISHED_KEEP_MS + DAY)).toHaveLength(300);
    const now = T0 + FINISHED_KEEP_MS + HISTORY_KEEP_MS + 2 * DAY;
    const first = pruneHistory(store, { now, keepMs: HISTORY_KEEP_MS });
    expect(first).toEqual({ entries: 500, orders: 0, more: true });
    // The rest of the 1,500 taps (the newest stays), then the 299 orders no tap points at any more.
    expect(pruneAll(store, now)).toEqual({ entries: 999, orders: 299, steps: 2 });
    expect(store.outbox.recent(10).map((e) => e.orderId)).toEqual(['OD-299']);
    expect(rows(dir)).toEqual(['OD-299']);
  });
});
