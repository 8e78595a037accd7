/**
 * A store that splits heals out loud (issue 39), with real parts: a real hub (nats-server with TLS,
 * supervised), real app hosts as counters (SQLite files, engines, outboxes, hub sessions) and the
 * sandbox over HTTP. The hub is frozen (SIGSTOP, as a hub PC that hangs or a switch that drops)
 * while two counters work on one order; when it answers again (SIGCONT) both counters say the order
 * was packed twice, naming both counters and both packers, until a person settles it at either.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderView } from '../../../../src/shared/ipc';
import { mode, startStoreOnHub, type StoreCounter, type StoreOnHub, until, viewOf, newOrderIds, storeFulfilmentOf, tapAt, hubFreezer } from './store-fixture';

let store: StoreOnHub | null = null;
const hub = hubFreezer();
afterEach(async () => {
  hub.thaw();
  await store?.close();
  store = null;
});

/** Signs a packer in at a counter (added to its staff list first), as a badge would. */
async function signIn(c: StoreCounter, name: string): Promise<void> {
  const engine = c.t.host.engine()!;
  const added = await engine.staff.add(name);
  if (!added.ok) throw new Error(added.problem.message);
  const member = engine.staff.list().find((m) => m.name === name)!;
  const signed = engine.staff.signInByBadge(member.badge);
  if (!signed.ok) throw new Error(signed.problem.message);
}

const parties = (v: OrderView | null): string[] => (v?.conflict?.parties ?? []).map((p) => `${p.packers.join('+') || '-'} at ${p.counterName}`).sort();

describe('an order worked on at two counters while the hub was frozen', () => {
  it('is raised on both counters when the hub answers again, naming both counters and packers, until settled at either; the other is told what to put back', async () => {
    store = await startStoreOnHub({ counters: 2, awayAfterMs: 2_000, settings: { undoWindowMs: 0 } });
    const s = store;
    const [one, two] = s.counters as [StoreCounter, StoreCounter];
    await signIn(one, 'Ravi');
    await signIn(two, 'Priya');
    const orderId = newOrderIds(s)[0]!;

    hub.freeze(s);
    await until('both counters on their own', () => s.counters.every((c) => mode(c) === 'away'), 20_000);
    // Both packers take the same new order and start packing it; neither counter can check the other.
    await tapAt(one, orderId, { kind: 'orderState', state: 'ACCEPTED' });
    await tapAt(two, orderId, { kind: 'orderState', state: 'ACCEPTED' });
    await until('Counter 1 accepted at the service', () => s.sandbox.orders().find((o) => o.id === orderId)?.orderState === 'Accepted');
    await tapAt(one, orderId, { kind: 'fulfilment', fulfilmentId: storeFulfilmentOf(s, orderId), state: 'PACKING' });
    expect((await viewOf(one, orderId))?.conflict).toBeUndefined();

    hub.thaw();
    for (const c of s.counters) await until(`${c.name} raises it`, async () => (await viewOf(c, orderId))?.conflict !== undefined, 30_000);
    for (const c of s.counters) {
      const v = await viewOf(c, orderId);
      expect(parties(v)).toEqual(['Priya at Counter 2', 'Ravi at Counter 1']);
      expect(v?.conflict?.settled).toBeNull();
    }

    // Settled at Counter 2: Counter 1 keeps the order. Counter 1 goes quiet and holds the claim;
    // Counter 2 is told what to put back until someone there says it is done.
    const keeper = one.t.host.hub.status().counterId!;
    await two.t.call('orders.settleConflict', { orderId, keeperId: keeper });
    await until('Counter 1 quiet, holding the order', async () => {
      const v = await viewOf(one, orderId);
      return v?.conflict === undefined && v?.claim?.here === true;
    }, 15_000);
    const told = await viewOf(two, orderId);
    expect(told?.conflict?.settled?.keeperName).toBe('Counter 1');
    expect(told?.conflict?.settled?.keeperHere).toBe(false);
    expect(told?.conflict?.putBack?.length).toBeGreaterThan(0);
    await two.t.call('orders.putBack', { orderId });
    expect((await viewOf(two, orderId))?.conflict).toBeUndefined();
  }, 120_000);
});
