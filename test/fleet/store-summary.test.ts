/** The store summary sent north: counts from the order views, nothing else. */
import { describe, expect, it } from 'vitest';
import { storeSummary } from '../../src/main/core/hub/chain/store-summary';
import type { OrderView } from '../../src/shared/ipc';
import { bareView } from '../support/orders';

const view = (id: string, key: string | null, extra: Partial<OrderView> = {}): OrderView =>
  bareView(id, { nextStep: key ? ({ key, label: key } as OrderView['nextStep']) : null, ...extra });

describe('store summary', () => {
  it('counts orders waiting for Accept, being packed, late and open cancelled alarms', () => {
    const now = 1_000_000;
    const orders = [
      view('a', 'ACCEPT'),
      view('b', 'ACCEPT', { promisedPackedAt: now - 1 }),
      view('c', 'PACKED', { promisedPackedAt: now + 60_000 }),
      view('d', 'PACKED', { promisedPackedAt: now - 60_000 }),
      view('e', 'COMPLETE', { promisedPackedAt: now - 60_000 }),
      view('h', 'OUT_FOR_DELIVERY', { promisedPackedAt: now - 60_000 }),
      view('f', null, { alarm: { kind: 'cancelled', changedAt: 1, raisedAt: 2 } }),
      view('g', 'COMPLETE', { alarm: { kind: 'items', changedAt: 1, raisedAt: 2 } }),
    ];
    expect(storeSummary(orders, now)).toEqual({ awaitingAccept: 2, beingPacked: 2, late: 2, cancelledAlarmsOpen: 1 });
    expect(storeSummary([], now)).toEqual({ awaitingAccept: 0, beingPacked: 0, late: 0, cancelledAlarmsOpen: 0 });
  });
});
