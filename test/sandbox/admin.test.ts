import { describe, expect, it } from 'vitest';
import { OrderSchema, type Order } from '../../src/shared/protocol/schemas';
import { findOrder, sandbox, token, update } from '../support/sandbox-http';

async function call(url: string, method = 'GET', body?: unknown): Promise<{ status: number; json: unknown }> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  const res = await fetch(url, init);
  return { status: res.status, json: await res.json() };
}

describe('sandbox admin API', () => {
  it('lists orders and one order, on the admin port and the service port', async () => {
    const s = await sandbox();
    for (const base of [s.adminUrl, s.url]) {
      const list = await call(`${base}/__sandbox/orders`);
      expect(list.status).toBe(200);
      const orders = (list.json as unknown[]).map((o) => OrderSchema.parse(o));
      expect(orders).toEqual(s.orders());
      const first = orders[0] as Order;
      const one = await call(`${base}/__sandbox/orders/${encodeURIComponent(first.id)}`);
      expect(one).toEqual({ status: 200, json: first });
      const missing = await call(`${base}/__sandbox/orders/ORD-404`);
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ error: { errorCode: 'NOT_FOUND', message: expect.stringContaining('ORD-404') as string } });
    }
  });

  it('shows the applied log, the request log and the stats', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, (o) => o.orderState === 'Created');
    await update(s, t, order.id, 'rq-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    await update(s, t, order.id, 'rq-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    const log = await call(`${s.adminUrl}/__sandbox/log`);
    expect(log.json).toEqual(s.appliedLog());
    expect(log.json).toMatchObject([{ requestId: 'rq-1', orderId: order.id, actionIndex: 0, action: { type: 'ORDER_STATE_UPDATE' } }]);
    const requests = await call(`${s.adminUrl}/__sandbox/requests`);
    expect(requests.json).toMatchObject([{ requestId: 'rq-1', duplicate: false }, { requestId: 'rq-1', duplicate: true }]);
    const stats = await call(`${s.adminUrl}/__sandbox/stats`);
    expect(stats.json).toEqual({
      tokenRequests: { client_credentials: 1, refresh_token: 0, refused: 0 },
      updateRequests: 2,
      changesRequests: 0,
      statusRequests: 0,
      probeRequests: 0,
      updateArrivals: 2,
    });
  });

  it('reads, patches (validated) and resets faults', async () => {
    const s = await sandbox();
    const url = `${s.adminUrl}/__sandbox/faults`;
    expect((await call(url)).json).toEqual(s.faults.get());
    const patched = await call(url, 'POST', { errorRate: 0.25, rateLimit: { count: 3, retryAfterSeconds: 2 } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ errorRate: 0.25, rateLimit: { count: 3, retryAfterSeconds: 2 }, outage: 'none' });
    expect(s.faults.get().errorRate).toBe(0.25);

    for (const bad of [{ errorRate: 2 }, { outage: 'down' }, { latency: 5 }, { expiredStatus: 403 }, '{not json']) {
      const a = await call(url, 'POST', bad);
      expect(a.status).toBe(400);
      expect(a.json).toMatchObject({ error: { message: expect.any(String) as string } });
    }
    expect(s.faults.get().errorRate).toBe(0.25);

    const reset = await call(`${s.adminUrl}/__sandbox/reset-faults`, 'POST');
    expect(reset.json).toMatchObject({ errorRate: 0, rateLimit: { count: 0 } });
    expect((await call(`${s.adminUrl}/__sandbox/reset-faults`)).status).toBe(405);
  });

  it('expires tokens on request', async () => {
    const s = await sandbox();
    const t = await token(s);
    const order = findOrder(s, (o) => o.orderState === 'Created');
    const expired = await call(`${s.adminUrl}/__sandbox/expire-tokens`, 'POST');
    expect(expired).toEqual({ status: 200, json: { expired: 1 } });
    const a = await update(s, t, order.id, 'rq-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
    expect(a.status).toBe(401);
  });

  it('answers 404 for an unknown admin route', async () => {
    const s = await sandbox();
    expect((await call(`${s.adminUrl}/__sandbox/nothing`)).status).toBe(404);
  });
});
