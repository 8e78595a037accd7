import { describe, expect, it } from 'vitest';
import { nextStep } from '../../../../src/shared/fulfilment';
import type { Claim, SharedTap } from '../../../../src/shared/hub';
import type { OrderView } from '../../../../src/shared/ipc';
import { withHub } from '../../../../src/main/core/hub/views';
import { sampleOrder } from '../../../support/orders';

const NOW = 1_800_000_000_000;
const fresh = sampleOrder({ orderState: 'Created' });

function viewOf(order = fresh): OrderView {
  return { id: order.id, order, nextStep: nextStep(order), waiting: 0, failed: 0, mayBeApplied: false, needsRefresh: false, promisedPackedAt: null, syncedAt: NOW - 1000, addedAt: NOW - 5000 };
}

function tap(overrides: Partial<SharedTap>): SharedTap {
  return {
    requestId: 'r-1',
    orderId: fresh.id,
    counterId: 'counter-1',
    counterName: 'Counter 1',
    action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
    summary: 'Accept order',
    state: 'waiting',
    queuedAt: NOW - 100,
    sentAt: null,
    ...overrides,
  };
}

const claim: Claim = { orderId: fresh.id, counterId: 'counter-1', counterName: 'Counter 1', packer: null, claimedAt: NOW - 10, renewedAt: NOW - 10, expiresAt: NOW + 60_000 };
const hub = (taps: SharedTap[], c: Claim | null = null) => ({ claimOf: () => c, tapsOf: () => taps });

describe('an order as a counter of a store with a hub shows it', () => {
  it("moves on at once when another counter accepts it, and says where it waits to be sent", () => {
    const shown = withHub(viewOf(), hub([tap({})]), 'counter-2', NOW);
    expect(viewOf().nextStep?.key).toBe('ACCEPT');
    expect(shown.nextStep?.key).toBe('PACKING');
    expect(shown.elsewhere).toEqual([{ counterName: 'Counter 1', summary: 'Accept order', action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }, state: 'waiting', queuedAt: NOW - 100 }]);
  });

  it("never lays this counter's own taps over again (its engine already did)", () => {
    const view = viewOf();
    expect(withHub(view, hub([tap({})]), 'counter-1', NOW)).toBe(view);
  });

  it('keeps a sent tap laid over only until the body shows it, and not for ever', () => {
    const sent = tap({ state: 'sent', sentAt: NOW - 1_000 });
    expect(withHub(viewOf(), hub([sent]), 'counter-2', NOW).nextStep?.key).toBe('PACKING');
    expect(withHub(viewOf(), hub([sent]), 'counter-2', NOW).elsewhere).toBeUndefined();
    expect(withHub(viewOf(), hub([{ ...sent, sentAt: NOW - 10 * 60_000 }]), 'counter-2', NOW).nextStep?.key).toBe('ACCEPT');
  });

  it('attaches a live claim, says whether it is this counter, and drops a lapsed one', () => {
    expect(withHub(viewOf(), hub([], claim), 'counter-2', NOW).claim).toMatchObject({ counterName: 'Counter 1', here: false });
    expect(withHub(viewOf(), hub([], claim), 'counter-1', NOW).claim?.here).toBe(true);
    expect(withHub(viewOf(), hub([], { ...claim, expiresAt: NOW - 1 }), 'counter-2', NOW).claim).toBeUndefined();
  });
});
