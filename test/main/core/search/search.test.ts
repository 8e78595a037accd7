/**
 * The Orders search over a real data file and the real engine (the sandbox behind it): text finds
 * orders on the terminal and orders that left it (by id only: their details left with them), each
 * saying where it stands; a day lists that day's arrivals; the standing and day filters keep what
 * they name and say when more matched.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dayOf } from '../../../../src/shared/days';
import type { Order } from '../../../../src/shared/protocol';
import { Cleanup, openedStore, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const NOW = Date.now();
const DAY = 24 * 60 * 60_000;

function order(id: string, name: string, state: 'Accepted' | 'Completed'): Order {
  const base = sampleOrder({ id, orderState: state });
  return { ...base, billing: { name, phone: '9845012345' } } as Order;
}

async function engineWith(fill: (store: ReturnType<typeof openedStore>) => void) {
  const dir = tempDir(cleanup);
  // Written beside the engine first, as the CLI writes next to the app.
  const store = openedStore(cleanup, dir, () => NOW);
  store.transaction(() => fill(store));
  store.close();
  const box = await sandbox(cleanup, { orderCount: 2 });
  return serviceEngine(cleanup, box, dir).engine;
}

describe('the Orders search', () => {
  it('finds orders on the terminal and gone from it, each with where it stands, and filters by standing and day', async () => {
    const engine = await engineWith((store) => {
      store.orders.saveBody(order('ORD-5551001', 'Meera Iyer', 'Accepted'), NOW - 2 * DAY);
      store.orders.saveBody(order('ORD-5551002', 'Meera Nair', 'Completed'), NOW);
      store.orders.saveBody(order('ORD-5551003', 'Meera Rao', 'Completed'), NOW - 5 * DAY);
      store.scrubbing(() => store.orders.retire('ORD-5551003', NOW - DAY));
    });
    const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id).sort();

    const byName = engine.searchOrders({ text: 'Meera' }, 50);
    // The order that left is not found by a name: its details left with it.
    expect(ids(byName)).toEqual(['ORD-5551001', 'ORD-5551002']);
    expect(byName.hits.find((h) => h.id === 'ORD-5551001')).toMatchObject({ by: 'customer', standing: 'open', leftAt: null });
    expect(byName.hits.find((h) => h.id === 'ORD-5551002')).toMatchObject({ standing: 'done' });
    expect(byName.hits.every((h) => h.view?.order)).toBe(true);

    const gone = engine.searchOrders({ text: '1003' }, 50);
    expect(gone.hits).toEqual([expect.objectContaining({ id: 'ORD-5551003', by: 'idEnd', standing: 'left', leftAt: NOW - DAY, view: null })]);
    expect(ids(engine.searchOrders({ text: '555100' }, 50))).toEqual([]); // not the end of an id
    expect(ids(engine.searchOrders({ text: 'ORD-5551003' }, 50))).toEqual(['ORD-5551003']);

    expect(ids(engine.searchOrders({ text: 'Meera', standing: 'done' }, 50))).toEqual(['ORD-5551002']);
    expect(ids(engine.searchOrders({ text: 'Meera', day: dayOf(NOW - 2 * DAY) }, 50))).toEqual(['ORD-5551001']);
    // No text: a day lists its arrivals, gone ones too; nothing typed and no day asks for nothing.
    expect(ids(engine.searchOrders({ text: '', day: dayOf(NOW - 5 * DAY) }, 50))).toEqual(['ORD-5551003']);
    expect(ids(engine.searchOrders({ text: '', day: dayOf(NOW - 5 * DAY), standing: 'open' }, 50))).toEqual([]);
    expect(engine.searchOrders({ text: '' }, 50)).toEqual({ hits: [], more: false });
    // A short list says there were more.
    const one = engine.searchOrders({ text: 'Meera' }, 1);
    expect(one.hits).toHaveLength(1);
    expect(one.more).toBe(true);
  });
});
