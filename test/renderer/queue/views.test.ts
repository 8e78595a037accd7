/**
 * The queue's "Late" and "Done today" views: an order still to be packed whose promised PACKED time
 * has gone is late (a packed one, or one with no promise, is not); an order with nothing left to do
 * whose last answer came today is done today (yesterday's is not).
 */
import { describe, expect, it } from 'vitest';
import { inView } from '../../../src/renderer/src/components/queue/views';
import type { OrderView } from '../../../src/shared/ipc';
import { summarize } from '../../../src/shared/orders';

const NOW = new Date(2026, 10, 25, 15, 0).getTime();
const MIN = 60_000;

function row(id: string, step: OrderView['nextStep'], extra: Partial<OrderView> = {}) {
  return summarize({
    id,
    order: { id, items: [], orderState: 'Accepted', fulfillments: [] },
    nextStep: step,
    waiting: 0,
    failed: 0,
    mayBeApplied: false,
    needsRefresh: false,
    promisedPackedAt: null,
    syncedAt: null,
    addedAt: NOW - 120 * MIN,
    ...extra,
  });
}

describe('queue views', () => {
  const packing = { key: 'PACKING', label: 'Start packing', fulfilmentId: 'F' } as const;
  const out = { key: 'OUT_FOR_DELIVERY', label: 'Out for delivery', fulfilmentId: 'D' } as const;
  const rows = {
    late: row('LATE', packing, { promisedPackedAt: NOW - 5 * MIN }),
    inTime: row('IN-TIME', packing, { promisedPackedAt: NOW + 5 * MIN }),
    noPromise: row('NO-PROMISE', packing),
    packedLate: row('PACKED-LATE', out, { promisedPackedAt: NOW - 30 * MIN }),
    doneToday: row('DONE-TODAY', null, { syncedAt: NOW - 60 * MIN }),
    doneYesterday: row('DONE-YESTERDAY', null, { syncedAt: NOW - 24 * 60 * MIN }),
  };
  const ids = (filter: Parameters<typeof inView>[1]) => Object.values(rows).filter((r) => inView(r, filter, NOW)).map((r) => r.id);

  it('"Late" holds the orders still to pack past their promised time', () => {
    expect(ids('LATE')).toEqual(['LATE']);
  });

  it('"Done today" holds the orders finished today', () => {
    expect(ids('DONE_TODAY')).toEqual(['DONE-TODAY']);
  });

  it('the step views and "All" are as before', () => {
    expect(ids('ALL')).toHaveLength(6);
    expect(ids('PACKING')).toEqual(['LATE', 'IN-TIME', 'NO-PROMISE']);
    expect(ids('DONE')).toEqual(['DONE-TODAY', 'DONE-YESTERDAY']);
  });
});
