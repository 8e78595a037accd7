/** A queue row's summary of an order view: with a store hub it keeps the claim and other counters' waiting taps, so the row can say them. */
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/shared/orders';
import type { OrderView } from '../../../src/shared/ipc';
import { sampleOrder } from '../../support/orders';

const view = (extra: Partial<OrderView> = {}): OrderView => ({
  id: 'ORD-1',
  order: sampleOrder({ id: 'ORD-1', orderState: 'ACCEPTED' }),
  nextStep: null,
  waiting: 0,
  failed: 0,
  mayBeApplied: false,
  needsRefresh: false,
  promisedPackedAt: null,
  syncedAt: 1,
  addedAt: 1,
  ...extra,
});

describe('summarize', () => {
  it("keeps the claim and other counters' waiting taps for the queue row", () => {
    const claim = { orderId: 'ORD-1', counterId: 'c1', counterName: 'Counter 1', packer: null, claimedAt: 1, renewedAt: 1, expiresAt: 2, here: false };
    const elsewhere = [{ counterName: 'Counter 1', summary: 'Accept order', state: 'waiting' as const, queuedAt: 1 }];
    const row = summarize(view({ claim, elsewhere }));
    expect(row.claim).toEqual(claim);
    expect(row.elsewhere).toEqual(elsewhere);
  });

  it('adds neither for a counter without a hub', () => {
    const row = summarize(view());
    expect('claim' in row).toBe(false);
    expect('elsewhere' in row).toBe(false);
  });
});
