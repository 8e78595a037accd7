/**
 * Scan to pack (issue 24) on a real data file and the sandbox over HTTP: products tick their
 * items, a barcode is taught once and remembered for every order after, too many and not in the
 * order are said, counts and taught codes survive a restart, and the PACKED tap names its packer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Item } from '../../../../src/shared/protocol';
import { acceptAndLoad, Cleanup, newOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const EAN = '8901234567897';

describe('scan to pack', () => {
  it('ticks units by item code, teaches an unknown barcode once, says too many and not in this order, and keeps counts over a restart', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const first = serviceEngine(cleanup, box, dir);
    const ids = newOrderIds(box);
    // Two orders with no product in common, so a barcode taught on one is not in the other.
    const codes = (id: string) => new Set(box.orders().find((o) => o.id === id)?.items.map((i) => i.serviceProviderItemId));
    const a = ids[0] as string;
    const b = ids.slice(1).find((id) => [...codes(id)].every((c) => !codes(a).has(c)));
    if (!b) throw new Error('no two sandbox orders without a product in common');
    const view = await acceptAndLoad(first.engine, a);
    const item = view.order?.items[0] as Item;
    const want = item.quantity.count;

    for (let n = 1; n <= want; n++)
      expect(first.engine.packScan(a, (item.serviceProviderItemId as string).toLowerCase())).toMatchObject({
        ok: true,
        value: { outcome: 'ticked', itemId: item.itemId, state: { items: expect.arrayContaining([{ itemId: item.itemId, scanned: n }]) } },
      });
    expect(first.engine.packScan(a, item.platformItemId as string)).toMatchObject({ ok: true, value: { outcome: 'tooMany', itemId: item.itemId } });

    // A barcode the store does not know: taught once, to the second item if there is one.
    const other = (view.order?.items[1] ?? item) as Item;
    expect(first.engine.packScan(a, EAN)).toMatchObject({ ok: true, value: { outcome: 'unknown' } });
    const taught = first.engine.packTeach(a, EAN, other.itemId);
    expect(taught).toMatchObject({ ok: true, value: { itemId: other.itemId } });
    // A badge is never a product.
    expect(first.engine.packScan(a, 'PDKS-7Q4K9M2X')).toMatchObject({ ok: false, problem: { code: 'PACK_NOT_PRODUCT' } });
    const before = first.engine.packState(a);
    await first.close();

    const again = serviceEngine(cleanup, box, dir);
    expect(again.engine.packState(a)).toEqual(before);
    // Remembered for every order after: on an order without that item it is not in this order.
    await acceptAndLoad(again.engine, b);
    expect(again.engine.packScan(b, EAN)).toMatchObject({ ok: true, value: { outcome: 'notInOrder' } });
    // A product the store sells (an item of another order on the terminal) is not in this order, not unknown.
    expect(again.engine.packScan(b, item.serviceProviderItemId as string)).toMatchObject({ ok: true, value: { outcome: 'notInOrder' } });
    expect(again.engine.packScan(b, 'NOSUCHCODE-1')).toMatchObject({ ok: true, value: { outcome: 'unknown' } });
  }, 60_000);

  it('names the packer of the PACKED tap, and the counter when nobody was signed in', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { staffPinCost: { N: 1 << 10, r: 8, p: 1 } });
    const [a, b] = newOrderIds(box);
    if (!a || !b) throw new Error('too few orders');
    const ravi = await engine.staff.add('Ravi');
    if (!ravi.ok) throw new Error('add failed');
    for (const id of [a, b]) {
      const view = await acceptAndLoad(engine, id);
      expect(engine.packState(id)).toMatchObject({ ok: true, value: { packedBy: null, packedHere: false } });
      if (id === a) engine.staff.signInByBadge(ravi.value.badge);
      else engine.staff.signOut();
      const store = fulfilmentId(view, 'STORE');
      expect(engine.submitTap(id, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' }).ok).toBe(true);
      expect(engine.submitTap(id, { kind: 'fulfilment', fulfilmentId: store, state: 'PACKED' }).ok).toBe(true);
    }
    expect(engine.packState(a)).toMatchObject({ ok: true, value: { packedBy: 'Ravi', packedHere: true } });
    expect(engine.packState(b)).toMatchObject({ ok: true, value: { packedBy: null, packedHere: true } });
  }, 60_000);
});
