import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../../src/main/core/db';
import type { Order } from '../../../../src/shared/protocol';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const NOW = Date.UTC(2025, 0, 15, 9, 30);
const iso = (t: number) => new Date(t).toISOString();

function open(): Store {
  const r = openStore({ dataDir: tempDir(cleanup), now: () => NOW });
  if (!r.ok) throw new Error(r.problem.message);
  cleanup.add(() => r.value.close());
  return r.value;
}

const body = (orderState: string, updatedAt: string, packing?: string): Order => ({
  id: 'ORD-1001',
  orderState,
  items: [],
  fulfillments: [{ fulfillmentId: 'F1', type: 'STORE', ...(packing ? { fulfillmentState: packing } : {}) }],
  updatedAt,
});

describe('which body of an order the cache keeps', () => {
  it('does not let a body stamped 9999-12-31 hide the later bodies the service sends', () => {
    const store = open();
    expect(store.orders.saveIfNewer(body('Accepted', '9999-12-31T23:59:59.999Z'), NOW, NOW)).toBe('new');
    expect(store.orders.saveIfNewer(body('Cancelled', iso(NOW)), NOW + 1000, NOW)).toBe('updated');
    expect(store.orders.get('ORD-1001')?.body?.orderState).toBe('Cancelled');
  });

  it('keeps the later state when the stamps are the same (Accepted is never put back to Created)', () => {
    const store = open();
    store.orders.saveIfNewer(body('Accepted', iso(NOW)), NOW, NOW);
    expect(store.orders.saveIfNewer(body('Created', iso(NOW)), NOW + 1000, NOW)).toBe('unchanged');
    expect(store.orders.get('ORD-1001')?.body?.orderState).toBe('Accepted');
    // Nor a fulfilment moved back under the same order state and stamp.
    store.orders.saveIfNewer(body('Accepted', iso(NOW), 'PACKED'), NOW, NOW);
    expect(store.orders.saveIfNewer(body('Accepted', iso(NOW), 'PACKING'), NOW + 1000, NOW)).toBe('unchanged');
    expect(store.orders.get('ORD-1001')?.body?.fulfillments[0]?.fulfillmentState).toBe('PACKED');
  });

  it('still follows believable stamps: a later one wins even with an earlier state, an earlier one loses', () => {
    const store = open();
    store.orders.saveIfNewer(body('Accepted', iso(NOW - 60_000)), NOW, NOW);
    expect(store.orders.saveIfNewer(body('Created', iso(NOW - 120_000)), NOW, NOW)).toBe('unchanged');
    // The service may well undo a state (a support fix): its later stamp says so.
    expect(store.orders.saveIfNewer(body('Created', iso(NOW)), NOW, NOW)).toBe('updated');
    expect(store.orders.get('ORD-1001')?.body?.orderState).toBe('Created');
  });

  it("judges a stamp from the future by the service's clock, not this computer's", () => {
    const store = open();
    // This computer runs an hour behind the service: the service's now-stamped body is believable.
    const serviceNow = NOW + 3600_000;
    store.orders.saveIfNewer(body('Accepted', iso(serviceNow)), NOW, serviceNow);
    expect(store.orders.saveIfNewer(body('Accepted', iso(serviceNow - 60_000), 'PACKING'), NOW, serviceNow)).toBe('unchanged');
  });

  it("does not let a tap's answer put back an order that the cache holds at a later state", () => {
    const store = open();
    store.orders.saveIfNewer(body('Cancelled', iso(NOW)), NOW, NOW);
    expect(store.orders.saveBody(body('Accepted', iso(NOW), 'PACKING'), NOW, NOW)).toBe(false);
    expect(store.orders.get('ORD-1001')?.body?.orderState).toBe('Cancelled');
    expect(store.orders.saveBody(body('Cancelled', iso(NOW + 1000)), NOW, NOW)).toBe(true);
  });
});
