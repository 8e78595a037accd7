import { request } from 'node:http';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { orderUpdateSuccessSchema, type Action, type Order } from '../../src/shared/protocol/schemas';
import { errorCode, findOrder, postUpdate, sandbox, token, update, updateBody } from '../support/sandbox-http';

const isNew = (o: Order): boolean => o.orderState === 'Created';
const accept: Action[] = [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }];

/** One GET on a fresh connection (no pooled socket), resolving with the status or the error code. */
function freshGet(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

/** The network error code behind a failed fetch. */
async function fetchError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? (error as Error).name;
  }
}

describe('sandbox faults', () => {
  it('errorRate 1 answers every update 503 with an error body and applies nothing', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    s.faults.set({ errorRate: 1 });
    const a = await update(s, t, order.id, 'rq-503', accept);
    expect([a.status, errorCode(a)]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(a.json).toMatchObject({ requestContext: { requestId: 'rq-503', transactionId: order.id } });
    expect(s.appliedLog()).toEqual([]);
    s.faults.set({ errorRate: 0 });
    // The retry with the same requestId applies: a 503 is not an answer to remember.
    expect((await update(s, t, order.id, 'rq-503', accept)).status).toBe(200);
    expect(s.requestLog().map((r) => [r.status, r.fault])).toEqual([
      [503, 'error-rate'],
      [200, undefined],
    ]);
  });

  it('draws a partial error rate from the seed: the same seed fails the same requests', async () => {
    const pattern = async (): Promise<number[]> => {
      const s = await sandbox({ seed: 7 });
      const t = await token(s);
      s.faults.set({ errorRate: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await update(s, t, 'ORD-none', `rq-${i}`, accept)).status);
      return statuses;
    };
    const first = await pattern();
    expect(first).toContain(503);
    expect(first).toContain(404);
    expect(await pattern()).toEqual(first);
  });

  it("outage 'refuse' refuses connections, keeps the admin port up, and listens again on the same port", async () => {
    const s = await sandbox();
    const t = await token(s);
    s.faults.set({ outage: 'refuse' });
    expect(await freshGet(`${s.url}/tsp/order/v1/update`)).toBe('ECONNREFUSED');
    await tick();
    expect(await fetchError(update(s, t, 'ORD-1', 'rq-1', accept))).toBe('ECONNREFUSED');
    expect((await fetch(`${s.adminUrl}/__sandbox/stats`)).status).toBe(200);

    // Back via the admin API, which answers once the service port listens again.
    const back = await fetch(`${s.adminUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ outage: 'none' }) });
    expect(back.status).toBe(200);
    expect(await freshGet(`${s.url}/tsp/order/v1/update`)).toBe(405);
    const order = findOrder(s, isNew);
    expect((await update(s, t, order.id, 'rq-2', accept)).status).toBe(200);
    expect(new URL(s.url).port).toBe(String(s.port));
  });

  it("close() works during a 'refuse' outage and frees the port", async () => {
    const first = await sandbox();
    first.faults.set({ outage: 'refuse' });
    await first.close();
    const second = await sandbox({ port: first.port });
    expect(second.port).toBe(first.port);
  });

  it("outage 'hang' accepts and never answers; close() still completes", async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    s.faults.set({ outage: 'hang' });
    const hung = postUpdate(s, `O-Bearer ${t.access_token}`, updateBody(order.id, 'rq-h', accept), AbortSignal.timeout(300));
    expect(await fetchError(hung)).toBe('TimeoutError');
    // A second request stays hung while we close the sandbox under it.
    const pending = fetchError(fetch(`${s.url}/tsp/order/v1/update`));
    await s.close();
    expect(await pending).not.toBe('no error');
    expect(s.requestLog()).toEqual([]);
    expect(s.appliedLog()).toEqual([]);
  });

  it("outage 'reset' cuts the connection when a request arrives", async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    s.faults.set({ outage: 'reset' });
    expect(await fetchError(update(s, t, order.id, 'rq-r', accept))).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(await freshGet(`${s.url}/tsp/order/v1/update`)).toBe('ECONNRESET');
    expect(s.appliedLog()).toEqual([]);
    s.faults.set({ outage: 'none' });
    expect((await update(s, t, order.id, 'rq-r', accept)).status).toBe(200);
  });

  it('rate limit answers the next N updates 429 with Retry-After, then lets them through', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    s.faults.set({ rateLimit: { count: 2, retryAfterSeconds: 7 } });
    for (let i = 0; i < 2; i++) {
      const a = await update(s, t, order.id, 'rq-rl', accept);
      expect([a.status, errorCode(a), a.headers.get('retry-after')]).toEqual([429, 'RATE_LIMITED', '7']);
    }
    expect(s.faults.get().rateLimit.count).toBe(0);
    expect((await update(s, t, order.id, 'rq-rl', accept)).status).toBe(200);
    expect(s.appliedLog()).toHaveLength(1);
  });

  it('malformed bodies: the update is applied but the 200 answer cannot be read', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, isNew);
    s.faults.set({ malformedBodies: 1 });
    const a = await update(s, t, order.id, 'rq-m', accept);
    expect(a.status).toBe(200);
    expect(a.json).toBeUndefined();
    expect(orderUpdateSuccessSchema().safeParse(a.json).success).toBe(false);
    expect(s.order(order.id)?.orderState).toBe('Accepted');
    expect(s.appliedLog()).toHaveLength(1);
    expect(s.requestLog()[0]).toMatchObject({ requestId: 'rq-m', status: 200, fault: 'malformed' });
    // Only one body was spoiled; a repeat gets the service's real, readable answer and applies nothing.
    const again = await update(s, t, order.id, 'rq-m', accept);
    expect(orderUpdateSuccessSchema().parse(again.json).response.orderState).toBe('Accepted');
    expect(s.appliedLog()).toHaveLength(1);
  });

  it('latency delays answers without changing them', async () => {
    const s = await sandbox();
    const t = await token(s);
    s.faults.set({ latencyMs: 30 });
    const order = findOrder(s, isNew);
    expect((await update(s, t, order.id, 'rq-l', accept)).status).toBe(200);
    expect((await fetch(`${s.url}/tsp/order/v1/update`)).status).toBe(405);
  });

  it('refuses fault values out of range with a TypeError, and reset() clears everything', async () => {
    const s = await sandbox({ expiredStatus: 412 });
    expect(() => s.faults.set({ errorRate: 2 })).toThrow(TypeError);
    expect(() => s.faults.set({ outage: 'down' as never })).toThrow(TypeError);
    s.faults.set({ latencyMs: 5, errorRate: 0.5, malformedBodies: 3, refuseRefresh: true, expiredStatus: 401, dedupe: false, forbidReads: { changes: true, status: false }, tokenClockOffsetMs: -3 * 3_600_000 });
    s.faults.reset();
    expect(s.faults.get()).toEqual({
      latencyMs: 0,
      errorRate: 0,
      outage: 'none',
      rateLimit: { count: 0, retryAfterSeconds: 1 },
      malformedBodies: 0,
      refuseRefresh: false,
      rejectCredentials: false,
      expiredStatus: 412,
      readsRateLimit: { count: 0, retryAfterSeconds: 1 },
      dedupe: true,
      dropAfterApply: 0,
      emptyUpdateAnswers: 0,
      forbidReads: { changes: false, status: false },
      tokenClockOffsetMs: 0,
      changesEveryMs: 0,
      changesNextPage: 'normal',
      badStatus: { answer: 'none', count: 0, orderIds: [] },
    });
  });
});
