/**
 * Answers the sandbox never gives (it follows the spec), fed to the client through its injected
 * fetch: the classification must still follow decisions.md.
 */
import { describe, expect, it } from 'vitest';
import { describeNetworkFailure, OrderServiceClient, realTimers, startDeadline, type TokenSource } from '../../../../src/main/core/api';
import { buildUpdateRequest } from '../../../../src/shared/protocol';
import { ok } from '../../../../src/shared/result';

const tokens: TokenSource = { authorization: async () => ok('O-Bearer t-123456'), rejected: async () => ok('O-Bearer t-123456') };
const request = (() => {
  const r = buildUpdateRequest('ORD-1', 'req-1', [{ type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }]);
  if (!r.ok) throw new Error(r.problem.message);
  return r.value;
})();
const NOW = Date.UTC(2025, 0, 10, 12, 0, 0);

function clientAnswering(response: () => Response): OrderServiceClient {
  return new OrderServiceClient({ baseUrl: 'http://127.0.0.1:9/', tokens, fetch: async () => response(), now: () => NOW });
}

describe('classification of answers the sandbox does not give', () => {
  it('a 4xx without an error body is permanent HTTP_<status> with a readable message', async () => {
    const outcome = await clientAnswering(() => new Response('<html>Forbidden</html>', { status: 403 })).update(request);
    expect(outcome).toEqual({
      kind: 'permanent',
      status: 403,
      errorCode: 'HTTP_403',
      message: 'The order service refused the update with HTTP 403 without saying why.',
    });
  });

  it('a 5xx with an error body is transient and quotes the service', async () => {
    const body = JSON.stringify({ error: { errorCode: 'DB_DOWN', message: 'Database unavailable' } });
    const outcome = await clientAnswering(() => new Response(body, { status: 502 })).update(request);
    expect(outcome).toMatchObject({ kind: 'transient', status: 502, noAnswer: false });
    if (outcome.kind === 'transient') expect(outcome.message).toContain('DB_DOWN: Database unavailable');
  });

  it('408 and 425 are transient; Retry-After as an HTTP date becomes milliseconds', async () => {
    for (const status of [408, 425]) expect((await clientAnswering(() => new Response('', { status })).update(request)).kind).toBe('transient');
    const retryAt = new Date(NOW + 120_000).toUTCString();
    const outcome = await clientAnswering(() => new Response('', { status: 503, headers: { 'Retry-After': retryAt } })).update(request);
    expect(outcome).toMatchObject({ kind: 'transient', status: 503, retryAfterMs: 120_000 });
  });

  it('a 2xx carrying an error body is unreadable (delivered, not resent), not success', async () => {
    const body = JSON.stringify({ error: { errorCode: 'X', message: 'y' } });
    const outcome = await clientAnswering(() => new Response(body, { status: 200 })).update(request);
    expect(outcome).toMatchObject({ kind: 'unreadable', status: 200, rawBody: body });
  });

  it('a redirect is not followed (it would re-send the update elsewhere) and is transient', async () => {
    const outcome = await clientAnswering(() => new Response(null, { status: 302, headers: { Location: 'http://elsewhere/' } })).update(request);
    expect(outcome).toMatchObject({ kind: 'transient', status: 302, noAnswer: false });
  });

  it('a token problem before sending is passed on: auth stays auth, transient says nothing was sent', async () => {
    const failing = (kind: 'auth' | 'transient'): TokenSource => ({
      authorization: async () => ({ ok: false, problem: { kind, message: `token ${kind}` } }),
      rejected: async () => ({ ok: false, problem: { kind, message: `token ${kind}` } }),
    });
    const called: string[] = [];
    const client = (kind: 'auth' | 'transient') =>
      new OrderServiceClient({ baseUrl: 'http://127.0.0.1:9', tokens: failing(kind), fetch: async (i) => (called.push(String(i)), new Response('')) });
    expect(await client('auth').update(request)).toEqual({ kind: 'auth', message: 'token auth' });
    expect(await client('transient').update(request)).toEqual({ kind: 'transient', message: 'token transient', noAnswer: false });
    expect(called).toEqual([]);
  });

  it('never throws, even when fetch itself misbehaves', async () => {
    const client = new OrderServiceClient({
      baseUrl: 'http://127.0.0.1:9',
      tokens,
      fetch: async () => {
        throw new Error('boom for O-Bearer t-123456');
      },
    });
    const outcome = await client.update(request);
    expect(outcome).toMatchObject({ kind: 'transient', noAnswer: true });
    if (outcome.kind === 'transient') expect(outcome.message).not.toContain('t-123456');
  });
});

describe('network failures in words', () => {
  const url = 'http://orders.example:8443/tsp/order/v1/update';
  const failure = (code: string) => {
    const deadline = startDeadline(60_000, realTimers);
    const error = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('x'), { code }) });
    const described = describeNetworkFailure(error, { what: 'The order service', url, deadline, timeoutMs: 60_000 });
    deadline.done();
    return described;
  };

  it('refused, DNS and unreachable: nothing was sent', () => {
    expect(failure('ECONNREFUSED')).toMatchObject({ cause: 'refused', noAnswer: false });
    expect(failure('ENOTFOUND')).toMatchObject({ cause: 'dns', noAnswer: false });
    expect(failure('EAI_AGAIN')).toMatchObject({ cause: 'dns', noAnswer: false });
    expect(failure('EHOSTUNREACH')).toMatchObject({ noAnswer: false });
    expect(failure('UND_ERR_CONNECT_TIMEOUT')).toMatchObject({ noAnswer: false });
  });

  it('reset and unknown failures: it may have been sent', () => {
    expect(failure('ECONNRESET')).toMatchObject({ cause: 'reset', noAnswer: true });
    expect(failure('UND_ERR_SOCKET')).toMatchObject({ cause: 'reset', noAnswer: true });
    expect(failure('SOMETHING_NEW')).toMatchObject({ cause: 'network', noAnswer: true });
  });

  it('names the host but never the path', () => {
    const { message } = failure('ENOTFOUND');
    expect(message).toContain('orders.example:8443');
    expect(message).not.toContain('/tsp/');
  });
});
