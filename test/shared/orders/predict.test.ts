/**
 * The renderer's foreseen view of a tap (predictTap) against the engine's own view right after
 * the engine took the same tap: for every kind of tap a packer makes, they must agree, because
 * the screen shows the foreseen one until the engine's arrives. Taps the engine refuses are not
 * foreseen at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { predictTap } from '../../../src/shared/orders';
import type { ActionInput } from '../../../src/shared/protocol/builders';
import { acceptAndLoad, Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../support/engine';
import { fulfilmentId } from '../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** The engine's clock, shared with the foreseeing side (both stamp the tap's time on the order). */
let clock = Date.now();
const now = () => clock;

describe('predictTap', () => {
  it('foresees what the engine shows after each tap of an order, from Accept to Complete', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { now });
    engine.start();
    const [id, unknown] = newDeliveryOrderIds(box);

    // An order the terminal has no details of: Accept is foreseen as waiting, with no next step.
    expect(engine.addOrder(unknown!).ok).toBe(true);
    const bare = engine.getOrder(unknown!)!;
    const accept: ActionInput = { kind: 'orderState', state: 'ACCEPTED' };
    const foreseenAccept = predictTap(bare, accept, now());
    expect(engine.submitTap(unknown!, accept).ok).toBe(true);
    expect(foreseenAccept).toEqual(engine.getOrder(unknown!));
    expect(foreseenAccept).toMatchObject({ nextStep: null, waiting: 1 });
    // A second Accept while the first waits is refused by the engine: not foreseen.
    expect(predictTap(engine.getOrder(unknown!)!, accept, Date.now())).toBeNull();

    expect(engine.addOrder(id!).ok).toBe(true);
    const loaded = await acceptAndLoad(engine, id!);
    const store = fulfilmentId(loaded, 'STORE');
    const delivery = fulfilmentId(loaded, 'DELIVERY');
    const item = loaded.order!.items[0]!;
    const taps: ActionInput[] = [
      { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' },
      { kind: 'units', itemId: item.itemId, units: item.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' },
      { kind: 'invoice', sellerInvoiceId: 'INV5555500001' },
      { kind: 'fulfilment', fulfilmentId: store, state: 'PACKED' },
      { kind: 'fulfilment', fulfilmentId: delivery, state: 'OUT_FOR_DELIVERY' },
      { kind: 'fulfilment', fulfilmentId: delivery, state: 'DELIVERED' },
      { kind: 'orderState', state: 'COMPLETED' },
    ];
    const steps: (string | null)[] = [];
    for (const input of taps) {
      // Taps pile up unsent (the engine is not drained between them), as they do offline.
      clock += 1_000;
      const before = engine.getOrder(id!)!;
      const foreseen = predictTap(before, input, now());
      expect(foreseen, JSON.stringify(input)).not.toBeNull();
      const taken = engine.submitTap(id!, input);
      expect(taken.ok, JSON.stringify(input)).toBe(true);
      expect(foreseen).toEqual(engine.getOrder(id!));
      steps.push(foreseen!.nextStep?.key ?? null);
    }
    expect(steps).toEqual(['PACKED', 'PACKED', 'PACKED', 'OUT_FOR_DELIVERY', 'DELIVERED', 'COMPLETE', null]);
  });

  it('foresees nothing the engine would refuse, nor an order whose taps failed', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    const id = newDeliveryOrderIds(box)[0]!;
    expect(engine.addOrder(id).ok).toBe(true);
    const loaded = await acceptAndLoad(engine, id);
    const store = fulfilmentId(loaded, 'STORE');

    // Backward, and a step of no fulfilment of the order: the engine refuses both.
    expect(engine.submitTap(id, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKED' }).ok).toBe(true);
    const packed = engine.getOrder(id)!;
    const backward: ActionInput = { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' };
    expect(predictTap(packed, backward, Date.now())).toBeNull();
    expect(engine.submitTap(id, backward).ok).toBe(false);
    const stranger: ActionInput = { kind: 'fulfilment', fulfilmentId: 'F-NOT-HERE', state: 'PACKED' };
    expect(predictTap(packed, stranger, Date.now())).toBeNull();
    expect(engine.submitTap(id, stranger).ok).toBe(false);
    // Input the builders refuse (a cut without a reason).
    expect(predictTap(packed, { kind: 'units', itemId: packed.order!.items[0]!.itemId, units: 0, reason: '' }, Date.now())).toBeNull();

    // A failed tap holds the order; the engine decides from rows the view does not carry.
    expect(predictTap({ ...packed, failed: 1 }, { kind: 'invoice', sellerInvoiceId: 'INV1' }, Date.now())).toBeNull();
    expect(predictTap({ ...packed, mayBeApplied: true }, { kind: 'invoice', sellerInvoiceId: 'INV1' }, Date.now())).toBeNull();
  });
});
