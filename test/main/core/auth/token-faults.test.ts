/**
 * Token server faults as the terminal shows them, with a real misbehaving token server on
 * 127.0.0.1 in front of the real sandbox order service: a token that cannot go in an HTTP header
 * is refused at once as an auth problem (not "offline" for the token's life), and a token server
 * that answers badly (HTML, 500, expires_in 0) is never worded as "No connection to the order
 * service".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Cleanup, newOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** A token endpoint that always gives the same answer; counts the requests it gets. */
async function tokenServer(status: number, contentType: string, body: string): Promise<{ url: string; requests(): number }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      res.writeHead(status, { 'Content-Type': contentType }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

const token = (fields: Record<string, unknown>): string =>
  JSON.stringify({ access_token: 'a'.repeat(40), token_type: 'Bearer', expires_in: 3600, ...fields });

describe('token server faults', () => {
  it.each([
    ['CR LF in token_type', 'Bearer\r\nX-Injected: 1'],
    ['a lone LF in token_type', 'Bearer\nx'],
  ])('a token with %s is refused at once as an auth problem', async (_label, tokenType) => {
    const box = await sandbox(cleanup);
    const auth = await tokenServer(200, 'application/json', token({ token_type: tokenType }));
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { authUrl: auth.url });
    const orderId = newOrderIds(box)[0]!;
    expect(engine.submitTap(orderId, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
    await engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    const status = engine.status();
    expect(status.connectivity).not.toBe('offline');
    expect(status.credentials).toBe('rejected');
    expect(status.message ?? '').not.toMatch(/No connection/);
    const [entry] = engine.listOutbox();
    expect(entry?.lastError?.kind).toBe('auth');
    expect(entry?.lastError?.message).toMatch(/token server issued a token that cannot be used/);
    // Nothing reached the order service with a broken header.
    expect(box.appliedLog()).toEqual([]);
  });

  it.each([
    ['an HTML page', 200, 'text/html', '<html><body>Login</body></html>', /token server/i],
    ['HTTP 500', 500, 'application/json', '{}', /token server/i],
    ['expires_in 0', 200, 'application/json', token({ expires_in: 0 }), /token server/i],
  ])('%s from the token server is not worded as no connection to the order service', async (_label, status, type, body, expected) => {
    const box = await sandbox(cleanup);
    const auth = await tokenServer(status, type, body);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { authUrl: auth.url });
    const orderId = newOrderIds(box)[0]!;
    expect(engine.submitTap(orderId, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
    await engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    expect(auth.requests()).toBeGreaterThan(0);
    const s = engine.status();
    expect(s.connectivity).not.toBe('offline');
    expect(s.message ?? '').not.toMatch(/No connection/);
    expect(s.message ?? '').toMatch(expected);
    const [entry] = engine.listOutbox();
    expect(entry?.lastError?.message).toMatch(expected);
    // Kept and retried (it may be on its way again already), never given up.
    expect(['queued', 'sending']).toContain(entry?.state);
  });
});
