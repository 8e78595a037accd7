/**
 * Answers are read up to a cap, never whole: a real HTTP server on 127.0.0.1 streams a body far
 * larger than the cap (honouring backpressure, so it only writes what the client reads), and the
 * client must stop reading, and classify a 2xx as delivered-but-unreadable (never resent).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderServiceClient } from '../../../../src/main/core/api';
import { realTimers } from '../../../../src/main/core/api/http';
import { createEngine } from '../../../../src/main/core/engine';
import { requestToken } from '../../../../src/main/core/auth/token-endpoint';
import { SecretRegistry } from '../../../../src/main/core/log';
import { buildChangesRequest } from '../../../../src/shared/protocol/intake';
import { ok } from '../../../../src/shared/result';
import { updateOf } from '../../../support/world';

const MiB = 1024 * 1024;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface Streamer {
  readonly url: string;
  /** Requests answered so far. */
  requests(): number;
  /** Bytes handed to the socket so far (at most what the client read plus socket buffers). */
  written(): number;
}

/** A server that answers every request with `status` and a JSON-looking body of `totalBytes`. */
async function streamer(status: number, totalBytes: number): Promise<Streamer> {
  let written = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      res.writeHead(status, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 'x');
      let stopped = false;
      res.on('close', () => (stopped = true));
      const pump = (): void => {
        while (!stopped && written < totalBytes) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!stopped) res.end();
      };
      res.write('{"response":{"orderId":"');
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, written: () => written, requests: () => requests };
}

const tokens = { authorization: async () => ok('Bearer t'), rejected: async () => ok('Bearer t') };
const BIG = 160 * MiB;

describe('answers are read up to a cap', () => {
  it('a 200 far over the cap is delivered but unreadable (not resent), and the rest is not read', async () => {
    const server = await streamer(200, BIG);
    const client = new OrderServiceClient({ baseUrl: server.url, tokens, timeoutMs: 30_000 });
    const outcome = await client.update(updateOf('ORD-1', { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-1' } }));
    expect(outcome.kind).toBe('unreadable');
    if (outcome.kind === 'unreadable') {
      expect(outcome.status).toBe(200);
      expect(outcome.message).toMatch(/accepted the update \(HTTP 200\).*larger than 4 MiB/);
      expect(outcome.rawBody.length).toBeLessThanOrEqual(64 * 1024);
    }
    expect(server.written()).toBeLessThan(48 * MiB);
  });

  it('the engine (real SQLite) takes an oversized 200 as delivered and never sends that tap again', async () => {
    const server = await streamer(200, BIG);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-cap-'));
    closers.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const sender = new OrderServiceClient({ baseUrl: server.url, tokens, timeoutMs: 30_000 });
    const engine = createEngine({ dataDir: dir, sender, terminalId: 'T1', undoWindowMs: 0, backoff: { baseMs: 20, capMs: 100 } });
    closers.push(() => engine.stop());
    expect(engine.submitTap('ORD-1', { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
    await engine.drain({ untilEmpty: true, timeoutMs: 20_000 });
    await engine.drain({ untilEmpty: true, timeoutMs: 1_000 });
    expect(server.requests()).toBe(1);
    const [entry] = engine.listOutbox({ includeDone: true });
    expect(entry?.state).toBe('sent');
    expect(engine.status().waiting).toBe(0);
    expect(engine.getOrder('ORD-1')?.needsRefresh).toBe(true);
  });

  it('a 503 far over the cap is still a plain transient failure, read only up to the cap', async () => {
    const server = await streamer(503, BIG);
    const client = new OrderServiceClient({ baseUrl: server.url, tokens, timeoutMs: 30_000 });
    const outcome = await client.update(updateOf('ORD-1', { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-1' } }));
    expect(outcome).toMatchObject({ kind: 'transient', status: 503, noAnswer: false });
    expect(server.written()).toBeLessThan(48 * MiB);
  });

  it('the token endpoint stops reading an oversized answer and says what it was', async () => {
    const server = await streamer(200, BIG);
    const answer = await requestToken(
      { clientId: 'c', clientSecret: 's' },
      { grantType: 'client_credentials' },
      { authUrl: server.url, fetch, timers: realTimers, now: Date.now, timeoutMs: 30_000, secrets: new SecretRegistry() },
    );
    expect(answer.kind).toBe('transient');
    if (answer.kind === 'transient') expect(answer.message).toMatch(/token server answered HTTP 200 with an answer larger than/);
    expect(server.written()).toBeLessThan(48 * MiB);
  });

  it('a 10 MB answer to changes is said to be too large, not "not JSON"', async () => {
    const server = await streamer(200, 10 * MiB);
    const client = new OrderServiceClient({ baseUrl: server.url, tokens, timeoutMs: 30_000 });
    const outcome = await client.changes(buildChangesRequest({ requestId: 'r-1', serviceProviderId: 'SP-1', fromTimestamp: 0, toTimestamp: 1, size: 10 }));
    expect(outcome).toMatchObject({ kind: 'refused', status: 200 });
    if (outcome.kind === 'refused') {
      expect(outcome.message).toMatch(/too large to read \(over 4 MiB\)/);
      expect(outcome.message).not.toMatch(/not JSON/);
    }
  });
});
