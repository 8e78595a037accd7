/**
 * Where an order found by the Orders search stands, over a real data file and the views the engine
 * builds: the standing filter keeps what the screen would show with no filter, whatever decides it
 * (a waiting tap, a tap whose answer could not be read, a state word in other letters, a body that
 * does not read, an order known only by its id), and a finished-orders search builds a view only
 * for an order it shows or one whose stored facts cannot tell.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../../src/main/core/db';
import { mustMove } from '../../../../src/main/core/outbox/lifecycle';
import { storeViews } from '../../../../src/main/core/outbox/views';
import { silentLogger } from '../../../../src/main/core/log';
import { searchOrders } from '../../../../src/main/core/search';
import type { OrderView, SearchStanding } from '../../../../src/shared/ipc';
import type { Action, Order } from '../../../../src/shared/protocol';
import { Cleanup, openedStore, tempDir } from '../../../support/engine';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const T0 = Date.UTC(2026, 10, 25, 9, 0);
const COMPLETE: Action = { type: 'ORDER_STATE_UPDATE', orderState: 'COMPLETED' };

/** An order for Meera `surname` in `orderState`, its fulfilments in the states given. */
function order(id: string, surname: string, orderState: string, states: { store?: string; delivery?: string } = {}): Order {
  const base = sampleOrder({ id, orderState });
  return {
    ...base,
    billing: { name: `Meera ${surname}`, phone: '9845012345' },
    fulfillments: base.fulfillments.map((f) => {
      const state = f.type === 'STORE' ? states.store : states.delivery;
      return state === undefined ? f : { ...f, fulfillmentState: state };
    }),
  } as Order;
}

/** Delivered but still Accepted at the service: closing it is the one step left. */
const delivered = (id: string, surname: string): Order => order(id, surname, 'Accepted', { store: 'PACKED', delivery: 'DELIVERED' });

function tap(store: Store, orderId: string, action: Action): ReturnType<Store['outbox']['insert']> {
  return store.outbox.insert({ randomId: crypto.randomUUID(), orderId, action, createdAt: T0, sendAfter: T0, terminalId: 'T-test' });
}

/** Every kind of order a standing can hang on, each found by 'Meera', and the standing each shows. */
function filled(): { store: Store; expected: Record<string, SearchStanding> } {
  const store = openedStore(cleanup, tempDir(cleanup), () => T0);
  store.transaction(() => {
    store.orders.saveBody(order('ORD-6000001', 'Open', 'Accepted'), T0);
    store.orders.saveBody(order('ORD-6000002', 'Completed', 'Completed'), T0);
    // The service's words in other letters: the step rule reads them as it reads 'Cancelled'.
    store.orders.saveBody(order('ORD-6000003', 'Cancelled', 'CANCELLED'), T0);
    store.orders.saveBody(delivered('ORD-6000004', 'Delivered'), T0);
    // Delivered, and the tap that closes it waits to be sent: the view shows it done.
    store.orders.saveBody(delivered('ORD-6000005', 'Closing'), T0);
    tap(store, 'ORD-6000005', COMPLETE);
    // Closed by a tap the service took, its answer not read yet: the view lays the tap over the body.
    store.orders.saveBody(delivered('ORD-6000006', 'Answered'), T0);
    const sent = mustMove(store.outbox, mustMove(store.outbox, tap(store, 'ORD-6000006', COMPLETE), 'claim', T0), 'deliver', T0, {
      awaitingRefresh: true,
      sentNow: true,
    });
    expect(sent.awaitingRefresh).toBe(true);
    // Completed, and a tap still waits on it (one the finished order no longer takes): nothing is left to tap.
    store.orders.saveBody(order('ORD-6000007', 'Waiting', 'Completed'), T0);
    tap(store, 'ORD-6000007', { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F-STORE', fulfillmentState: 'PACKING' });
    // A store pickup packed: no delivery to make, nothing left to do though the service says Accepted.
    store.orders.saveBody({ ...order('ORD-6000008', 'Pickup', 'Accepted', { store: 'PACKED' }), fulfillments: [{ fulfillmentId: 'F-STORE', type: 'STORE', fulfillmentState: 'PACKED' }] } as Order, T0);
    // Its state says Completed but the body does not read whole (an item with no count): the view
    // shows no order, so it is not done.
    store.orders.saveBody({ ...order('ORD-6000009', 'Unreadable', 'Completed'), items: [{ itemId: 'I-1' }] } as unknown as Order, T0);
  });
  return {
    store,
    expected: {
      'ORD-6000001': 'open',
      'ORD-6000002': 'done',
      'ORD-6000003': 'done',
      'ORD-6000004': 'open',
      'ORD-6000005': 'done',
      'ORD-6000006': 'done',
      'ORD-6000007': 'done',
      'ORD-6000008': 'done',
      'ORD-6000009': 'open',
    },
  };
}

/** The search as the engine wires it, counting the views it builds. */
function searcher(store: Store) {
  const views = storeViews({ store, now: () => T0, log: silentLogger });
  const built: string[] = [];
  const viewOf = (id: string): OrderView | null => {
    built.push(id);
    return views.viewOf(id);
  };
  return {
    built,
    search: (text: string, standing?: SearchStanding, limit = 50) => searchOrders(store.search, viewOf, { text, standing }, limit),
    viewOf: views.viewOf,
  };
}

const standings = (r: { hits: { id: string; standing: SearchStanding }[] }) => Object.fromEntries(r.hits.map((h) => [h.id, h.standing]));

describe('where an order found stands', () => {
  it("is 'done' only when its view has an order and nothing left to tap, and the filters keep just those", () => {
    const { store, expected } = filled();
    const s = searcher(store);
    const all = s.search('Meera');
    expect(standings(all)).toEqual(expected);
    // Each standing is the one its view shows: an order and no next step is done, anything else open.
    for (const hit of all.hits) expect(hit.standing).toBe(hit.view?.order && hit.view.nextStep === null ? 'done' : 'open');
    expect(all.hits.find((h) => h.id === 'ORD-6000005')?.view).toMatchObject({ waiting: 1, nextStep: null });
    expect(all.hits.find((h) => h.id === 'ORD-6000009')?.view).toMatchObject({ order: null, unreadable: true });

    const idsOf = (standing: SearchStanding) => Object.keys(expected).filter((id) => expected[id] === standing);
    const done = s.search('Meera', 'done');
    expect(done.hits.map((h) => h.id)).toEqual(idsOf('done'));
    expect(done.more).toBe(false);
    // Each hit as the unfiltered search gave it, its view included.
    for (const hit of done.hits) expect(hit).toEqual(all.hits.find((h) => h.id === hit.id));
    expect(s.search('Meera', 'open').hits.map((h) => h.id)).toEqual(idsOf('open'));
  });

  it('says where an order known only by its id stands, and one whose tap waits to be sent', () => {
    const store = openedStore(cleanup, tempDir(cleanup), () => T0);
    store.transaction(() => {
      store.orders.ensure('ORD-6100001', T0); // scanned, its details not read yet
      store.orders.ensure('ORD-6100002', T0);
      tap(store, 'ORD-6100002', { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }); // accepted, offline
    });
    const s = searcher(store);
    expect(s.search('ORD-6100001')).toMatchObject({ hits: [{ id: 'ORD-6100001', standing: 'open' }], more: false });
    expect(s.search('ORD-6100001', 'done')).toEqual({ hits: [], more: false });
    expect(s.search('ORD-6100002')).toMatchObject({ hits: [{ id: 'ORD-6100002', standing: 'open' }] });
    expect(s.search('ORD-6100002', 'done')).toEqual({ hits: [], more: false });
  });

  it('builds views only for the finished orders it shows and those whose stored facts cannot tell', () => {
    const { store } = filled();
    store.transaction(() => {
      for (let i = 10; i < 40; i++) store.orders.saveBody(order(`ORD-60000${i}`, `Open${i}`, 'Accepted', { store: 'PACKING' }), T0);
    });
    const s = searcher(store);
    const done = s.search('Meera', 'done');
    expect(done.hits.map((h) => h.id)).toEqual(['ORD-6000002', 'ORD-6000003', 'ORD-6000005', 'ORD-6000006', 'ORD-6000007', 'ORD-6000008']);
    // The shown ones, and the unreadable one whose state word says Completed (only its view can say
    // it shows no order); none of the 32 open ones the facts of their bodies settle.
    expect([...s.built].sort()).toEqual([...done.hits.map((h) => h.id), 'ORD-6000009'].sort());

    // A short list of finished ones says there were more, and builds no view past the one that says so.
    s.built.length = 0;
    expect(s.search('Meera', 'done', 2)).toMatchObject({ hits: [{ id: 'ORD-6000002' }, { id: 'ORD-6000003' }], more: true });
    expect(s.built).toEqual(['ORD-6000002', 'ORD-6000003', 'ORD-6000005']);
    // With no standing asked for, every candidate is shown: "more" needs no view of the next one.
    s.built.length = 0;
    expect(s.search('Meera', undefined, 3)).toMatchObject({ more: true });
    expect(s.built).toHaveLength(3);
  });
});
