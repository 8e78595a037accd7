/** The client's read calls (changes, status) and the 204 answer, against the sandbox over HTTP. */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../../../sandbox';
import { createStatusCheck } from '../../../../src/main/core/api';
import { buildChangesRequest, statusAnswerSchema } from '../../../../src/shared/protocol';
import { accept, freshOrder, startWorld, updateOf, type World } from '../../../support/world';

const worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});
async function world(sandbox: SandboxOptions = {}): Promise<World> {
  const w = await startWorld({ sandbox: { arrivalEveryMs: 0, changesMinIntervalMs: 0, ...sandbox } });
  worlds.push(w);
  return w;
}
const window = (size: number, nextPage?: string | null) =>
  buildChangesRequest({ requestId: randomUUID(), serviceProviderId: 'SP-BLR-0142', fromTimestamp: Date.now() - 86_400_000, toTimestamp: Date.now(), size, nextPage: nextPage ?? null });

describe('read calls', () => {
  it('reads every page of changes behind the opaque cursor, each id once, capped at the page size', async () => {
    const w = await world({ orderCount: 23, changesMaxPageSize: 10 });
    const ids: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const outcome = await w.client.changes(window(50, next));
      if (outcome.kind !== 'ok') throw new Error(`changes answered ${outcome.kind}`);
      expect(outcome.value.orderIds.length).toBeLessThanOrEqual(10);
      ids.push(...outcome.value.orderIds);
      next = outcome.value.nextPage;
      pages++;
    } while (next);
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(23);
    expect(new Set(ids)).toEqual(new Set(w.sandbox.orders().map((o) => o.id)));
  });

  it('answers a poll sooner than the minimum interval with 429 and Retry-After, which the client reads', async () => {
    const w = await world({ changesMinIntervalMs: 60_000 });
    expect((await w.client.changes(window(10))).kind).toBe('ok');
    const second = await w.client.changes(window(10));
    expect(second).toMatchObject({ kind: 'transient', status: 429, network: false });
    expect(second.kind === 'transient' && second.retryAfterMs).toBeGreaterThan(50_000);
  });

  it('fetches one order with status in the ORDER_VIEW envelope, with its items', async () => {
    const w = await world();
    const order = freshOrder(w.sandbox);
    const outcome = await w.client.status(order.id);
    if (outcome.kind !== 'order') throw new Error(`status answered ${outcome.kind}`);
    expect(outcome.order.items.map((i) => i.itemId)).toEqual(order.items.map((i) => i.itemId));
    expect(statusAnswerSchema().parse(outcome.raw).type).toBe('ORDER_VIEW');
  });

  it('says an unknown order is not found (ORDER_NOT_FOUND, 404), and the StatusCheck calls it unavailable', async () => {
    const w = await world();
    expect(await w.client.status('ORD-404')).toMatchObject({ kind: 'notFound' });
    expect(await createStatusCheck(w.client)('ORD-404')).toEqual({ kind: 'unavailable' });
  });

  it('reports a 403 on changes and on status as no access', async () => {
    const w = await world();
    w.sandbox.faults.set({ forbidReads: { changes: true, status: true } });
    expect(await w.client.changes(window(10))).toMatchObject({ kind: 'noAccess', status: 403 });
    expect(await w.client.status(freshOrder(w.sandbox).id)).toMatchObject({ kind: 'noAccess', status: 403 });
  });

  it('a StatusCheck on an unreachable service says unreachable, on a reachable one gives the order', async () => {
    const w = await world();
    const order = freshOrder(w.sandbox);
    const check = createStatusCheck(w.client);
    expect(await check(order.id)).toMatchObject({ kind: 'order', order: { id: order.id } });
    w.sandbox.faults.set({ outage: 'refuse' });
    expect(await check(order.id)).toEqual({ kind: 'unreachable' });
  });

  it('an update answered 204 without a body is success: the order is fetched with status', async () => {
    const w = await world();
    const order = freshOrder(w.sandbox);
    w.sandbox.faults.set({ emptyUpdateAnswers: 1 });
    const answer = await w.client.updateAnswer(updateOf(order.id, { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }));
    expect(answer).toEqual({ kind: 'accepted', status: 204 });
    // The outbox's entry point: a 204 becomes success with the order read back by status.
    const other = freshOrder(w.sandbox, new Set([order.id]));
    w.sandbox.faults.set({ emptyUpdateAnswers: 1 });
    const outcome = await w.send(updateOf(other.id, { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }));
    expect(outcome).toMatchObject({ kind: 'success', status: 204, order: { id: other.id, orderState: 'Accepted' } });
    expect(w.sandbox.stats().statusRequests).toBe(1);
  });

  it('an update answered 204 whose status call fails is delivered-unreadable, never resent', async () => {
    const w = await world();
    const order = freshOrder(w.sandbox);
    w.sandbox.faults.set({ emptyUpdateAnswers: 1, forbidReads: { changes: false, status: true } });
    const outcome = await w.send(updateOf(order.id, { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }));
    expect(outcome.kind).toBe('unreadable');
    expect(w.sandbox.order(order.id)?.orderState).toBe('Accepted');
  });

  it('epoch-millisecond timestamps in a status answer are read as ISO strings', async () => {
    const w = await world();
    const order = freshOrder(w.sandbox);
    await accept(w, order.id);
    const parsed = statusAnswerSchema().parse({ type: 'ORDER_VIEW', response: { ...order, updatedAt: 1_700_000_000_000, billing: { createdAt: 1_700_000_000_000 } } });
    expect(parsed.response.updatedAt).toBe('2023-11-14T22:13:20.000Z');
    expect(parsed.response.billing?.createdAt).toBe('2023-11-14T22:13:20.000Z');
  });
});
