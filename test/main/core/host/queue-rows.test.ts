import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../../src/main/core/engine';
import { createQueueRows } from '../../../../src/main/core/host/queueRows';
import type { OrderView } from '../../../../src/shared/ipc';
import { bareView } from '../../../support/orders';

/** A view as the engine gives one for an order it knows only by id, added at `addedAt`. */
const view = (id: string, addedAt: number, extra: Partial<OrderView> = {}): OrderView => bareView(id, { addedAt, ...extra });

/** An engine holding `views`, counting its listings of every order and its reads of one. */
function engineOf(views: Map<string, OrderView>): { engine: Engine; listings: () => number; reads: string[] } {
  let listings = 0;
  const reads: string[] = [];
  const engine = {
    listOrders: () => {
      listings += 1;
      return [...views.values()];
    },
    getOrder: (id: string) => {
      reads.push(id);
      return views.get(id) ?? null;
    },
  } as unknown as Engine;
  return { engine, listings: () => listings, reads };
}

describe("the queue's rows kept between pages", () => {
  it('are listed once, then patched from each event: changed, new (last), removed, taps changed', () => {
    const views = new Map([view('A', 1), view('B', 2), view('C', 3)].map((v) => [v.id, v]));
    const { engine, listings, reads } = engineOf(views);
    const queue = createQueueRows({ engine: () => engine });
    expect(queue.rows().map((r) => r.id)).toEqual(['A', 'B', 'C']);

    queue.noteEvent('orders.changed', { orders: [view('B', 2, { nextStep: { key: 'PACKING', label: 'Start packing', fulfilmentId: 'F' } }), view('D', 4)] });
    queue.noteEvent('orders.removed', { orderIds: ['A'] });
    views.set('C', view('C', 3, { waiting: 1 }));
    queue.noteEvent('outbox.changed', { entries: [{ orderId: 'C' }, { orderId: 'C' }] });
    const rows = queue.rows();
    expect(rows.map((r) => r.id)).toEqual(['B', 'C', 'D']);
    expect(rows.find((r) => r.id === 'B')?.nextStep?.key).toBe('PACKING');
    expect(rows.find((r) => r.id === 'C')?.waiting).toBe(1);
    // One listing for all of it; the taps' order read once.
    expect(listings()).toBe(1);
    expect(reads).toEqual(['C']);
  });

  it("at a hub status, read again only where a claim's expiry passed; listed afresh when the hub's word changes (joined, left, away, back) and after orders.listed", () => {
    const claimUntil = (expiresAt: number) => ({ orderId: 'A', counterId: 'c2', counterName: 'Counter 2', packer: null, claimedAt: 1, renewedAt: 1, expiresAt, here: false });
    const views = new Map([view('A', 1, { claim: claimUntil(1_000) }), view('B', 2, { claim: { ...claimUntil(5_000), orderId: 'B' } }), view('C', 3)].map((v) => [v.id, v]));
    const { engine, listings, reads } = engineOf(views);
    let now = 500;
    let word = 'counter:c1:claims';
    const queue = createQueueRows({ engine: () => engine, hubWord: () => word, now: () => now });
    queue.prepare();
    // A counter's presence, every few seconds: nothing read again.
    queue.noteEvent('hub.status', {});
    expect(reads).toEqual([]);
    // A's claim expired: its row is read again without it (its lapse event may come a second later).
    now = 2_000;
    views.set('A', view('A', 1));
    queue.noteEvent('hub.status', {});
    expect(reads).toEqual(['A']);
    expect(queue.rows().find((r) => r.id === 'A')?.claim).toBeUndefined();
    expect(queue.rows().find((r) => r.id === 'B')?.claim?.expiresAt).toBe(5_000);
    expect(listings()).toBe(1);
    // The hub away: no claim shows anywhere, and no order has an event of its own: listed again.
    word = 'counter:c1:';
    views.set('B', view('B', 2));
    queue.noteEvent('hub.status', {});
    expect(queue.rows().find((r) => r.id === 'B')?.claim).toBeUndefined();
    expect(listings()).toBe(2);
    queue.noteEvent('orders.listed', { orders: [] });
    queue.rows();
    expect(listings()).toBe(3);
  });

  it("keep the engine's listing order (when added, then id) whatever order events bring rows in", () => {
    const views = new Map([view('B', 1), view('D', 2)].map((v) => [v.id, v]));
    const { engine } = engineOf(views);
    const queue = createQueueRows({ engine: () => engine });
    queue.prepare();
    // Intake's batch, stored together (one added time), told in the service's order; B taken off and added back later.
    queue.noteEvent('orders.changed', { orders: [view('Z', 3), view('C', 3), view('A', 3)] });
    queue.noteEvent('orders.changed', { orders: [view('B', 4)] });
    expect(queue.rows().map((r) => r.id)).toEqual(['D', 'A', 'C', 'Z', 'B']);
  });

  it('lists afresh for another engine (a switch of service), and nothing before one asks', () => {
    const first = engineOf(new Map([['A', view('A', 1)]]));
    const second = engineOf(new Map([['Z', view('Z', 1)]]));
    let current: Engine | null = first.engine;
    const queue = createQueueRows({ engine: () => current });
    queue.noteEvent('orders.changed', { orders: [view('A', 1)] });
    expect(first.listings()).toBe(0);
    expect(queue.rows().map((r) => r.id)).toEqual(['A']);
    current = second.engine;
    expect(queue.rows().map((r) => r.id)).toEqual(['Z']);
    current = null;
    expect(queue.rows()).toEqual([]);
  });
});
