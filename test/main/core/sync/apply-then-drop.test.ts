/**
 * Check before resend against a service that does NOT de-duplicate requestIds (nothing says the
 * real one does): the service applies an update and drops the connection before answering. The
 * terminal asks `status` (the engine's default check, over HTTP) before sending again, finds the
 * effect and settles the tap: the service's log holds the action exactly once.
 */
import { afterEach, expect, it } from 'vitest';
import type { ActionInput } from '../../../../src/shared/protocol';
import type { OrderView } from '../../../../src/shared/ipc';
import { acceptAndLoad, Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

it.each([
  ['a fulfilment tap', (view: OrderView): ActionInput => ({ kind: 'fulfilment', fulfilmentId: fulfilmentId(view, 'STORE'), state: 'PACKING' })],
  [
    'a unit cut',
    (view: OrderView): ActionInput => {
      const item = view.order!.items.find((i) => i.quantity.count >= 2) ?? view.order!.items[0]!;
      return { kind: 'units', itemId: item.itemId, units: item.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' };
    },
  ],
])('%s applied, then the connection dropped: confirmed by status, applied once', async (_name, input) => {
  const box = await sandbox(cleanup);
  box.faults.set({ dedupe: false });
  const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
  engine.start();
  const view = await acceptAndLoad(engine, newDeliveryOrderIds(box)[0]!);

  box.faults.set({ dropAfterApply: 1 });
  const tap = engine.submitTap(view.id, input(view));
  if (!tap.ok) throw new Error(tap.problem.message);
  await engine.drain({ untilEmpty: true, timeoutMs: 15_000 });

  const entry = engine.listOutbox({ includeDone: true }).find((e) => e.requestId === tap.value.requestId);
  expect(entry).toMatchObject({ state: 'sent' });
  // The service saw the request once (the dropped one) and applied it once: no blind resend.
  expect(box.appliedLog().filter((a) => a.requestId === tap.value.requestId)).toHaveLength(1);
  expect(box.requestLog().filter((r) => r.requestId === tap.value.requestId)).toHaveLength(1);
  expect(engine.getOrder(view.id)).toMatchObject({ waiting: 0, failed: 0, mayBeApplied: false });
});
