/**
 * The queue's rows each counter keeps and patches from events (host/queueRows.ts) are the rows a
 * fresh listing gives, at counters of one store with real parts: a real hub (nats-server with TLS,
 * supervised), real app hosts as counters and the sandbox over HTTP. After each kind of event the
 * hub brings (a claim coming, moving and going, another counter's taps, an order packed twice while
 * the hub was frozen and settled, an alarm raised at another counter, an order taken off and added
 * back, a counter leaving the hub), every counter's kept rows are compared with a listing of every
 * order made then, with the hub's word laid over, row for row and in the same order.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderSummary } from '../../../../src/shared/ipc';
import { summarize } from '../../../../src/shared/orders';
import { accept, faults, mode, startStoreOnHub, type StoreCounter, type StoreOnHub, until, viewOf, newOrderIds, storeFulfilmentOf, tapAt, hubFreezer } from './store-fixture';

let store: StoreOnHub | null = null;
const hub = hubFreezer();
afterEach(async () => {
  hub.thaw();
  await store?.close();
  store = null;
});

/** The rows the counter keeps, as a page gets them. */
const kept = (c: StoreCounter): Promise<OrderSummary[]> => c.t.call('orders.list', {});
/** Every order listed now, each with the hub's word laid over as `orders.get` answers, as the rows were first made. */
async function listedNow(c: StoreCounter): Promise<OrderSummary[]> {
  const ids = c.t.host
    .engine()!
    .listOrders()
    .map((v) => v.id);
  const views = await Promise.all(ids.map((orderId) => c.t.call('orders.get', { orderId })));
  return views.flatMap((v) => (v ? [summarize(v)] : []));
}

/** As JSON carries it (no undefined fields), to compare field by field. */
const plain = (rows: OrderSummary[]): unknown => JSON.parse(JSON.stringify(rows));

/** Waits for each counter's kept rows to be a fresh listing's (events still arriving); says the difference if they never are. */
async function sameAsListed(s: StoreOnHub, after: string): Promise<void> {
  for (const c of s.counters) {
    let rows: OrderSummary[] = [];
    let listed: OrderSummary[] = [];
    try {
      await until(`${c.name}'s kept rows are a fresh listing's after ${after}`, async () => {
        rows = await kept(c);
        listed = await listedNow(c);
        return isDeepStrictEqual(plain(rows), plain(listed));
      });
    } catch (error) {
      expect(rows, `${c.name} after ${after}`).toEqual(listed);
      throw error;
    }
  }
}

describe("the queue's rows kept at counters of one store", () => {
  it('are the rows a fresh listing gives after claims come, move and go, other counters tap, an order is packed twice and settled, an alarm is raised elsewhere, an order comes back, and a counter leaves', async () => {
    store = await startStoreOnHub({ counters: 2, awayAfterMs: 2_000, settings: { undoWindowMs: 0 } });
    const s = store;
    const [one, two] = s.counters as [StoreCounter, StoreCounter];
    const [a, b, c] = newOrderIds(s) as [string, string, string];
    // Both pages loaded: the rows listed once, then patched.
    for (const counter of s.counters) await kept(counter);
    await sameAsListed(s, 'the first listing');

    // A claim comes (Counter 1 accepts), and Counter 1's tap shows at Counter 2 until its answer does.
    await accept(one, a);
    await until('Counter 2 sees Counter 1 holding the order', async () => (await viewOf(two, a))?.claim?.counterName === 'Counter 1');
    await sameAsListed(s, "Counter 1's Accept");
    // The claim moves: Counter 2 takes the order over and packs it.
    await two.t.call('orders.takeOver', { orderId: a });
    await until('Counter 1 sees Counter 2 holding it', async () => (await viewOf(one, a))?.claim?.counterName === 'Counter 2');
    await until("Counter 1's Accept answered at Counter 2", () => two.t.host.engine()!.getOrder(a)?.nextStep?.key === 'PACKING', 30_000);
    await tapAt(two, a, { kind: 'fulfilment', fulfilmentId: storeFulfilmentOf(s, a), state: 'PACKING' });
    await sameAsListed(s, "Counter 2's take-over and Packing");

    // An alarm at Counter 2 (it accepted an order the marketplace then cancelled), laid over Counter 1's row.
    await accept(two, b);
    await until('Counter 2 accepted at the service', () => s.sandbox.orders().find((o) => o.id === b)?.orderState === 'Accepted');
    s.sandbox.changeOrder(b, 'cancel');
    await until('Counter 1 shows the alarm raised at Counter 2', async () => (await viewOf(one, b))?.alarmElsewhere !== undefined, 30_000);
    await sameAsListed(s, 'the cancellation at the marketplace');

    // Packed twice while the hub was frozen: raised at both when it answers, then settled.
    hub.freeze(s);
    await until('both counters on their own', () => s.counters.every((x) => mode(x) === 'away'), 20_000);
    // Away, no claim shows (nobody can tell who holds what): the claimed rows lose theirs, with no event per order.
    await sameAsListed(s, 'the hub frozen');
    await accept(one, c);
    await accept(two, c);
    hub.thaw();
    for (const x of s.counters) await until(`${x.name} raises it`, async () => (await viewOf(x, c))?.conflict !== undefined, 30_000);
    await sameAsListed(s, 'an order packed twice raised');
    await two.t.call('orders.settleConflict', { orderId: c, keeperId: one.t.host.hub.status().counterId! });
    await until('Counter 1 quiet', async () => (await viewOf(one, c))?.conflict === undefined, 15_000);
    await two.t.call('orders.putBack', { orderId: c });
    await sameAsListed(s, 'the settling');

    // An order typed in at Counter 1 while the service refuses every call, taken off, and typed in again: back, as new (last).
    await faults(s.sandbox, { outage: 'refuse' });
    const typed = 'ORD-9999991';
    await one.t.call('orders.add', { orderId: typed });
    await sameAsListed(s, 'an order typed in');
    await one.t.call('orders.remove', { orderId: typed });
    await sameAsListed(s, 'an order taken off');
    await one.t.call('orders.add', { orderId: typed });
    await sameAsListed(s, 'the order typed in again');
    await faults(s.sandbox, { outage: 'none' });

    // Counter 1 leaves the hub: the other counters' claims, taps and alarms leave its rows, with no event per order.
    const left = await one.t.host.hub.leave();
    expect(left.ok).toBe(true);
    await sameAsListed(s, 'Counter 1 left the hub');
    const rows = await kept(one);
    expect(rows.filter((r) => r.claim || r.elsewhere || r.alarmElsewhere)).toEqual([]);
  }, 180_000);
});
