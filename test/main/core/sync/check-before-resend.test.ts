/**
 * Check before resend (decisions.md), against the real sandbox over HTTP: an entry whose earlier
 * attempt got no answer is checked with the injected StatusCheck first; "maybe already done"
 * refusals are checked too; invoices are always resent; a check that cannot reach the service
 * makes the entry wait. Every decision is in the audit log.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../../sandbox';
import { OrderServiceClient } from '../../../../src/main/core/api';
import { MemoryVault, TokenManager } from '../../../../src/main/core/auth';
import { openStore } from '../../../../src/main/core/db';
import type { StatusCheck } from '../../../../src/main/core/outbox';
import type { OrderView, OutboxEntryView } from '../../../../src/shared/ipc';
import { type ActionInput, buildUpdateRequest } from '../../../../src/shared/protocol';
import {
  acceptAndLoad,
  Cleanup,
  marketplace,
  newDeliveryOrderIds,
  sandbox,
  sandboxStatusCheck,
  serviceEngine,
  tempDir,
} from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';
import { TRAINING } from '../../../support/credentials';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const accept = { kind: 'orderState', state: 'ACCEPTED' } as const;

/** The audit lines of one entry, read from the data file. */
function auditOf(dir: string, entryId: number): { outcome: string; message: string | null }[] {
  const opened = openStore({ dataDir: dir, now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  try {
    return opened.value.audit.forEntry(entryId).map((a) => ({ outcome: a.outcome, message: a.message }));
  } finally {
    opened.value.close();
  }
}

/**
 * Sends one tap from a first engine whose connection is reset when the request arrives (no answer
 * seen), then stops it. With `applied`, the service then receives that same request (same
 * requestId) once more from elsewhere, as if the first attempt had landed and only its answer was lost.
 */
async function tapWithoutAnswer(box: Sandbox, dir: string, orderId: string, input: ActionInput, applied: boolean): Promise<OutboxEntryView> {
  const first = serviceEngine(cleanup, box, dir);
  first.engine.start();
  // A token first: the reset must hit the update itself, not the token request.
  expect((await first.tokens.authorization()).ok).toBe(true);
  box.faults.set({ outage: 'reset' });
  const tap = first.engine.submitTap(orderId, input);
  if (!tap.ok) throw new Error(tap.problem.message);
  await first.engine.drain({ untilEmpty: false, timeoutMs: 5000 });
  expect(first.engine.listOutbox()[0]).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 'NETWORK' } });
  await first.close();
  box.faults.set({ outage: 'none' });
  if (applied) {
    const tokens = new TokenManager({ authUrl: box.url, vault: new MemoryVault({ credentials: TRAINING }), proactive: false });
    cleanup.add(() => tokens.close());
    const request = buildUpdateRequest(orderId, tap.value.requestId, [tap.value.action]);
    if (!request.ok) throw new Error(request.problem.message);
    expect(await new OrderServiceClient({ baseUrl: box.url, tokens }).update(request.value)).toMatchObject({ kind: 'success' });
  }
  return tap.value;
}

describe('check before resend', () => {
  it('settles an entry the order already shows as applied, without sending it again, and stores the fetched body', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const id = newDeliveryOrderIds(box)[0]!;
    const tap = await tapWithoutAnswer(box, dir, id, accept, true);

    const check = sandboxStatusCheck(box);
    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: check });
    engine.start();
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(check.calls).toEqual([id]);
    // Only the delivery from elsewhere reached the service: the terminal did not send it again.
    expect(box.requestLog().filter((r) => r.requestId === tap.requestId)).toHaveLength(1);
    expect(engine.listOutbox({ includeDone: true })[0]).toMatchObject({ requestId: tap.requestId, state: 'sent' });
    const view = engine.getOrder(id);
    expect(view?.order?.orderState.toUpperCase()).toBe('ACCEPTED');
    expect(view).toMatchObject({ needsRefresh: false, waiting: 0, mayBeApplied: false });
    await engine.stop();
    expect(auditOf(dir, tap.id).map((a) => a.outcome)).toContain('confirmed');
    expect(auditOf(dir, tap.id).find((a) => a.outcome === 'confirmed')?.message).toMatch(/^Confirmed by status check/);
  });

  it('resends with the same requestId when the order does not show the effect', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const id = newDeliveryOrderIds(box)[0]!;
    const tap = await tapWithoutAnswer(box, dir, id, accept, false);

    const check = sandboxStatusCheck(box);
    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: check });
    engine.start();
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(check.calls).toEqual([id]);
    expect(box.appliedLog().filter((a) => a.requestId === tap.requestId)).toHaveLength(1);
    expect(engine.listOutbox({ includeDone: true })[0]).toMatchObject({ requestId: tap.requestId, state: 'sent', attempts: 2 });
    await engine.stop();
    expect(auditOf(dir, tap.id).find((a) => a.outcome === 'sent')?.message).toMatch(/status check: the order did not show it yet/);
  });

  it('keeps the entry waiting, unsent, while the check cannot reach the service, then checks again', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const id = newDeliveryOrderIds(box)[0]!;
    const tap = await tapWithoutAnswer(box, dir, id, accept, true);
    const requestsBefore = box.requestLog().length;

    box.faults.set({ outage: 'refuse' });
    const check = sandboxStatusCheck(box);
    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: check });
    engine.start();
    await engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    expect(check.calls.length).toBeGreaterThanOrEqual(1);
    const [waiting] = engine.listOutbox();
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1, lastError: { kind: 'transient' } });
    expect(waiting?.lastError?.message).toMatch(/could not be asked/);
    expect(box.requestLog()).toHaveLength(requestsBefore);

    box.faults.set({ outage: 'none' });
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(box.requestLog().filter((r) => r.requestId === tap.requestId)).toHaveLength(1);
  });

  it("resends as before when the check is unavailable (no access to `status`), and says so in the audit", async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const id = newDeliveryOrderIds(box)[0]!;
    const tap = await tapWithoutAnswer(box, dir, id, accept, true);
    const asked: string[] = [];
    const unavailable: StatusCheck = async (orderId) => (asked.push(orderId), { kind: 'unavailable' });
    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: unavailable });
    engine.start();
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(asked).toEqual([id]);
    // Resent with the same requestId; the service de-duplicated it.
    expect(box.requestLog().filter((r) => r.requestId === tap.requestId).map((r) => r.duplicate)).toEqual([false, true]);
    await engine.stop();
    expect(auditOf(dir, tap.id).find((a) => a.outcome === 'sent')?.message).toMatch(/status check not available/);
  });

  it('always resends an invoice (it cannot be seen in the order body), without asking', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const loader = serviceEngine(cleanup, box, dir);
    loader.engine.start();
    const order = await acceptAndLoad(loader.engine, newDeliveryOrderIds(box)[0]!);
    await loader.close();
    const tap = await tapWithoutAnswer(box, dir, order.id, { kind: 'invoice', sellerInvoiceId: 'INV-42' }, true);

    const check = sandboxStatusCheck(box);
    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: check });
    engine.start();
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(check.calls).toEqual([]);
    expect(box.requestLog().filter((r) => r.requestId === tap.requestId)).toHaveLength(2);
  });
});

describe('refusals that may mean "already done"', () => {
  it('a refused Accept of an order the marketplace already accepted loads the order and says it was done elsewhere, never "sent"', async () => {
    const box = await sandbox(cleanup);
    const id = newDeliveryOrderIds(box)[0]!;
    await marketplace(cleanup, box).apply(id, { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' });
    const dir = tempDir(cleanup);
    const check = sandboxStatusCheck(box);
    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: check });
    engine.start();
    const tap = engine.submitTap(id, accept);
    if (!tap.ok) throw new Error(tap.problem.message);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 0, remaining: 0 });
    expect(box.requestLog().filter((r) => r.requestId === tap.value.requestId)[0]).toMatchObject({ errorCode: 'ALREADY_IN_STATE' });
    expect(engine.getOrder(id)).toMatchObject({ failed: 0, mayBeApplied: false, nextStep: { key: 'PACKING' } });
    expect(engine.status()).toMatchObject({ failed: 0, toCheck: 0 });
    // Not this terminal's doing: the tap is not "sent", it says who-knows-who accepted and when.
    const accepted = Date.parse(box.orders().find((o) => o.id === id)?.updatedAt ?? '');
    expect(engine.listOutbox({ includeDone: true }).find((e) => e.id === tap.value.id)).toMatchObject({
      state: 'discarded',
      sentAt: null,
      lastError: { code: 'DONE_ELSEWHERE', values: { state: 'ACCEPTED', at: accepted } },
    });
    await engine.stop();
    expect(auditOf(dir, tap.value.id).find((a) => a.outcome === 'done-elsewhere')?.message).toMatch(/ALREADY_IN_STATE/);
  });

  it('a refusal after an attempt with no answer is settled as applied when the order shows it', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const loader = serviceEngine(cleanup, box, dir);
    loader.engine.start();
    const order = await acceptAndLoad(loader.engine, newDeliveryOrderIds(box)[0]!);
    await loader.close();
    const packing = { kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'PACKING' } as const;
    const tap = await tapWithoutAnswer(box, dir, order.id, packing, false);
    // The marketplace moves it on meanwhile: the resend is refused, but the order shows the effect.
    await marketplace(cleanup, box).apply(order.id, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: packing.fulfilmentId, fulfillmentState: 'PACKED' });

    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: sandboxStatusCheck(box) });
    engine.start();
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(engine.listOutbox({ includeDone: true }).at(-1)).toMatchObject({ requestId: tap.requestId, state: 'sent', mayBeApplied: false });
    expect(engine.status()).toMatchObject({ failed: 0, toCheck: 0 });
  });
});

describe('refusals that say someone else took the order past the tap (the store soak, issue 39)', () => {
  const fulfilment = (order: OrderView, type: 'STORE' | 'DELIVERY', state: string) =>
    ({ kind: 'fulfilment', fulfilmentId: fulfilmentId(order, type), state }) as ActionInput;

  it('a Packing tap refused because another counter already packed the order is done elsewhere, not a failure a manager must discard', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: sandboxStatusCheck(box) });
    engine.start();
    const order = await acceptAndLoad(engine, newDeliveryOrderIds(box)[0]!);
    const store = fulfilmentId(order, 'STORE');
    const other = marketplace(cleanup, box);
    await other.apply(order.id, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKING' });
    await other.apply(order.id, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: store, fulfillmentState: 'PACKED' });

    const tap = engine.submitTap(order.id, fulfilment(order, 'STORE', 'PACKING'));
    if (!tap.ok) throw new Error(tap.problem.message);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 0, remaining: 0 });
    expect(box.requestLog().find((r) => r.requestId === tap.value.requestId)).toMatchObject({ errorCode: 'BACKWARD_TRANSITION' });
    expect(engine.listOutbox({ includeDone: true }).find((e) => e.id === tap.value.id)).toMatchObject({
      state: 'discarded',
      lastError: { code: 'DONE_ELSEWHERE', values: { state: 'PACKED' } },
    });
    expect(engine.getOrder(order.id)).toMatchObject({ failed: 0, nextStep: { key: 'OUT_FOR_DELIVERY' } });
  });

  it('hand-over taps on an order another counter finished first are done elsewhere, and the one behind them is not held', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const { engine } = serviceEngine(cleanup, box, dir, { statusCheck: sandboxStatusCheck(box) });
    engine.start();
    const order = await acceptAndLoad(engine, newDeliveryOrderIds(box)[0]!);
    for (const [type, state] of [['STORE', 'PACKING'], ['STORE', 'PACKED'], ['DELIVERY', 'OUT_FOR_DELIVERY']] as const)
      expect(engine.submitTap(order.id, fulfilment(order, type, state)).ok).toBe(true);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toMatchObject({ sent: 3, failed: 0 });
    // Another counter hands it over and finishes it before this counter's taps go.
    const other = marketplace(cleanup, box);
    await other.apply(order.id, { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: fulfilmentId(order, 'DELIVERY'), fulfillmentState: 'DELIVERED' });
    await other.apply(order.id, { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' });

    const delivered = engine.submitTap(order.id, fulfilment(order, 'DELIVERY', 'DELIVERED'));
    const completed = engine.submitTap(order.id, { kind: 'orderState', state: 'COMPLETED' });
    if (!delivered.ok || !completed.ok) throw new Error('taps refused here');
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 0, remaining: 0 });
    expect(box.requestLog().find((r) => r.requestId === delivered.value.requestId)).toMatchObject({ errorCode: 'ORDER_COMPLETED' });
    const done = engine.listOutbox({ includeDone: true });
    for (const tap of [delivered.value, completed.value])
      expect(done.find((e) => e.id === tap.id)).toMatchObject({ state: 'discarded', lastError: { code: 'DONE_ELSEWHERE' } });
    expect(engine.status()).toMatchObject({ failed: 0, waiting: 0 });
    expect(engine.getOrder(order.id)).toMatchObject({ failed: 0, nextStep: null });
  });
});

describe('after a restart', () => {
  it('sends waiting entries at once: a backoff saved by an earlier process does not hold them', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const first = serviceEngine(cleanup, box, dir, { backoff: { baseMs: 60_000, capMs: 60_000 }, random: () => 0.99 });
    first.engine.start();
    box.faults.set({ errorRate: 1 });
    const ids = newDeliveryOrderIds(box).slice(0, 3);
    for (const id of ids) expect(first.engine.submitTap(id, accept).ok).toBe(true);
    await first.engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    expect(first.engine.listOutbox().every((e) => (e.nextAttemptAt ?? 0) > Date.now() + 30_000)).toBe(true);
    await first.close();

    box.faults.set({ errorRate: 0 });
    const again = serviceEngine(cleanup, box, dir);
    again.engine.start();
    expect(await again.engine.drain({ untilEmpty: true, timeoutMs: 3000 })).toEqual({ sent: 3, failed: 0, remaining: 0 });
  });
});
