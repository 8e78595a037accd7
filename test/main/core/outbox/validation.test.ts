/**
 * Every refusal of bad input: the tap is refused with a clear message and a code, and nothing is
 * queued. Order bodies come from the real sandbox (accept, then drain), as on a terminal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../../src/main/core/engine';
import type { ActionInput } from '../../../../src/shared/protocol';
import type { OrderView } from '../../../../src/shared/ipc';
import type { Sandbox } from '../../../../sandbox';
import { acceptAndLoad, Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';

const cleanup = new Cleanup();
let box: Sandbox;
let engine: Engine;
let order: OrderView;

beforeEach(async () => {
  box = await sandbox(cleanup);
  // A long undo window keeps taps queued, so refusals are checked against queued taps too.
  ({ engine } = serviceEngine(cleanup, box, tempDir(cleanup), { undoWindowMs: 0 }));
  engine.start();
  order = await acceptAndLoad(engine, newDeliveryOrderIds(box)[0]!);
  engine.setOptions({ undoWindowMs: 60_000 });
});
afterEach(() => cleanup.run());

/** Submits a tap that must be refused; checks nothing was queued and returns the problem. */
function refused(input: ActionInput, orderId = order.id) {
  const before = engine.listOutbox({ includeDone: true }).length;
  const r = engine.submitTap(orderId, input);
  expect(r.ok).toBe(false);
  expect(engine.listOutbox({ includeDone: true })).toHaveLength(before);
  if (r.ok) throw new Error('accepted');
  expect(r.problem.kind).toBe('invalid');
  expect(r.problem.message.length).toBeGreaterThan(5);
  return r.problem;
}

function tap(input: ActionInput, orderId = order.id) {
  const r = engine.submitTap(orderId, input);
  if (!r.ok) throw new Error(r.problem.message);
  return r.value;
}

const packing = (): ActionInput => ({ kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'PACKING' });
const packed = (): ActionInput => ({ kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'PACKED' });

describe('local validation against the projected order', () => {
  it('a double tap is a no-op refusal', () => {
    tap(packing());
    expect(refused(packing()).code).toBe('ALREADY_QUEUED');
    expect(engine.getOrder(order.id)?.waiting).toBe(1);
  });

  it('refuses repeating a state already reached at the service', async () => {
    engine.setOptions({ undoWindowMs: 0 });
    tap(packing());
    await engine.drain({ untilEmpty: true, timeoutMs: 5000 });
    const p = refused(packing());
    expect(p.code).toBe('ALREADY_IN_STATE');
    expect(p.message).toMatch(/Already PACKING/);
  });

  it('refuses a backward fulfilment tap, against queued taps as well', () => {
    tap(packing());
    tap(packed());
    expect(refused(packing()).code).toBe('BACKWARD_TRANSITION');
  });

  it('refuses more units than remain, counting a queued cut', () => {
    const item = order.order!.items.find((i) => i.quantity.count >= 2) ?? order.order!.items[0]!;
    const count = item.quantity.count;
    expect(refused({ kind: 'units', itemId: item.itemId, units: count + 1, reason: 'ITEM_UNAVAILABLE' }).code).toBe('UNITS_OUT_OF_RANGE');
    tap({ kind: 'units', itemId: item.itemId, units: count - 1, reason: 'ITEM_UNAVAILABLE' });
    const p = refused({ kind: 'units', itemId: item.itemId, units: count, reason: 'ITEM_UNAVAILABLE' });
    expect(p.code).toBe('UNITS_OUT_OF_RANGE');
    expect(p.message).toMatch(/remain/);
  });

  it('refuses a cancel without a reason, and with a reason not in the catalogue', () => {
    expect(refused({ kind: 'orderState', state: 'CANCELLED' }).code).toBe('MISSING_REASON');
    expect(refused({ kind: 'orderState', state: 'CANCELLED', reason: 'BORED' }).code).toBe('UNKNOWN_REASON');
  });

  it('refuses any action on an order whose cancel is queued', () => {
    tap({ kind: 'orderState', state: 'CANCELLED', reason: 'BUYER_NOT_AVAILABLE' });
    for (const input of [packing(), { kind: 'invoice', sellerInvoiceId: 'INV-9' } as const]) {
      const p = refused(input);
      expect(p.code).toBe('ORDER_CANCELLED');
      expect(p.message).toMatch(/cancelled/);
    }
    expect(engine.getOrder(order.id)?.nextStep).toBeNull();
  });

  it('refuses a fulfilment the order does not have, a wrong-type state, and bad numbers', () => {
    expect(refused({ kind: 'fulfilment', fulfilmentId: 'FUL-NOPE', state: 'PACKING' }).code).toBe('FULFILMENT_NOT_FOUND');
    expect(refused({ kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'DELIVERED' }).code).toBe('WRONG_FULFILMENT_TYPE');
    const itemId = order.order!.items[0]!.itemId;
    expect(refused({ kind: 'units', itemId, units: -1, reason: 'ITEM_UNAVAILABLE' }).code).toBe('NEGATIVE_UNITS');
    expect(refused({ kind: 'units', itemId, units: 1.5, reason: 'ITEM_UNAVAILABLE' }).code).toBe('UNITS_NOT_INTEGER');
    expect(refused({ kind: 'units', itemId, units: 0, reason: '' }).code).toBe('MISSING_REASON');
    expect(refused({ kind: 'units', itemId: 'IT-NOPE', units: 0, reason: 'ITEM_UNAVAILABLE' }).code).toBe('ITEM_NOT_FOUND');
  });

  it('refuses empty or unprintable order ids before touching the queue', () => {
    expect(refused({ kind: 'orderState', state: 'ACCEPTED' }, '   ').code).toBe('EMPTY_ID');
    expect(refused({ kind: 'orderState', state: 'ACCEPTED' }, 'ORD-1\u0007').code).toBe('BAD_ID');
    expect(engine.addOrder('').ok).toBe(false);
  });

  it('for an order known only by its id, allows Accept once and nothing else', () => {
    const unknown = newDeliveryOrderIds(box)[1]!;
    const added = engine.addOrder(unknown);
    expect(added.ok && added.value).toMatchObject({ id: unknown, order: null, nextStep: { key: 'ACCEPT' }, waiting: 0 });
    const p = refused({ kind: 'invoice', sellerInvoiceId: 'INV-1' }, unknown);
    expect(p.code).toBe('NOT_LOADED');
    expect(p.message).toMatch(/accept it first/);
    tap({ kind: 'orderState', state: 'ACCEPTED' }, unknown);
    expect(refused({ kind: 'orderState', state: 'ACCEPTED' }, unknown).code).toBe('ALREADY_QUEUED');
    expect(refused({ kind: 'orderState', state: 'IN_PROGRESS' }, unknown).code).toBe('NOT_LOADED');
    expect(engine.getOrder(unknown)).toMatchObject({ waiting: 1, nextStep: null });
  });

  it('shows queued taps on the order (optimistic) and its next step', () => {
    expect(engine.getOrder(order.id)?.nextStep).toMatchObject({ key: 'PACKING' });
    tap(packing());
    const view = engine.getOrder(order.id)!;
    expect(view.order?.fulfillments.find((f) => f.type === 'STORE')?.fulfillmentState).toBe('PACKING');
    expect(view.nextStep).toMatchObject({ key: 'PACKED', label: 'Mark packed' });
    expect(view.waiting).toBe(1);
    // The service has not seen it yet.
    expect(box.order(order.id)?.fulfillments.find((f) => f.type === 'STORE')?.fulfillmentState).not.toBe('PACKING');
  });
});
