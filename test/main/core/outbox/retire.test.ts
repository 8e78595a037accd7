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
import { FINISHED_KEEP_MS, move, type RetireCursor, retireFinished } from '../../../../src/main/core/outbox';
import type { Order } from '../../../../src/shared/protocol';
import { manualTimers } from '../../../support/clock';
import { Cleanup, openedStore, sandbox, serviceEngine, tempDir } from '../../../support/engine';
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
    const entry = store.outbox.insert({
      randomId: crypto.randomUUID(),
      orderId,
      action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
      createdAt: at,
      sendAfter: at,
      terminalId: 'T-test',
    });
    if (state === 'queued') return;
    const sending = move(store.outbox, entry, 'claim', at, {});
    if (!sending.ok) throw new Error('claim refused');
    const done = move(store.outbox, sending.value, state === 'sent' ? 'deliver' : 'refuse', at, {
      ...(state === 'failed' ? { lastError: { kind: 'permanent', code: 'X', message: 'refused' } } : {}),
    });
    if (!done.ok) throw new Error(`${state} refused`);
  });
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
      // Delivered but not completed: "Complete order" is still to do.
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

  it("leaves no trace of the customer's name or phone in the data file", () => {
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
    // Another process reading (the page check, a CLI): the WAL is left for later, without waiting.
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM orders').get();
    const started = performance.now();
    expect(store.emptyWal()).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    reader.exec('COMMIT');
    reader.close();
    expect(store.emptyWal()).toBe(true);
    expect(bytes().includes('Meenakshi Sundaram')).toBe(false);
    expect(bytes().includes('Harpreet Kaur')).toBe(true);
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
});
