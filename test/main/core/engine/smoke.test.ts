import { afterEach, describe, expect, it } from 'vitest';
import { acceptAndLoad, Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('smoke', () => {
  it('accepts and packs an order through the sandbox', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const id = newDeliveryOrderIds(box)[0]!;
    expect(engine.addOrder(id).ok).toBe(true);
    const view = await acceptAndLoad(engine, id);
    expect(view.order?.orderState).toBe('Accepted');
    const r = engine.submitTap(id, { kind: 'fulfilment', fulfilmentId: fulfilmentId(view, 'STORE'), state: 'PACKING' });
    expect(r.ok).toBe(true);
    const d = await engine.drain({ untilEmpty: true, timeoutMs: 5000 });
    expect(d).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(box.appliedLog().map((a) => a.action.type)).toEqual(['ORDER_STATE_UPDATE', 'ORDER_FULFILMENT_STATE_UPDATE']);
  });
});
