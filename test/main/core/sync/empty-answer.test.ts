/**
 * A 2xx with an empty body (the platform's 204) is success: the entry is sent (not an unreadable
 * answer, no error kept) and the order is flagged for a refresh, or refreshed at once with a status
 * check. A small real proxy on 127.0.0.1 in front of the sandbox empties the first update answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { Sandbox } from '../../../../sandbox';
import { Cleanup, newDeliveryOrderIds, sandbox, sandboxStatusCheck, serviceEngine, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** Forwards to the sandbox; the first update answer that is a 2xx goes back as 204 with no body. */
async function emptyingProxy(box: Sandbox): Promise<string> {
  let emptied = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(`${box.url}${req.url ?? '/'}`, { method: req.method, headers, ...(body ? { body } : {}) });
        const text = await answer.text();
        if (!emptied && req.url?.endsWith('/update') && answer.ok) {
          emptied = true;
          res.writeHead(204).end();
          return;
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(() => new Promise<void>((resolve) => server.close(() => resolve())));
  cleanup.add(() => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it('an empty 2xx answer the status call cannot follow up: the tap is sent, no error kept, the order flagged for a refresh', async () => {
  const box = await sandbox(cleanup);
  const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { baseUrl: await emptyingProxy(box) });
  box.faults.set({ forbidReads: { changes: true, status: true } });
  engine.start();
  const id = newDeliveryOrderIds(box)[0]!;
  const tap = engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' });
  if (!tap.ok) throw new Error(tap.problem.message);
  expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
  expect(engine.listOutbox({ includeDone: true })[0]).toMatchObject({ state: 'sent', lastError: null });
  expect(engine.getOrder(id)).toMatchObject({ needsRefresh: true, failed: 0 });
  expect(box.appliedLog().filter((a) => a.requestId === tap.value.requestId)).toHaveLength(1);
  expect(engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(false);
});

it('an empty 2xx answer with a status check: the order is refreshed at once', async () => {
  const box = await sandbox(cleanup);
  const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { baseUrl: await emptyingProxy(box), statusCheck: sandboxStatusCheck(box) });
  engine.start();
  const id = newDeliveryOrderIds(box)[0]!;
  expect(engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
  expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
  expect(engine.listOutbox({ includeDone: true })[0]).toMatchObject({ state: 'sent', lastError: null });
  expect(engine.getOrder(id)).toMatchObject({ needsRefresh: false, nextStep: { key: 'PACKING' } });
});
