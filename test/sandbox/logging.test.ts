import { describe, expect, it } from 'vitest';
import { createLogger, MemorySink, SecretRegistry } from '../../src/main/core/log';
import { findOrder, postUpdate, sandbox, token, tokenRequest, update, updateBody } from '../support/sandbox-http';

describe('sandbox logging and limits', () => {
  it('logs what happened without any secret or token', async () => {
    const sink = new MemorySink();
    // A registry that knows no secrets: only what the sandbox chooses to log is tested.
    const log = createLogger([sink], { registry: new SecretRegistry(), minLevel: 'debug' });
    const s = await sandbox({ log, clientSecret: 'very-secret-value-1' });
    const creds = { client_id: 'training', client_secret: 'very-secret-value-1' };
    const first = (await tokenRequest(s, { grant_type: 'client_credentials', ...creds })).json as { access_token: string; refresh_token: string };
    const second = (await tokenRequest(s, { grant_type: 'refresh_token', ...creds, token: first.access_token, refresh_token: first.refresh_token }))
      .json as { access_token: string; refresh_token: string };
    await tokenRequest(s, { grant_type: 'client_credentials', client_id: 'training', client_secret: 'wrong-secret-value-2' });
    const order = findOrder(s, (o) => o.orderState === 'Created');
    await postUpdate(s, `O-Bearer ${second.access_token}`, updateBody(order.id, 'rq-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]));
    await postUpdate(s, 'O-Bearer made-up-token-value-3', updateBody(order.id, 'rq-2', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]));
    s.faults.set({ errorRate: 1 });
    s.expireTokensNow();

    const text = JSON.stringify(sink.records);
    expect(sink.records.map((r) => r.msg)).toEqual(
      expect.arrayContaining(['listening', 'token issued', 'token refused', 'update request', 'faults changed', 'tokens expired']),
    );
    expect(text).toContain('rq-1');
    for (const secret of ['very-secret-value-1', 'wrong-secret-value-2', 'made-up-token-value-3', first.access_token, first.refresh_token, second.access_token, second.refresh_token])
      expect(text).not.toContain(secret);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const s = await sandbox();
    const t = await token(s);
    const a = await postUpdate(s, `O-Bearer ${t.access_token}`, 'x'.repeat(1024 * 1024 + 10));
    expect(a.status).toBe(413);
    const order = findOrder(s, (o) => o.orderState === 'Created');
    expect((await update(s, t, order.id, 'rq-after', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }])).status).toBe(200);
  });
});
