import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../src/shared/ipc';
import { compareViews, headOrders, holdsOrder, holdView, mergeOrders, replaceOrders as replaceRows, stepOf as stepOfRow, VIEWS_KEPT, withoutOrders } from '../../src/renderer/src/store/orders';
import { queueHead, summarize } from '../../src/shared/orders';
import { OrderSchema } from '../../src/shared/protocol/schemas';
import { mergeEntries, outboxOrder } from '../../src/renderer/src/store/outbox';
import type { OutboxEntryView } from '../../src/shared/ipc';

function view(id: string, promised: number | null, step: OrderView['nextStep'] = { key: 'ACCEPT', label: 'Accept order' }, extra: Partial<OrderView> = {}): OrderView {
  return {
    id,
    order: { id, items: [], orderState: 'Accepted', fulfillments: [] },
    nextStep: step,
    waiting: 0,
    failed: 0,
    mayBeApplied: false,
    needsRefresh: false,
    promisedPackedAt: promised,
    syncedAt: null,
    addedAt: 0,
    ...extra,
  };
}

/** The store's list from whole views, as the engine's orders.list makes its rows. */
const replaceOrders = (views: readonly OrderView[]) => replaceRows(views.map(summarize));
const stepOf = (v: OrderView) => stepOfRow(summarize(v));

const packing = { key: 'PACKING' as const, label: 'Start packing', fulfilmentId: 'F-S' };
const out = { key: 'OUT_FOR_DELIVERY' as const, label: 'Out for delivery', fulfilmentId: 'F-D' };

describe('orders store', () => {
  it('sorts by promised PACKED time, unknown last, packed and finished orders after', () => {
    const snap = replaceOrders([
      view('done', 10, null),
      view('late', 5),
      view('unknown', null),
      view('shipped', 1, out),
      view('soon', 50, packing),
    ]);
    expect(snap.sortedIds).toEqual(['late', 'soon', 'unknown', 'shipped', 'done']);
    expect(snap.counts).toMatchObject({ ACCEPT: 2, PACKING: 1, OUT_FOR_DELIVERY: 1, DONE: 1 });
  });

  it('holds the head alone until the whole list: every id in order and the counts, rows of the first few', () => {
    const all = [view('c', 30), view('a', 10, packing), view('b', 20), view('d', 40)];
    const head = headOrders(queueHead(all.map(summarize), 2));
    expect(head.complete).toBe(false);
    expect(head.sortedIds).toEqual(['a', 'b', 'c', 'd']);
    expect([...head.byId.keys()]).toEqual(['a', 'b']);
    expect(head.counts).toMatchObject({ ACCEPT: 3, PACKING: 1 });
    expect(holdsOrder(head, 'd')).toBe(true);
    expect(holdsOrder(head, 'x')).toBe(false);
    // A change to an order the head has no row for keeps its place and the counts; a new one is placed and counted.
    const changed = mergeOrders(head, [view('d', 40, packing), view('e', 15)]);
    expect(changed.sortedIds).toEqual(['a', 'e', 'b', 'c', 'd']);
    expect(changed.counts).toMatchObject({ ACCEPT: 4, PACKING: 1 });
    // One taken off the terminal leaves the list even without a row.
    expect(withoutOrders(changed, ['c']).sortedIds).toEqual(['a', 'e', 'b', 'd']);
  });

  it('keeps the sorted list (same array) when a change does not move the order', () => {
    const snap = replaceOrders([view('a', 1), view('b', 2)]);
    const before = snap.byId.get('a');
    const next = mergeOrders(snap, [view('a', 1, { key: 'ACCEPT', label: 'Accept order' }, { waiting: 1 })]);
    expect(next.sortedIds).toBe(snap.sortedIds);
    expect(next.byId.get('a')?.waiting).toBe(1);
    // Selectors of one order see a new object; selectors of many see a new version.
    expect(next.byId.get('a')).not.toBe(before);
    expect(next.version).toBe(snap.version + 1);
  });

  it('moves an order whose band changed and keeps the counts right', () => {
    const snap = replaceOrders([view('a', 1), view('b', 2), view('c', 3)]);
    const next = mergeOrders(snap, [view('a', 1, out)]);
    expect(next.sortedIds).toEqual(['b', 'c', 'a']);
    expect(next.counts.ACCEPT).toBe(2);
    expect(next.counts.OUT_FOR_DELIVERY).toBe(1);
  });

  it('inserts new orders in place, one by one or many at once', () => {
    const base = () => replaceOrders([view('a', 10), view('c', 30)]);
    expect(mergeOrders(base(), [view('b', 20)]).sortedIds).toEqual(['a', 'b', 'c']);
    const many = Array.from({ length: 100 }, (_, i) => view(`n${String(i).padStart(3, '0')}`, 1000 - i));
    const big = mergeOrders(base(), many);
    expect(big.sortedIds).toHaveLength(102);
    expect(big.sortedIds.slice(0, 3)).toEqual(['a', 'c', 'n099']);
    const sorted = [...big.byId.values()].sort(compareViews).map((v) => v.id);
    expect(big.sortedIds).toEqual(sorted);
  });

  it('files an order with no next step under DONE', () => {
    expect(stepOf(view('x', 1, null))).toBe('DONE');
    expect(stepOf(view('x', 1, packing))).toBe('PACKING');
  });

  it('keeps a new order whose Accept waits for the service with the orders to accept, at the top', () => {
    const waiting = view('new', null, null, { order: null, waiting: 1 });
    expect(stepOf(waiting)).toBe('ACCEPT');
    expect(replaceOrders([view('a', 1, packing), waiting, view('d', 1, null)]).sortedIds).toEqual(['a', 'new', 'd']);
  });

  it('keeps whole views of the orders events bring; a new list drops them, taking an order off drops its own', () => {
    const listed = replaceOrders([view('a', 1), view('b', 2)]);
    expect(listed.views.size).toBe(0);
    const a = view('a', 1, packing);
    const merged = mergeOrders(listed, [a]);
    expect(merged.views.get('a')).toBe(a);
    expect(merged.byId.get('a')).toMatchObject({ id: 'a', nextStep: packing, facts: { orderState: 'Accepted', lines: 0 } });
    expect(withoutOrders(merged, ['a']).views.has('a')).toBe(false);
    expect(replaceRows([...merged.byId.values()]).views.size).toBe(0);
  });

  it('keeps the whole views of the orders events brought lately and of those a screen shows, not of every order an event ever brought', () => {
    const ids = Array.from({ length: VIEWS_KEPT + 40 }, (_, i) => `o${i}`);
    let snap = replaceOrders(ids.map((id) => view(id, 1)));
    // A screen shows o0 (brought first); events then bring every order's view, one by one, and o1's again last.
    const release = holdView('o0');
    try {
      for (const id of ids) snap = mergeOrders(snap, [view(id, 2, packing)]);
      snap = mergeOrders(snap, [view('o1', 3, packing)]);
      expect(snap.views.size).toBe(VIEWS_KEPT + 1);
      expect(snap.views.has('o0')).toBe(true);
      expect(snap.views.get('o1')?.promisedPackedAt).toBe(3);
      expect(snap.views.has('o2')).toBe(false);
      expect(snap.views.has(ids.at(-1) ?? '')).toBe(true);
      // Every row stays, with what the events said.
      expect(snap.byId.size).toBe(ids.length);
      expect(snap.byId.get('o2')?.nextStep).toEqual(packing);
    } finally {
      release();
    }
    // Let go once no screen shows it and newer views come.
    for (const id of ids.slice(2, 12)) snap = mergeOrders(snap, [view(id, 4, packing)]);
    expect(snap.views.has('o0')).toBe(false);
    expect(snap.views.size).toBe(VIEWS_KEPT);
  });

  it('takes several orders off at once (finished orders leaving the terminal), with their counts', () => {
    const listed = replaceOrders([view('a', 1, packing), view('b', 2, null), view('c', 3, null), view('d', 4, packing)]);
    expect(listed.counts).toMatchObject({ PACKING: 2, DONE: 2 });
    const after = withoutOrders(listed, ['b', 'c', 'not-here']);
    expect(after.sortedIds).toEqual(['a', 'd']);
    expect(after.counts).toMatchObject({ PACKING: 2, DONE: 0 });
    expect(withoutOrders(after, ['gone'])).toBe(after);
  });
});

describe('queue rows', () => {
  const order = (extra: Record<string, unknown>) =>
    OrderSchema.parse({
    id: 'O',
    orderState: ' Accepted ',
    fulfillments: [{ fulfillmentId: 'F', type: 'Delivery', end: { person: { name: 'Asha Rao' } } }],
    items: [
      { itemId: 'I1', quantity: { count: 2 } },
      { itemId: 'I2', quantity: { count: 3 }, prescriptionRequired: true },
    ],
    ...extra,
    });

  it("carry who the order is for, its lines and units, its state and a prescription, and not its body", () => {
    const row = summarize(view('O', 5, packing, { order: order({ billing: { name: 'Ravi Kumar', email: 'x'.repeat(500) } }) }));
    expect(row.facts).toEqual({ orderState: 'Accepted', customer: 'Ravi Kumar', lines: 2, units: 5, prescription: true });
    expect(row).not.toHaveProperty('order');
    expect(JSON.stringify(row)).not.toContain('xxxx');
  });

  it('name the person at a fulfilment end without a billing name, nobody when neither names one', () => {
    expect(summarize(view('O', 5, packing, { order: order({}) })).facts?.customer).toBe('Asha Rao');
    expect(summarize(view('O', 5, packing, { order: order({ billing: { name: '  ' }, fulfillments: [] }) })).facts?.customer).toBeNull();
    expect(summarize(view('O', 5, null, { order: null })).facts).toBeNull();
  });
});

function entry(id: number, state: OutboxEntryView['state'], extra: Partial<OutboxEntryView> = {}): OutboxEntryView {
  return {
    id,
    requestId: `r${id}`,
    orderId: 'ORD-1',
    action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
    summary: 'Accept order',
    state,
    createdAt: id,
    sendAfter: id,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    mayBeApplied: false,
    sentAt: null,
    packer: null,
    ...extra,
  };
}

describe('outbox store', () => {
  it('lists refused and doubtful entries first, then waiting oldest first, then finished newest first', () => {
    const order = outboxOrder([
      entry(1, 'sent'),
      entry(2, 'queued'),
      entry(3, 'failed'),
      entry(4, 'sent'),
      entry(5, 'sending'),
      entry(6, 'queued', { mayBeApplied: true }),
    ]).map((e) => e.id);
    expect(order).toEqual([3, 6, 2, 5, 4, 1]);
  });

  it('merges entries by id', () => {
    const a = mergeEntries(new Map(), [entry(1, 'queued')]);
    const b = mergeEntries(a, [entry(1, 'sent')]);
    expect(b.get(1)?.state).toBe('sent');
    expect(a.get(1)?.state).toBe('queued');
  });
});

describe('outbox store pruning and refresh', () => {
  it('keeps only the latest finished entries', async () => {
    const { FINISHED_KEPT } = await import('../../src/renderer/src/store/outbox');
    const many = Array.from({ length: FINISHED_KEPT + 10 }, (_, i) => entry(i + 1, 'sent'));
    const map = mergeEntries(new Map(), [...many, entry(1000, 'queued')]);
    expect(map.size).toBe(FINISHED_KEPT + 1);
    expect(map.has(1)).toBe(false);
    expect(map.has(1000)).toBe(true);
  });

  it('a refresh keeps history, replaces pending entries and drops pending ones that finished unseen', async () => {
    const { withPending } = await import('../../src/renderer/src/store/outbox');
    const known = mergeEntries(new Map(), [entry(1, 'sent'), entry(2, 'queued'), entry(3, 'failed')]);
    const next = withPending(known, [entry(3, 'queued', { attempts: 2 })]);
    expect([...next.keys()].sort()).toEqual([1, 3]);
    expect(next.get(3)?.state).toBe('queued');
  });
});

describe('foreseen views of taps on their way', () => {
  const packed = { key: 'PACKED' as const, label: 'Packed', fulfilmentId: 'F-S' };
  const fresh = async () => {
    const { useOrders, shownView } = await import('../../src/renderer/src/store/orders');
    useOrders.getState().replace([summarize(view('A', 10, packing)), summarize(view('B', 20, packing))]);
    useOrders.getState().merge([view('A', 10, packing), view('B', 20, packing)]);
    return { orders: () => useOrders.getState(), shown: (id: string) => shownView(useOrders.getState(), id) };
  };

  it('shows a foreseen view until its tap is answered, the engine\'s view having come meanwhile', async () => {
    const { orders, shown } = await fresh();
    orders().predict(view('A', 10, packed, { waiting: 1 }));
    expect(shown('A')).toMatchObject({ nextStep: packed, waiting: 1 });
    // The queue row is still the engine's until its view comes.
    expect(orders().byId.get('A')?.nextStep).toEqual(packing);
    // The engine's view comes first (events precede answers); the answer then lets it show.
    orders().merge([view('A', 10, packed, { waiting: 1, syncedAt: 5 })]);
    expect(orders().byId.get('A')?.nextStep).toEqual(packed);
    expect(orders().answered('A', true)).toBe('done');
    expect(orders().predicted.has('A')).toBe(false);
    expect(shown('A')).toMatchObject({ syncedAt: 5 });
    // An answer whose view never came: the caller is told to read it.
    orders().predict(view('B', 20, packed, { waiting: 1 }));
    expect(orders().answered('B', true)).toBe('unseen');
    expect(orders().predicted.has('B')).toBe(true);
    orders().merge([view('B', 20, packed, { waiting: 1 })]);
    expect(orders().predicted.has('B')).toBe(false);
  });

  it('keeps two quick taps foreseen until both are answered, and drops a refused one at once', async () => {
    const { orders, shown } = await fresh();
    const outForDelivery = view('A', 10, out, { waiting: 2 });
    orders().predict(view('A', 10, packed, { waiting: 1 }));
    orders().predict(outForDelivery);
    // The engine's view after the first tap alone must not show in between.
    orders().merge([view('A', 10, packed, { waiting: 1 })]);
    expect(orders().answered('A', true)).toBe('done');
    expect(shown('A')).toBe(outForDelivery);
    orders().merge([view('A', 10, out, { waiting: 2, syncedAt: 7 })]);
    expect(orders().answered('A', true)).toBe('done');
    expect(shown('A')).toMatchObject({ nextStep: out, syncedAt: 7 });
    expect(orders().predicted.size).toBe(0);

    // Refused: back to what the engine holds, at once.
    orders().predict(view('B', 20, packed, { waiting: 1 }));
    expect(orders().answered('B', false)).toBe('done');
    expect(shown('B')).toMatchObject({ nextStep: packing, waiting: 0 });
  });

  it('forgets what was foreseen when the order goes or a newer list comes', async () => {
    const { orders } = await fresh();
    orders().predict(view('B', 20, packed, { waiting: 1 }));
    orders().remove(['B']);
    expect(orders().predicted.size).toBe(0);
    expect(orders().answered('B', true)).toBe('done');
    orders().predict(view('A', 10, out, { waiting: 2 }));
    orders().replace([summarize(view('A', 10, packing))]);
    expect(orders().predicted.size).toBe(0);
    expect(orders().answered('A', true)).toBe('done');
  });
});
