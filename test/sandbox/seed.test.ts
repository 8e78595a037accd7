import { describe, expect, it } from 'vitest';
import { promisedPackedAt } from '../../src/shared/fulfilment/states';
import { OrderSchema } from '../../src/shared/protocol/schemas';
import { seedOrders, startSandbox } from '../../sandbox';
import { sandbox } from '../support/sandbox-http';
import { manualClock } from '../support/clock';

const NOW = Date.UTC(2025, 0, 15, 9, 30);
const HOUR = 3_600_000;

describe('sandbox seeded orders', () => {
  it('gives the same orders for the same seed, and different ones for another seed', async () => {
    expect(seedOrders(3, 40, NOW)).toEqual(seedOrders(3, 40, NOW));
    expect(seedOrders(3, 40, NOW).map((o) => o.id)).not.toEqual(seedOrders(4, 40, NOW).map((o) => o.id));
    const a = await sandbox({ seed: 9, now: manualClock(NOW).now });
    const b = await sandbox({ seed: 9, now: manualClock(NOW).now });
    expect(a.orders()).toEqual(b.orders());
  });

  it('seeds 40 orders by default, each one a valid spec order with unique ids', async () => {
    const s = await sandbox();
    const orders = s.orders();
    expect(orders).toHaveLength(40);
    for (const order of orders) expect(OrderSchema.safeParse(order).success, order.id).toBe(true);
    expect(new Set(orders.map((o) => o.id)).size).toBe(40);
    expect(orders.every((o) => /^ORD-\d+$/.test(o.id))).toBe(true);
    const itemIds = orders.flatMap((o) => o.items.map((i) => i.itemId));
    expect(new Set(itemIds).size).toBe(itemIds.length);
  });

  it('makes orders that look like a real store queue', () => {
    const orders = seedOrders(1, 40, NOW);
    const states = orders.map((o) => o.orderState);
    expect(states.filter((s) => s === 'Created').length).toBeGreaterThan(20);
    expect(states).toContain('Accepted');
    expect(states.filter((s) => s === 'Cancelled').length).toBeGreaterThanOrEqual(1);
    expect(orders.some((o) => o.fulfillments.some((f) => f.type === 'STORE' && f.fulfillmentState === 'PACKED'))).toBe(true);

    const withDelivery = orders.filter((o) => o.fulfillments.some((f) => f.type === 'DELIVERY'));
    expect(withDelivery.length).toBeGreaterThan(30);
    expect(withDelivery.length).toBeLessThan(40);
    expect(orders.every((o) => o.fulfillments.some((f) => f.type === 'STORE'))).toBe(true);

    const items = orders.flatMap((o) => o.items);
    expect(items.some((i) => i.prescriptionRequired)).toBe(true);
    expect(items.some((i) => !i.prescriptionRequired)).toBe(true);
    for (const o of orders) {
      expect(o.items.length).toBeGreaterThanOrEqual(1);
      expect(o.items.length).toBeLessThanOrEqual(6);
      for (const i of o.items) {
        expect(i.quantity.count).toBeGreaterThanOrEqual(1);
        expect(i.quantity.count).toBeLessThanOrEqual(4);
        expect(i.images?.every((img) => img.image.startsWith('https://'))).toBe(true);
      }
      // The quote adds up and lists every item.
      const breakUp = o.quote?.breakUp ?? [];
      const sum = breakUp.reduce((acc, l) => acc + (l.price?.value ?? 0), 0);
      expect(o.quote?.price?.value).toBeCloseTo(sum, 2);
      expect(breakUp.filter((l) => l.type === 'ITEM').map((l) => l.referenceId)).toEqual(o.items.map((i) => i.itemId));
      expect(breakUp.map((l) => l.type)).toEqual(expect.arrayContaining(['ITEM', 'PACKING', 'TAX']));
      expect(o.billing?.address?.country).toBe('IND');
      expect(o.billing?.address?.pincode).toMatch(/^\d{6}$/);
    }

    // Promised PACKED times run from a little late to a few hours ahead.
    const promised = orders.map((o) => promisedPackedAt(o) ?? Number.NaN);
    expect(promised.every((t) => Number.isFinite(t))).toBe(true);
    expect(promised.some((t) => t < NOW)).toBe(true);
    expect(promised.some((t) => t > NOW + HOUR)).toBe(true);
    expect(Math.min(...promised)).toBeGreaterThanOrEqual(NOW - 15 * 60_000);
    expect(Math.max(...promised)).toBeLessThanOrEqual(NOW + 4 * HOUR);
    for (const o of orders) expect(Date.parse(o.createdAt ?? '')).toBeLessThan(NOW);
  });

  it('honours the order count and refuses bad options', async () => {
    expect(seedOrders(1, 30, NOW)).toHaveLength(30);
    expect(seedOrders(1, 5, NOW)).toHaveLength(5);
    expect((await sandbox({ orderCount: 30 })).orders()).toHaveLength(30);
    await expect(startSandbox({ orderCount: 0 })).rejects.toThrow(TypeError);
    await expect(startSandbox({ port: 70_000 })).rejects.toThrow(/port/);
  });
});
