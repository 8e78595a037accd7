import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_FILE_NAME, openStore } from '../../../../src/main/core/db';
import { acceptAndLoad, Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';
import { manualClock } from '../../../support/clock';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** An engine on a fresh data folder (5 s undo window) with one Accept just tapped, and its answer. */
async function oneAccept() {
  const box = await sandbox(cleanup);
  const dir = tempDir(cleanup);
  const { engine } = serviceEngine(cleanup, box, dir, { undoWindowMs: 5000 });
  const id = newDeliveryOrderIds(box)[0]!;
  return { dir, engine, id, tapped: engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' }) };
}

describe('enqueue is durable', () => {
  it('commits the row with its requestId before submitTap returns', async () => {
    const { dir, id, tapped: r } = await oneAccept();
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.value.sendAfter - r.value.createdAt).toBe(5000);
    // A second, independent connection sees the committed row at once.
    const other = openStore({ dataDir: dir, now: Date.now });
    if (!other.ok) throw new Error(other.problem.message);
    try {
      expect(other.value.outbox.byRequestId(r.value.requestId)).toMatchObject({ id: r.value.id, orderId: id, state: 'queued' });
      // The row is the tap's record: when, which terminal, what.
      expect(other.value.outbox.byRequestId(r.value.requestId)).toMatchObject({ terminalId: 'T-test', createdAt: r.value.createdAt });
    } finally {
      other.value.close();
    }
  });
});

describe('a damaged waiting tap', () => {
  it('refuses a new tap on its order as unreadable data for support, and queues nothing', async () => {
    const { dir, engine, id, tapped: first } = await oneAccept();
    if (!first.ok) throw new Error(first.problem.message);
    // The waiting tap's action is damaged on disk (a bad sector, an editing tool).
    const raw = new Database(path.join(dir, DATA_FILE_NAME));
    raw.prepare(`UPDATE outbox SET action = '{"type":' WHERE id = ?`).run(first.value.id);
    raw.close();

    const second = engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' });
    expect(second).toMatchObject({ ok: false, problem: { kind: 'permanent', code: 'STORE_ROW_UNREADABLE' } });
    if (second.ok) return;
    expect(second.problem.message).toContain(`Outbox entry ${first.value.id}`);
    expect(second.problem.message).toContain('call support');
    expect(engine.status().waiting).toBe(1);
  });
});

describe('undo window', () => {
  it('holds a tap for the window, lets it be taken back, and sends it once the window passes', async () => {
    const box = await sandbox(cleanup);
    // Starts at real time so tokens from the sandbox look fresh.
    const clock = manualClock(Date.now());
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { now: clock.now, undoWindowMs: 5000 });
    engine.start();
    const [a, b] = newDeliveryOrderIds(box) as [string, string];

    const first = engine.submitTap(a, { kind: 'orderState', state: 'ACCEPTED' });
    if (!first.ok) throw new Error(first.problem.message);
    expect(await engine.drain({ untilEmpty: false, timeoutMs: 2000 })).toEqual({ sent: 0, failed: 0, remaining: 1 });
    expect(box.requestLog()).toHaveLength(0);

    expect(engine.undo(first.value.id)).toEqual({ ok: true, value: true });
    expect(engine.listOutbox({ includeDone: true })[0]).toMatchObject({ state: 'discarded', lastError: { code: 'UNDONE' } });
    expect(engine.getOrder(a)).toMatchObject({ waiting: 0, nextStep: { key: 'ACCEPT' } });
    // Taken back, so tapping again is a new tap, not a double tap.
    const again = engine.submitTap(a, { kind: 'orderState', state: 'ACCEPTED' });
    expect(again.ok).toBe(true);

    const second = engine.submitTap(b, { kind: 'orderState', state: 'ACCEPTED' });
    if (!second.ok) throw new Error(second.problem.message);
    clock.advance(5000);
    expect(engine.undo(second.value.id)).toMatchObject({ ok: false, problem: { code: 'TOO_LATE' } });
    const drained = await engine.drain({ untilEmpty: true, timeoutMs: 5000 });
    expect(drained).toEqual({ sent: 2, failed: 0, remaining: 0 });
    expect(box.appliedLog().map((e) => e.orderId).sort()).toEqual([a, b].sort());
    if (again.ok) expect(engine.undo(again.value.id)).toMatchObject({ ok: false, problem: { code: 'TOO_LATE' } });
  });

  it('will not undo a tap that later queued taps depend on', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const order = await acceptAndLoad(engine, newDeliveryOrderIds(box)[0]!);
    engine.setOptions({ undoWindowMs: 60_000 });
    const store = fulfilmentId(order, 'STORE');
    const delivery = fulfilmentId(order, 'DELIVERY');
    const p1 = engine.submitTap(order.id, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKED' });
    const invoice = engine.submitTap(order.id, { kind: 'invoice', sellerInvoiceId: 'INV-77' });
    const out = engine.submitTap(order.id, { kind: 'fulfilment', fulfilmentId: delivery, state: 'OUT_FOR_DELIVERY' });
    if (!p1.ok || !invoice.ok || !out.ok) throw new Error('tap refused');
    const blocked = engine.undo(p1.value.id);
    expect(blocked).toMatchObject({ ok: false, problem: { code: 'LATER_TAPS' } });
    if (!blocked.ok) expect(blocked.problem.message).toMatch(/Out for delivery/);
    // The invoice does not depend on anything: it can go.
    expect(engine.undo(invoice.value.id).ok).toBe(true);
    expect(engine.undo(out.value.id).ok).toBe(true);
    expect(engine.undo(p1.value.id).ok).toBe(true);
    expect(engine.getOrder(order.id)?.waiting).toBe(0);
  });

  it('with no undo window (--no-undo) a tap is due at once', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { undoWindowMs: 0 });
    const r = engine.submitTap(newDeliveryOrderIds(box)[0]!, { kind: 'orderState', state: 'ACCEPTED' });
    expect(r.ok && r.value.sendAfter === r.value.createdAt).toBe(true);
    if (r.ok) expect(engine.undo(r.value.id)).toMatchObject({ ok: false, problem: { code: 'TOO_LATE' } });
  });
});
