/**
 * Changes someone else made (decisions.md, "Orders changed elsewhere"), against the real sandbox
 * over HTTP: a cancellation of an order this terminal worked on raises its alarm and sets its waiting
 * taps aside, unsent; a change to its items raises the alarm too; a tap refused because another
 * counter already made its step is said as done elsewhere, never as sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../../src/shared/protocol';
import { acceptAndLoad, Cleanup, marketplace, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const changedAt = (o: Order | undefined): number => Date.parse(o?.updatedAt ?? '');

describe('an order cancelled elsewhere', () => {
  it('a tap refused because the order was cancelled is set aside with its order\'s other waiting taps, and the alarm holds until acknowledged', async () => {
    const box = await sandbox(cleanup);
    const [x] = newDeliveryOrderIds(box) as [string];
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const order = await acceptAndLoad(engine, x);
    const cancelled = box.changeOrder(x, 'cancel');

    const packing = engine.submitTap(x, { kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'PACKING' });
    const invoice = engine.submitTap(x, { kind: 'invoice', sellerInvoiceId: 'INV-1' });
    if (!packing.ok || !invoice.ok) throw new Error('tap refused');
    // Nothing refused, nothing held for a person to retry or discard behind the PIN.
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 0, remaining: 0 });
    const byId = new Map(engine.listOutbox({ includeDone: true }).map((e) => [e.id, e]));
    const why = { code: 'ORDER_CANCELLED_ELSEWHERE', values: { at: changedAt(cancelled) } };
    expect(byId.get(packing.value.id)).toMatchObject({ state: 'discarded', attempts: 1, lastError: why });
    expect(byId.get(invoice.value.id)).toMatchObject({ state: 'discarded', attempts: 0, lastError: why });
    expect(box.requestLog().some((q) => q.requestId === invoice.value.requestId)).toBe(false);
    expect(engine.getOrder(x)).toMatchObject({ failed: 0, waiting: 0, nextStep: null, alarm: { kind: 'cancelled', changedAt: changedAt(cancelled) } });
    expect(engine.listOrders().find((v) => v.id === x)?.alarm?.kind).toBe('cancelled');
    expect(engine.status()).toMatchObject({ failed: 0, waiting: 0, message: null });

    expect(engine.acknowledgeAlarm(x).ok).toBe(true);
    expect(engine.getOrder(x)?.alarm).toBeUndefined();
    expect(engine.acknowledgeAlarm(x)).toMatchObject({ ok: false, problem: { code: 'NO_ALARM' } });
  });

  it('intake reading the cancelled order sets its waiting taps aside before they go, and raises the alarm; an order the terminal never worked on raises none', async () => {
    const box = await sandbox(cleanup);
    const [x, y] = newDeliveryOrderIds(box) as [string, string];
    const built = serviceEngine(cleanup, box, tempDir(cleanup));
    built.engine.start();
    const order = await acceptAndLoad(built.engine, x);
    expect((await built.intake.fetchOrder(y)).kind).toBe('stored');
    // A long undo window: the next tap waits on the terminal.
    built.engine.setOptions({ undoWindowMs: 60_000 });
    const packing = built.engine.submitTap(x, { kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'PACKING' });
    if (!packing.ok) throw new Error(packing.problem.message);

    const cancelled = box.changeOrder(x, 'cancel');
    box.changeOrder(y, 'cancel');
    expect(await built.intake.fetchOrder(x)).toEqual({ kind: 'stored', result: 'updated' });
    expect(await built.intake.fetchOrder(y)).toEqual({ kind: 'stored', result: 'updated' });

    expect(built.engine.entriesOf(x).find((e) => e.id === packing.value.id)).toMatchObject({
      state: 'discarded',
      attempts: 0,
      lastError: { code: 'ORDER_CANCELLED_ELSEWHERE', values: { at: changedAt(cancelled) } },
    });
    expect(built.engine.getOrder(x)?.alarm).toMatchObject({ kind: 'cancelled' });
    expect(built.engine.getOrder(y)?.alarm).toBeUndefined();
    built.engine.setOptions({ undoWindowMs: 0 });
    await built.engine.drain({ untilEmpty: true, timeoutMs: 5_000 });
    expect(box.requestLog().some((q) => q.requestId === packing.value.requestId)).toBe(false);
  });
});

describe('items changed elsewhere', () => {
  it('raises the alarm when the marketplace changes the items of an order this terminal accepted, not for its own cut', async () => {
    const box = await sandbox(cleanup);
    const [x, z] = newDeliveryOrderIds(box) as [string, string];
    const built = serviceEngine(cleanup, box, tempDir(cleanup));
    built.engine.start();
    const order = await acceptAndLoad(built.engine, x);
    const item = order.order!.items.find((i) => i.quantity.count > 1) ?? order.order!.items[0]!;
    await marketplace(cleanup, box).apply(x, { type: 'ITEM_UNIT_UPDATE', itemId: item.itemId, itemUnits: item.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' });
    expect((await built.intake.fetchOrder(x)).kind).toBe('stored');
    expect(built.engine.getOrder(x)?.alarm).toMatchObject({ kind: 'items' });

    const own = await acceptAndLoad(built.engine, z);
    const cut = own.order!.items[0]!;
    expect(built.engine.submitTap(z, { kind: 'units', itemId: cut.itemId, units: cut.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' }).ok).toBe(true);
    await built.engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect((await built.intake.fetchOrder(z)).kind).toBe('stored');
    expect(built.engine.getOrder(z)?.alarm).toBeUndefined();
  });
});

describe('a step another counter already made', () => {
  it('is said as done elsewhere with the state and time the order shows, not as sent', async () => {
    const box = await sandbox(cleanup);
    const [x] = newDeliveryOrderIds(box) as [string];
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const order = await acceptAndLoad(engine, x);
    const store = fulfilmentId(order, 'STORE');
    const other = await marketplace(cleanup, box).apply(x, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKING' });
    if (other.kind !== 'success') throw new Error(other.kind);
    const packingAt = other.order.fulfillments.find((f) => f.fulfillmentId === store)?.fulfilmentStatusHistory?.PACKING?.actual?.endTime;

    const tap = engine.submitTap(x, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' });
    if (!tap.ok) throw new Error(tap.problem.message);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 0, remaining: 0 });
    expect(engine.entriesOf(x).find((e) => e.id === tap.value.id)).toMatchObject({
      state: 'discarded',
      sentAt: null,
      lastError: { code: 'DONE_ELSEWHERE', values: { state: 'PACKING', at: packingAt } },
    });
    // The order as it really is: packing, the next step Mark packed.
    expect(engine.getOrder(x)).toMatchObject({ failed: 0, waiting: 0, nextStep: { key: 'PACKED' } });
  });
});

describe('the alarm after a restart', () => {
  it('is still raised when the terminal starts again on the same data file, until acknowledged', async () => {
    const box = await sandbox(cleanup);
    const [x] = newDeliveryOrderIds(box) as [string];
    const dir = tempDir(cleanup);
    const first = serviceEngine(cleanup, box, dir);
    first.engine.start();
    await acceptAndLoad(first.engine, x);
    box.changeOrder(x, 'cancel');
    expect((await first.intake.fetchOrder(x)).kind).toBe('stored');
    expect(first.engine.getOrder(x)?.alarm?.kind).toBe('cancelled');
    await first.close();

    const again = serviceEngine(cleanup, box, dir);
    expect(again.engine.getOrder(x)?.alarm?.kind).toBe('cancelled');
    expect(again.engine.acknowledgeAlarm(x).ok).toBe(true);
    await again.close();
    const third = serviceEngine(cleanup, box, dir);
    expect(third.engine.getOrder(x)?.alarm).toBeUndefined();
  });
});
