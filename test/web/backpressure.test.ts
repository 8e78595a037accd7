/**
 * The harness socket checks backpressure: a real WebSocket client that stops reading is dropped
 * once what waits for it passes a bound (the bridge reconnects and reads the state again), instead
 * of the host buffering every event for it; a client that keeps reading stays connected and gets
 * every event, also right behind one frame larger than the bound.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger, MemorySink } from '../../src/main/core/log';
import type { EventName } from '../../src/shared/ipc';
import { bridgeScript } from '../../src/web/bundle';
import { MAX_BUFFERED_BYTES, startWebServer } from '../../src/web/server';
import { IPC_PATH } from '../../src/web/wire';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function open(url: string, origin: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('harness socket backpressure', () => {
  it('drops a client that stops reading once its backlog passes the bound; a reading client keeps every event', async () => {
    const root = mkdtempSync(join(tmpdir(), 'packdesk-web-'));
    closers.push(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    let emit: (event: EventName, body: unknown) => void = () => undefined;
    const sink = new MemorySink();
    const server = await startWebServer({
      rendererDir: root,
      log: createLogger([sink]),
      bridge: bridgeScript,
      handle: async () => ({ ok: true, value: null }),
      subscribe(listener) {
        emit = listener;
        return () => undefined;
      },
    });
    closers.push(() => server.close());
    const url = `ws://127.0.0.1:${server.port}${IPC_PATH}?t=${server.token}`;

    const stalled = await open(url, server.origin);
    closers.push(() => stalled.terminate());
    const reader = await open(url, server.origin);
    closers.push(() => reader.terminate());
    let received = 0;
    reader.on('message', () => (received += 1));
    let stalledClosed = false;
    stalled.on('close', () => (stalledClosed = true));
    stalled.pause(); // stops reading: the kernel buffers fill, then the server's queue would grow

    // 64 MiB of events in 32 KiB bodies, yielding now and then so a reading client can keep up.
    const body = { orders: [{ note: 'x'.repeat(32 * 1024) }] };
    const events = 2048;
    for (let i = 0; i < events; i++) {
      emit('orders.changed', body);
      if (i % 8 === 7) await turn();
    }
    await expect.poll(() => received, { timeout: 20_000 }).toBe(events);
    expect(reader.readyState).toBe(WebSocket.OPEN);

    // One frame far over the bound (orders.list of thousands of orders with their items), with
    // events right behind it: a page that reads it is not a stalled page.
    received = 0;
    emit('orders.changed', { orders: [{ note: 'y'.repeat(MAX_BUFFERED_BYTES * 2) }] });
    for (let i = 0; i < 16; i++) emit('sync.status', { i });
    await expect.poll(() => received, { timeout: 20_000 }).toBe(17);
    expect(reader.readyState).toBe(WebSocket.OPEN);

    stalled.resume();
    await expect.poll(() => stalledClosed, { timeout: 10_000 }).toBe(true);
    expect(JSON.stringify(sink.records)).toMatch(/stopped reading/);
    expect(MAX_BUFFERED_BYTES).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
