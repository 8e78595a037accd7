/** A 429 with an absurd Retry-After, from a real server on 127.0.0.1: the outcome says the capped wait. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderServiceClient } from '../../../../src/main/core/api';
import { ok } from '../../../../src/shared/result';
import { updateOf } from '../../../support/world';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function throttler(retryAfter: string): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(429, { 'Retry-After': retryAfter, 'Content-Type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const tokens = { authorization: async () => ok('Bearer t'), rejected: async () => ok('Bearer t') };
const send = (url: string) =>
  new OrderServiceClient({ baseUrl: url, tokens }).update(
    updateOf('ORD-1', { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-1' } }),
  );

describe('Retry-After is capped', () => {
  it.each(['99999999999', 'Fri, 31 Dec 9999 23:59:59 GMT'])('Retry-After %s: the outcome and its words say one hour', async (header) => {
    const outcome = await send(await throttler(header));
    expect(outcome.kind).toBe('transient');
    if (outcome.kind !== 'transient') return;
    expect(outcome.status).toBe(429);
    expect(outcome.retryAfterMs).toBe(60 * 60 * 1000);
    expect(outcome.message).not.toMatch(/99999|\d{6,} s/);
    expect(outcome.message).toMatch(/retry in 1 h\b/);
  });

  it('a sane Retry-After is said as asked', async () => {
    const outcome = await send(await throttler('7'));
    expect(outcome).toMatchObject({ kind: 'transient', status: 429, retryAfterMs: 7000 });
    if (outcome.kind === 'transient') expect(outcome.message).toMatch(/retry in 7 s/);
  });
});
