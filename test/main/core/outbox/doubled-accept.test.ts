/**
 * An Accept whose answer could not be read, for an order the terminal has no details of: a second
 * Accept is refused locally (the first was sent), and with a status check the order loads.
 */
import { afterEach, expect, it } from 'vitest';
import { Cleanup, newDeliveryOrderIds, sandbox, sandboxStatusCheck, serviceEngine, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const accept = { kind: 'orderState', state: 'ACCEPTED' } as const;

it('refuses a second Accept after the first was sent with an unreadable answer: one POST, one requestId', async () => {
  const box = await sandbox(cleanup);
  const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
  engine.start();
  const id = newDeliveryOrderIds(box)[0]!;
  // No access to `status` either, so nothing can load the order: it stays "not loaded".
  box.faults.set({ malformedBodies: 1, forbidReads: { changes: true, status: true } });
  const first = engine.submitTap(id, accept);
  if (!first.ok) throw new Error(first.problem.message);
  expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
  expect(engine.getOrder(id)).toMatchObject({ order: null, needsRefresh: true });

  const second = engine.submitTap(id, accept);
  expect(second).toMatchObject({ ok: false, problem: { kind: 'invalid' } });
  await engine.drain({ untilEmpty: true, timeoutMs: 5000 });
  expect(box.requestLog().filter((r) => r.orderId === id).map((r) => r.requestId)).toEqual([first.value.requestId]);
});

it('with a status check, an unreadable answer is followed by a refresh: the order loads and needs no refresh', async () => {
  const box = await sandbox(cleanup);
  const check = sandboxStatusCheck(box);
  const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { statusCheck: check });
  engine.start();
  const id = newDeliveryOrderIds(box)[0]!;
  box.faults.set({ malformedBodies: 1 });
  expect(engine.submitTap(id, accept).ok).toBe(true);
  expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
  const view = engine.getOrder(id);
  expect(view).toMatchObject({ needsRefresh: false, waiting: 0 });
  expect(view?.order?.orderState.toUpperCase()).toBe('ACCEPTED');
  expect(view?.nextStep?.key).toBe('PACKING');
  expect(check.calls).toEqual([id]);
  const [entry] = engine.listOutbox({ includeDone: true });
  expect(entry).toMatchObject({ state: 'sent', lastError: { code: 'UNREADABLE_ANSWER' } });
  expect(entry?.lastError?.message).toMatch(/refreshed by a status check/);
});
