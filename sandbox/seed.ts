/**
 * Seeded, realistic orders. The same seed gives the same orders (ids, items, people, states);
 * the times are laid out around `now` so a queue sorted by promised PACKED time is interesting:
 * some orders are already late, most are due within the next few hours.
 */
import type { Fulfillment, Item, Order } from '../src/shared/protocol/schemas';
import { AREAS, BUILDINGS, CATALOGUE, FIRST_NAMES, IMAGE_BASE, LAST_NAMES, STORE } from './catalogue';
import { intBetween, mulberry32, pick, type Random, shuffled } from './prng';

const MINUTE = 60_000;

/** Where an order starts its life in the sandbox. */
type Stage = 'new' | 'accepted' | 'packing' | 'packed' | 'outForDelivery' | 'cancelled';

/** How many orders of each stage: mostly new (not yet accepted), a few further along, one or two cancelled. */
function stagePlan(count: number): Stage[] {
  const cancelled = count >= 10 ? 2 : count >= 3 ? 1 : 0;
  const accepted = Math.max(count >= 2 ? 1 : 0, Math.round(count * 0.1));
  const packing = Math.round(count * 0.05);
  const packed = Math.round(count * 0.1);
  const outForDelivery = count >= 20 ? 1 : 0;
  const plan: Stage[] = [
    ...Array<Stage>(cancelled).fill('cancelled'),
    ...Array<Stage>(accepted).fill('accepted'),
    ...Array<Stage>(packing).fill('packing'),
    ...Array<Stage>(packed).fill('packed'),
    ...Array<Stage>(outForDelivery).fill('outForDelivery'),
  ].slice(0, count);
  while (plan.length < count) plan.push('new');
  return plan;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;
const iso = (ms: number): string => new Date(ms).toISOString();

/** Builds `count` orders deterministically from `seed`, with times relative to `now` (epoch ms). */
export function seedOrders(seed: number, count: number, now: number): Order[] {
  const random = mulberry32(seed);
  const stages = shuffled(random, stagePlan(count));
  // A seven-digit base per seed; a stride of 17 with a jitter below 17 keeps the ids unique.
  const base = 1_000_000 + intBetween(random, 0, 8_000) * 1_000;
  return stages.map((stage, index) => seedOrder(random, base + index * 17 + intBetween(random, 0, 16), index, stage, now));
}

/**
 * One order placed just now (training mode's arrivals, the admin "place an order"): state
 * `Created`, created at `now`, promised to be packed within the next 20 to 45 minutes.
 */
export function freshOrder(random: Random, number: number, now: number): Order {
  return seedOrder(random, number, number, 'new', now, true);
}

function seedOrder(random: Random, number: number, index: number, stage: Stage, now: number, fresh = false): Order {
  const id = `ORD-${number}`;
  // Most orders are delivered; about one in seven is picked up at the counter (STORE only).
  const hasDelivery = stage === 'outForDelivery' || index % 7 !== 3;
  const storeId = `FUL-${number}-S`;
  const deliveryId = `FUL-${number}-D`;

  const first = pick(random, FIRST_NAMES);
  const last = pick(random, LAST_NAMES);
  const customer = `${first} ${last}`;
  const phone = `9${String(intBetween(random, 0, 999_999_999)).padStart(9, '0')}`;
  const area = pick(random, AREAS);
  const building = pick(random, BUILDINGS);
  const address = {
    building,
    locality: area.locality,
    city: area.city,
    state: area.state,
    country: 'IND',
    pincode: area.pincode,
    formattedAddress: `${building}, ${area.locality}, ${area.city}, ${area.state} ${area.pincode}`,
    lat: round4(area.lat + (random() - 0.5) / 100),
    lon: round4(area.lon + (random() - 0.5) / 100),
  };

  const promisedPacked = now + (fresh ? intBetween(random, 20, 45) : intBetween(random, -12, 240)) * MINUTE;
  const createdAt = fresh ? now : Math.min(promisedPacked - intBetween(random, 20, 50) * MINUTE, now - 3 * MINUTE);

  const products = shuffled(random, CATALOGUE).slice(0, intBetween(random, 1, 6));
  const items: Item[] = products.map((p, k) => ({
    itemId: `IT-${number}-${k + 1}`,
    name: p.name,
    platformItemId: `PI-${p.sku}`,
    serviceProviderItemId: p.sku,
    fulfillmentId: hasDelivery ? deliveryId : storeId,
    quantity: { count: intBetween(random, 1, 4) },
    price: { value: p.mrp },
    sellingPrice: { value: p.selling },
    images: [{ image: `${IMAGE_BASE}/${p.sku.toLowerCase()}-1.jpg` }, { image: `${IMAGE_BASE}/${p.sku.toLowerCase()}-2.jpg` }],
    prescriptionRequired: p.prescriptionRequired,
    displayMeasurement: p.displayMeasurement,
  }));

  // Times at which the order moved along, for orders seeded part-way through their life.
  const packingAt = now - intBetween(random, 8, 20) * MINUTE;
  const packedAt = packingAt + intBetween(random, 3, 6) * MINUTE;
  const pickedUpAt = Math.min(packedAt + intBetween(random, 1, 3) * MINUTE, now - MINUTE);
  const cancelledAt = createdAt + intBetween(random, 1, 2) * MINUTE;

  const store: Fulfillment = {
    fulfillmentId: storeId,
    type: 'STORE',
    ownerType: 'RETAIL_SERVICE_PROVIDER',
    end: { address: { ...STORE.address }, contact: { phone }, person: { name: customer } },
    fulfillmentState: 'Pending',
    fulfilmentStatusHistory: {
      PACKING: { promised: { endTime: promisedPacked - 10 * MINUTE } },
      PACKED: { promised: { endTime: promisedPacked } },
    },
  };
  const delivery: Fulfillment = {
    fulfillmentId: deliveryId,
    type: 'DELIVERY',
    ownerType: 'RETAIL_SERVICE_PROVIDER',
    end: { address, contact: { phone }, person: { name: customer } },
    fulfillmentState: 'Pending',
    fulfilmentStatusHistory: {
      SEARCHING_FOR_AGENT: { promised: { endTime: promisedPacked + 5 * MINUTE } },
      AGENT_ASSIGNED: { promised: { endTime: promisedPacked + 10 * MINUTE } },
      OUT_FOR_DELIVERY: { promised: { endTime: promisedPacked + 15 * MINUTE } },
      DELIVERED: { promised: { endTime: promisedPacked + 45 * MINUTE } },
    },
  };
  const storeHistory = store.fulfilmentStatusHistory ?? {};
  const deliveryHistory = delivery.fulfilmentStatusHistory ?? {};
  const mark = (h: typeof storeHistory, key: string, at: number): void => {
    h[key] = { ...h[key], actual: { endTime: at } };
  };

  let orderState = 'Created';
  let updatedAt = createdAt;
  const actions: NonNullable<Order['actions']> = [];
  switch (stage) {
    case 'new':
      break;
    case 'accepted':
      orderState = 'Accepted';
      updatedAt = createdAt + MINUTE;
      break;
    case 'packing':
      orderState = 'Accepted';
      store.fulfillmentState = 'PACKING';
      mark(storeHistory, 'PACKING', packingAt);
      updatedAt = packingAt;
      break;
    case 'packed':
      orderState = 'In-progress';
      store.fulfillmentState = 'PACKED';
      mark(storeHistory, 'PACKING', packingAt);
      mark(storeHistory, 'PACKED', packedAt);
      delivery.fulfillmentState = 'SEARCHING_FOR_AGENT';
      mark(deliveryHistory, 'SEARCHING_FOR_AGENT', packedAt);
      updatedAt = packedAt;
      break;
    case 'outForDelivery':
      orderState = 'In-progress';
      store.fulfillmentState = 'PACKED';
      mark(storeHistory, 'PACKING', packingAt);
      mark(storeHistory, 'PACKED', packedAt);
      delivery.fulfillmentState = 'OUT_FOR_DELIVERY';
      mark(deliveryHistory, 'SEARCHING_FOR_AGENT', packedAt);
      mark(deliveryHistory, 'AGENT_ASSIGNED', pickedUpAt);
      mark(deliveryHistory, 'OUT_FOR_DELIVERY', pickedUpAt);
      updatedAt = pickedUpAt;
      break;
    case 'cancelled':
      orderState = 'Cancelled';
      store.fulfillmentState = 'Cancelled';
      delivery.fulfillmentState = 'Cancelled';
      actions.push({ type: 'CANCEL_ORDER', channel: 'TSP', createdAt: String(cancelledAt) });
      updatedAt = cancelledAt;
      break;
  }

  const itemLines = items.map((item) => ({
    referenceId: item.itemId,
    type: 'ITEM',
    quotationLevel: 'ITEM',
    title: item.name ?? item.itemId,
    price: { value: round2((item.sellingPrice?.value ?? 0) * item.quantity.count) },
    quantity: { count: item.quantity.count },
  }));
  const itemTotal = itemLines.reduce((sum, l) => sum + l.price.value, 0);
  const packingCharge = 10;
  // Delivery is free above ₹499, as neighbourhood stores on the marketplace commonly offer.
  const deliveryCharge = hasDelivery ? (itemTotal > 499 ? 0 : 25) : 0;
  const breakUp = [
    ...itemLines,
    { referenceId: storeId, type: 'PACKING', quotationLevel: 'FULFILLMENT', title: 'Packing charges', price: { value: packingCharge } },
    ...(hasDelivery
      ? [{ referenceId: deliveryId, type: 'DELIVERY', quotationLevel: 'FULFILLMENT', title: 'Delivery charges', price: { value: deliveryCharge } }]
      : []),
    // GST at 18% on the service charges; item prices already include their tax (MRP).
    { referenceId: id, type: 'TAX', quotationLevel: 'ORDER', title: 'Tax', price: { value: round2((packingCharge + deliveryCharge) * 0.18) } },
  ];

  return {
    id,
    items,
    orderState,
    serviceProvider: { id: STORE.serviceProviderId, platformId: STORE.platformId },
    billing: {
      name: customer,
      address,
      email: `${first}.${last}@example.in`.toLowerCase(),
      phone,
      createdAt: iso(createdAt),
      updatedAt: iso(createdAt),
    },
    fulfillments: hasDelivery ? [store, delivery] : [store],
    quote: { price: { value: round2(breakUp.reduce((sum, l) => sum + l.price.value, 0)) }, breakUp },
    actions,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  };
}
