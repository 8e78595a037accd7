/**
 * The order finder over a large data file: 50,000 orders (bodies as the sandbox seeds them, about
 * 4 kB each) in a real SQLite file, then what packers type: whole ids, last digits, first names,
 * surnames, phones' last digits, invoice numbers, and text that finds nothing. Prints the median
 * and p95 of one `orders.find` search (the engine's store.search.find, up to 8 orders) and the cost
 * the index's triggers add to writing a body. Target: p95 under 50 ms (issue 24's Orders search).
 * Run: npx tsx bench/order-find.ts [--orders 50000] [--rounds 400]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATA_FILE_NAME, openStore } from '../src/main/core/db';
import type { Order } from '../src/shared/protocol';
import { FIND_LIMIT } from '../src/shared/orders';
import { spread } from './stats';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ORDERS = arg('orders', 50_000);
const ROUNDS = arg('rounds', 400);
const TARGET_P95_MS = 50;

const FIRST = ['Aarav', 'Ananya', 'Vikram', 'Priya', 'Rohan', 'Kavya', 'Arjun', 'Meera', 'Siddharth', 'Lakshmi', 'Nikhil', 'Sneha'];
const LAST = ['Iyer', 'Menon', 'Nair', 'Patel', 'Singh', 'Rao', 'Das', 'Sharma', 'Gupta', 'Reddy'];

function order(i: number): Order {
  const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
  const phone = `9${String((i * 7_919_113) % 1_000_000_000).padStart(9, '0')}`;
  const items = Array.from({ length: 4 }, (_, k) => ({
    itemId: `I-${i}-${k}`,
    name: `Product ${k} with a fairly long catalogue name, ${i % 97} variant`,
    quantity: { count: 1 + (k % 3) },
    price: { value: 120 },
    sellingPrice: { value: 110 },
    displayMeasurement: '500 g',
    fulfillmentId: `F-${i}-S`,
  }));
  return {
    id: `ORD-${3_000_000 + i}`,
    orderState: 'Accepted',
    items,
    billing: { name, phone, address: { building: '14, 2nd Cross', locality: 'HSR Layout', city: 'Bengaluru', pincode: '560102' } },
    fulfillments: [
      { fulfillmentId: `F-${i}-S`, type: 'STORE', fulfillmentState: 'Pending' },
      { fulfillmentId: `F-${i}-D`, type: 'DELIVERY', end: { person: { name }, contact: { phone }, address: { city: 'Bengaluru' } } },
    ],
    quote: { price: { value: 480 } },
    ...(i % 3 === 0 ? { clientOrderInfo: { sellerInvoiceId: `INV-BLR-2611-${String(i).padStart(5, '0')}` } } : {}),
  } as Order;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-find-'));
try {
  const opened = openStore({ dataDir: dir, now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  let t0 = performance.now();
  for (let start = 0; start < ORDERS; start += 1_000)
    store.transaction(() => {
      for (let i = start; i < Math.min(ORDERS, start + 1_000); i++) store.orders.saveBody(order(i), Date.now());
    });
  const fillMs = performance.now() - t0;

  const texts = (r: number): string[] => {
    const i = (r * 7_877) % ORDERS;
    const o = order(i);
    return [
      o.id,
      String(3_000_000 + i),
      String(3_000_000 + i).slice(-4),
      FIRST[r % FIRST.length]!,
      LAST[r % LAST.length]!,
      `${FIRST[r % FIRST.length]} ${LAST[r % LAST.length]!.slice(0, 2)}`,
      o.billing!.phone!.slice(-5),
      `INV-BLR-2611-${String(i - (i % 3)).padStart(5, '0')}`,
      'Zzyzx Nobody',
    ];
  };
  const byKind = new Map<number, number[]>();
  const all: number[] = [];
  for (let r = 0; r < ROUNDS; r++)
    texts(r).forEach((text, k) => {
      t0 = performance.now();
      store.search.find(text, FIND_LIMIT);
      const ms = performance.now() - t0;
      all.push(ms);
      byKind.set(k, [...(byKind.get(k) ?? []), ms]);
    });

  // What the index's triggers add to a body write: the same bodies written again, one a transaction.
  const rewrite = (n: number): number => {
    const started = performance.now();
    for (let i = 0; i < n; i++) store.transaction(() => store.orders.saveBody({ ...order(i), orderState: `Accepted ${n}` } as Order, Date.now()));
    return (performance.now() - started) / n;
  };
  const withIndex = rewrite(500);
  store.close();
  // The same without the triggers, for their share (on another connection: the store has none to spare).
  const db = new Database(path.join(dir, DATA_FILE_NAME));
  db.exec('DROP TRIGGER order_search_insert; DROP TRIGGER order_search_update; DROP TRIGGER order_search_delete;');
  db.close();
  const again = openStore({ dataDir: dir, now: Date.now });
  if (!again.ok) throw new Error(again.problem.message);
  const bare = again.value;
  const started = performance.now();
  for (let i = 0; i < 500; i++) bare.transaction(() => bare.orders.saveBody({ ...order(i), orderState: 'Accepted bare' } as Order, Date.now()));
  const withoutIndex = (performance.now() - started) / 500;
  bare.close();

  const names = ['whole id', 'id digits', 'last 4 digits', 'first name', 'surname', 'name + 2 letters', 'phone end', 'invoice', 'nothing'];
  const s = spread(all);
  console.log(`${ORDERS} orders written in ${Math.round(fillMs)} ms; ${all.length} searches`);
  for (const [k, samples] of byKind) {
    const x = spread(samples);
    console.log(`  ${names[k]!.padEnd(18)} median ${x.median.toFixed(2)} ms  p95 ${x.p95.toFixed(2)} ms`);
  }
  console.log(`all searches: median ${s.median.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms (target p95 < ${TARGET_P95_MS} ms: ${(s.p95 / TARGET_P95_MS).toFixed(2)}x)`);
  console.log(`a body write, one committed transaction each: ${withIndex.toFixed(2)} ms with the index's triggers, ${withoutIndex.toFixed(2)} ms without`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
