/**
 * Each failure class of decisions.md against the real sandbox's faults: transient (5xx, network,
 * 429 with Retry-After), auth, permanent (with the hold rule), "may already be applied", and an
 * unreadable 2xx.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../../src/main/core/db';
import { MemoryVault } from '../../../../src/main/core/auth';
import {
  acceptAndLoad,
  Cleanup,
  marketplace,
  newDeliveryOrderIds,
  sandbox,
  serviceEngine,
  tempDir,
} from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';
import { TRAINING } from '../../../support/credentials';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const accept = { kind: 'orderState', state: 'ACCEPTED' } as const;

describe('transient failures', () => {
  it('retries a 503 with the same requestId until it lands, once', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    box.faults.set({ errorRate: 1 });
    const id = newDeliveryOrderIds(box)[0]!;
    const r = engine.submitTap(id, accept);
    if (!r.ok) throw new Error(r.problem.message);
    const first = await engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    expect(first).toEqual({ sent: 0, failed: 0, remaining: 1 });
    expect(box.requestLog()[0]).toMatchObject({ requestId: r.value.requestId, status: 503 });
    // It keeps trying on its own (queued or sending, never failed, never dropped).
    expect(engine.getOrder(id)).toMatchObject({ waiting: 1, failed: 0 });
    expect(engine.status().connectivity).toBe('online');

    box.faults.set({ errorRate: 0 });
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toMatchObject({ failed: 0, remaining: 0 });
    const requests = box.requestLog().filter((q) => q.requestId === r.value.requestId);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(box.appliedLog().filter((a) => a.requestId === r.value.requestId)).toHaveLength(1);
    const [sent] = engine.listOutbox({ includeDone: true });
    expect(sent).toMatchObject({ state: 'sent', requestId: r.value.requestId });
    expect(sent!.attempts).toBe(requests.length);
  });

  it('goes offline when the service cannot be reached, keeps the tap, and sends it when the probe finds the service again', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    const statuses: string[] = [];
    engine.on('sync.status', (s) => statuses.push(s.connectivity));
    engine.start();
    box.faults.set({ outage: 'refuse' });
    const id = newDeliveryOrderIds(box)[0]!;
    expect(engine.submitTap(id, accept).ok).toBe(true);
    await engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    expect(engine.status()).toMatchObject({ connectivity: 'offline', waiting: 1 });
    expect(engine.status().message).toMatch(/No connection/);
    expect(engine.listOutbox()[0]?.lastError).toMatchObject({ code: 'NETWORK' });

    box.faults.set({ outage: 'none' });
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(engine.status().connectivity).toBe('online');
    expect(statuses).toContain('offline');
    expect(box.appliedLog()).toHaveLength(1);
  });

  it("honours the service's Retry-After before sending again", async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    box.faults.set({ rateLimit: { count: 1, retryAfterSeconds: 1 } });
    const r = engine.submitTap(newDeliveryOrderIds(box)[0]!, accept);
    if (!r.ok) throw new Error(r.problem.message);
    await engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    const waiting = engine.listOutbox()[0]!;
    expect(waiting.lastError).toMatchObject({ code: 'HTTP_429' });
    expect(waiting.nextAttemptAt! - box.requestLog()[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toMatchObject({ sent: 1 });
    const [limited, accepted] = box.requestLog();
    expect(limited).toMatchObject({ status: 429, requestId: r.value.requestId });
    expect(accepted).toMatchObject({ status: 200, requestId: r.value.requestId });
    expect(accepted!.at - limited!.at).toBeGreaterThanOrEqual(1000);
  });
});

describe('auth', () => {
  it('refreshes an expired token without bothering anyone', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const [a, b] = newDeliveryOrderIds(box) as [string, string];
    await acceptAndLoad(engine, a);
    box.expireTokensNow();
    engine.submitTap(b, accept);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(engine.status().credentials).toBe('ok');
    expect(box.stats().tokenRequests.refresh_token).toBeGreaterThanOrEqual(1);
  });

  it('pauses the whole outbox when the credentials are rejected, drops nothing, and resumes on new credentials', async () => {
    const box = await sandbox(cleanup);
    const vault = new MemoryVault({ credentials: { clientId: TRAINING.clientId, clientSecret: 'wrong-secret-123' } });
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { vault });
    engine.start();
    const [a, b] = newDeliveryOrderIds(box) as [string, string];
    engine.submitTap(a, accept);
    engine.submitTap(b, accept);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 0, remaining: 2 });
    const status = engine.status();
    expect(status).toMatchObject({ credentials: 'rejected', waiting: 2, failed: 0 });
    expect(status.message).toMatch(/rejected this terminal's credentials/);
    expect(engine.listOutbox().map((e) => e.state)).toEqual(['queued', 'queued']);
    // Paused: nothing goes out however often we ask.
    const tokenRequests = box.stats().tokenRequests.client_credentials;
    await engine.drain({ untilEmpty: false, timeoutMs: 2000 });
    expect(box.stats().tokenRequests.client_credentials).toBe(tokenRequests);
    expect(box.stats().updateRequests).toBe(0);

    await vault.setCredentials(TRAINING);
    engine.credentialsChanged();
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 2, failed: 0, remaining: 0 });
    expect(engine.status().credentials).toBe('ok');
  });

  it('says credentials are missing when none are saved', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { vault: new MemoryVault() });
    engine.start();
    engine.submitTap(newDeliveryOrderIds(box)[0]!, accept);
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(engine.status()).toMatchObject({ credentials: 'missing', waiting: 1 });
    expect(engine.status().message).toMatch(/No credentials/);
  });
});

describe('permanent failures', () => {
  it('marks a refused tap failed with the service code, holds its order, and lets other orders flow', async () => {
    const box = await sandbox(cleanup);
    const [x, y] = newDeliveryOrderIds(box) as [string, string];
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const order = await acceptAndLoad(engine, x);
    // This client may not read an order's status, so nothing tells it the refusal's why: the refusal
    // holds the order as any refusal does (with status access the taps are set aside: cancelled-elsewhere.test.ts).
    box.faults.set({ forbidReads: { changes: false, status: true } });
    // The customer cancels online; the terminal does not know yet.
    const cancel = await marketplace(cleanup, box).apply(x, { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'CUSTOMER_CANCEL_REQUEST' });
    expect(cancel.kind).toBe('success');

    const packing = engine.submitTap(x, { kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'PACKING' });
    const invoice = engine.submitTap(x, { kind: 'invoice', sellerInvoiceId: 'INV-1' });
    const other = engine.submitTap(y, accept);
    if (!packing.ok || !invoice.ok || !other.ok) throw new Error('tap refused');
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 1, remaining: 1 });

    const byId = new Map(engine.listOutbox({ includeDone: true }).map((e) => [e.id, e]));
    expect(byId.get(packing.value.id)).toMatchObject({
      state: 'failed',
      mayBeApplied: false,
      lastError: { kind: 'permanent', code: 'ORDER_CANCELLED' },
    });
    expect(byId.get(packing.value.id)?.lastError?.message).toMatch(/cancelled/);
    expect(byId.get(invoice.value.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(byId.get(other.value.id)).toMatchObject({ state: 'sent' });
    expect(box.requestLog().some((q) => q.requestId === invoice.value.requestId)).toBe(false);
    expect(engine.getOrder(x)).toMatchObject({ failed: 1, waiting: 1 });
    expect(engine.status()).toMatchObject({ failed: 1, waiting: 1 });
    expect(engine.status().message).toMatch(/refused by the service/);

    // A person retries: refused again, still holding.
    expect(engine.retry(packing.value.id).ok).toBe(true);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toMatchObject({ failed: 1, remaining: 1 });
    expect(engine.listOutbox().find((e) => e.id === packing.value.id)).toMatchObject({ state: 'failed', attempts: 2 });
    // A person discards it: the next tap of the order goes, and is refused on its own.
    expect(engine.discard(packing.value.id).ok).toBe(true);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 1, remaining: 0 });
    expect(engine.listOutbox().map((e) => [e.id, e.state])).toEqual([[invoice.value.id, 'failed']]);
    expect(engine.discard(invoice.value.id).ok).toBe(true);
    expect(engine.status()).toMatchObject({ failed: 0, waiting: 0, message: null });
  });

  it('reports an unknown order as NOT_FOUND, naming it', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    engine.submitTap('ORD-0000001', accept);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 1, remaining: 0 });
    const [entry] = engine.listOutbox();
    expect(entry).toMatchObject({ state: 'failed', lastError: { code: 'NOT_FOUND' } });
    expect(entry?.lastError?.message).toContain('ORD-0000001');
  });

  it('marks "may already be applied" when a refusal follows an attempt that got no answer', async () => {
    const box = await sandbox(cleanup);
    const [x] = newDeliveryOrderIds(box) as [string];
    const dir = tempDir(cleanup);
    const first = serviceEngine(cleanup, box, dir);
    first.engine.start();
    const order = await acceptAndLoad(first.engine, x);
    box.faults.set({ outage: 'reset' });
    const tap = first.engine.submitTap(x, { kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'PACKING' });
    if (!tap.ok) throw new Error(tap.problem.message);
    await first.engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    expect(first.engine.listOutbox()[0]).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: 'NETWORK' } });
    await first.close();

    // No access to `status`: the check before resend cannot settle it (with access the order shows
    // itself cancelled and the tap is set aside: cancelled-elsewhere.test.ts).
    box.faults.set({ outage: 'none', forbidReads: { changes: false, status: true } });
    await marketplace(cleanup, box).apply(x, { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'CUSTOMER_CANCEL_REQUEST' });
    const again = serviceEngine(cleanup, box, dir);
    again.engine.start();
    expect(await again.engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 0, failed: 1, remaining: 0 });
    expect(again.engine.listOutbox()[0]).toMatchObject({
      requestId: tap.value.requestId,
      state: 'failed',
      mayBeApplied: true,
      lastError: { code: 'ORDER_CANCELLED' },
    });
    expect(again.engine.getOrder(x)).toMatchObject({ mayBeApplied: true, failed: 0 });
    expect(again.engine.status().message).toMatch(/may already have been applied/);
    // A doubt for a person, not a plain failure: counted apart.
    expect(again.engine.status()).toMatchObject({ failed: 0, toCheck: 1 });
  });
});

describe('unreadable answers', () => {
  it('marks the tap delivered without resending, keeps the raw body and flags the order for a refresh', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const { engine } = serviceEngine(cleanup, box, dir);
    engine.start();
    const order = await acceptAndLoad(engine, newDeliveryOrderIds(box)[0]!);
    // No access to `status`, so the order cannot be read again at once: it stays flagged.
    box.faults.set({ malformedBodies: 1, forbidReads: { changes: true, status: true } });
    const store = fulfilmentId(order, 'STORE');
    const tap = engine.submitTap(order.id, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' });
    if (!tap.ok) throw new Error(tap.problem.message);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(engine.listOutbox({ includeDone: true }).at(-1)).toMatchObject({ state: 'sent', lastError: { code: 'UNREADABLE_ANSWER' } });
    expect(box.requestLog().filter((q) => q.requestId === tap.value.requestId)).toHaveLength(1);
    const flagged = engine.getOrder(order.id)!;
    expect(flagged.needsRefresh).toBe(true);
    // Still shown as PACKING, the step after it is offered, and a repeat is refused.
    expect(flagged.nextStep).toMatchObject({ key: 'PACKED' });
    expect(engine.submitTap(order.id, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' }).ok).toBe(false);

    const kept = openStore({ dataDir: dir, now: Date.now });
    if (!kept.ok) throw new Error(kept.problem.message);
    expect(kept.value.orders.get(order.id)?.rawUnreadable).toMatch(/^\{/);
    kept.value.close();

    expect(engine.submitTap(order.id, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKED' }).ok).toBe(true);
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    const refreshed = engine.getOrder(order.id)!;
    expect(refreshed.needsRefresh).toBe(false);
    expect(refreshed.order?.fulfillments.find((f) => f.type === 'STORE')?.fulfillmentState).toBe('PACKED');
  });
});
