/**
 * The store soak's checker (bench/store-soak.ts): it reads only the order service's own record (its
 * applied log, its request log and its orders, over the sandbox's admin HTTP API) and each counter's
 * data file (read-only SQL), and says what a store must never see:
 *  - taps lost: a tap in a counter's file that never reached the service (no request with its
 *    requestId), or still waiting after the drain. Taps a counter set aside on purpose and said so
 *    (taken back, done elsewhere, the order cancelled) are not lost. Nor is a tap its counter
 *    settled as sent because a status check found the order already at its step after a try that
 *    got no answer (the counter SIGKILLed mid-send): its step is done; it is counted on its own
 *    (`confirmedUnsent`) when no try of it answered 2xx, since another counter made that step;
 *  - taps applied twice: one requestId applied more than once (the service does not de-duplicate);
 *  - orders left unhandled: an order of the service with a step still to take after the sweep, or
 *    one that some counter's file never held;
 *  - orders tapped at two counters while apart: two taps of one kind of work (packing, or handing
 *    over) at two counters, neither counter having heard of the other's when it made its own, one
 *    of them made without asking the hub; and of those, how many both counters raised as a conflict.
 * The definitions are the checker's own, read off the raw rows, not the product's functions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { nextStep } from '../src/shared/fulfilment';
import type { Order } from '../src/shared/protocol';

interface Applied {
  readonly requestId: string;
  readonly orderId: string;
  /** The action's place in its request: a request is applied once when its first action is. */
  readonly actionIndex: number;
}
interface Requested {
  readonly requestId: string;
  readonly status: number;
}

export interface CounterFile {
  readonly name: string;
  readonly file: string;
}

export interface SoakFigures {
  readonly taps: number;
  readonly tapsLost: number;
  /** Settled as sent by a status check (the order showed the step) though no try of it was applied. */
  readonly confirmedUnsent: number;
  readonly tapsAppliedTwice: number;
  readonly ordersUnhandled: number;
  readonly ordersApart: number;
  readonly apartRaisedOnBoth: number;
  /** Up to ten examples of each problem, for the note. */
  readonly examples: Record<string, string[]>;
}

interface Tap {
  readonly counter: string;
  readonly requestId: string;
  readonly orderId: string;
  readonly action: { type: string; orderState?: string; fulfillmentState?: string };
  readonly state: string;
  readonly code: string | null;
  readonly unchecked: number | null;
  readonly seen: readonly string[] | null;
  /** Settled as sent by a status check ("confirmed" in the counter's audit). */
  readonly confirmed: boolean;
}

/** Packing, handing over, or neither (an invoice): only work of one kind can be done twice. */
function kindOf(action: Tap['action']): 'packing' | 'handOver' | null {
  if (action.type === 'ITEM_UNIT_UPDATE') return 'packing';
  if (action.type === 'ORDER_STATE_UPDATE') return String(action.orderState).toUpperCase() === 'COMPLETED' ? 'handOver' : 'packing';
  if (action.type === 'ORDER_FULFILMENT_STATE_UPDATE') return ['PACKING', 'PACKED'].includes(String(action.fulfillmentState).toUpperCase()) ? 'packing' : 'handOver';
  return null;
}

/** Set aside on purpose, and said so: never meant to reach the service. */
const SET_ASIDE = new Set(['UNDONE', 'ORDER_CANCELLED_ELSEWHERE', 'DONE_ELSEWHERE', 'DISCARDED']);

function readCounter(c: CounterFile): { taps: Tap[]; orders: Set<string>; conflicts: Map<string, Set<string>> } {
  const db = new Database(c.file, { readonly: true, fileMustExist: true });
  try {
    const confirmed = new Set((db.prepare(`SELECT entry_id FROM audit WHERE outcome = 'confirmed'`).all() as { entry_id: number }[]).map((r) => r.entry_id));
    const taps = (db.prepare(`SELECT id, request_id, order_id, action, state, last_error, hub_unchecked, hub_seen FROM outbox`).all() as Record<string, unknown>[]).map((r) => ({
      counter: c.name,
      requestId: String(r.request_id),
      orderId: String(r.order_id),
      action: JSON.parse(String(r.action)) as Tap['action'],
      state: String(r.state),
      code: r.last_error ? ((JSON.parse(String(r.last_error)) as { code?: string }).code ?? null) : null,
      unchecked: typeof r.hub_unchecked === 'number' ? r.hub_unchecked : null,
      seen: typeof r.hub_seen === 'string' ? (JSON.parse(r.hub_seen) as string[]) : null,
      confirmed: confirmed.has(Number(r.id)),
    }));
    const orders = new Set((db.prepare(`SELECT id FROM orders`).all() as { id: string }[]).map((r) => r.id));
    const conflicts = new Map<string, Set<string>>();
    for (const r of db.prepare(`SELECT order_id, record FROM order_conflicts`).all() as { order_id: string; record: string }[]) {
      const record = JSON.parse(r.record) as { parties: { counterName: string }[] };
      conflicts.set(r.order_id, new Set(record.parties.map((p) => p.counterName)));
    }
    return { taps, orders, conflicts };
  } finally {
    db.close();
  }
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return (await res.json()) as T;
}

/** The order service's own record, as its admin API gives it. */
export interface ServiceRecord {
  readonly applied: readonly Applied[];
  readonly requests: readonly Requested[];
  readonly orders: readonly Order[];
}

/** Reads the service's record from the sandbox at `adminUrl`. */
export async function readService(adminUrl: string): Promise<ServiceRecord> {
  return {
    applied: await getJson<Applied[]>(`${adminUrl}/__sandbox/log`),
    requests: await getJson<Requested[]>(`${adminUrl}/__sandbox/requests`),
    orders: await getJson<Order[]>(`${adminUrl}/__sandbox/orders`),
  };
}

/** The figures, from the service's record and the counters' files. */
export function checkSoak(service: ServiceRecord, counters: readonly CounterFile[]): SoakFigures {
  const { applied, requests, orders } = service;
  const files = counters.map((c) => ({ name: c.name, ...readCounter(c) }));
  const examples: Record<string, string[]> = { lost: [], confirmedUnsent: [], twice: [], unhandled: [], apart: [], notRaised: [] };
  const note = (what: string, text: string): void => {
    if (examples[what]!.length < 10) examples[what]!.push(text);
  };

  const requested = new Map<string, number[]>();
  for (const r of requests) requested.set(r.requestId, [...(requested.get(r.requestId) ?? []), r.status]);
  const taps = files.flatMap((f) => f.taps);
  let lost = 0;
  let confirmedUnsent = 0;
  for (const t of taps) {
    if (t.state === 'discarded' && (t.code === null || SET_ASIDE.has(t.code))) continue;
    const statuses = requested.get(t.requestId) ?? [];
    const gone = t.state === 'queued' || t.state === 'sending' || statuses.length === 0 || (t.state === 'sent' && !statuses.some((s) => s >= 200 && s < 300));
    if (!gone) continue;
    if (t.state === 'sent' && t.confirmed) {
      confirmedUnsent += 1;
      note('confirmedUnsent', `${t.counter} ${t.orderId} ${t.action.fulfillmentState ?? t.action.orderState ?? t.action.type} (${statuses.length === 0 ? 'no request reached the service' : `answered ${statuses.join(', ')}`})`);
      continue;
    }
    lost += 1;
    note('lost', `${t.counter} ${t.orderId} ${t.action.type} ${t.action.fulfillmentState ?? t.action.orderState ?? ''} (${t.state}${t.code ? ` ${t.code}` : ''})`);
  }

  let twice = 0;
  const perRequest = new Map<string, Applied[]>();
  for (const a of applied) perRequest.set(a.requestId, [...(perRequest.get(a.requestId) ?? []), a]);
  for (const [requestId, list] of perRequest) {
    // A request of several actions is applied once when each of its actions is: count its first action's.
    const first = list.filter((a) => a.actionIndex === 0).length;
    if (first > 1) {
      twice += 1;
      note('twice', `${requestId} on ${list[0]!.orderId}, ${first} times`);
    }
  }

  let unhandled = 0;
  for (const o of orders) {
    const missing = files.filter((f) => !f.orders.has(o.id)).map((f) => f.name);
    if (nextStep(o) === null && missing.length === 0) continue;
    unhandled += 1;
    note('unhandled', `${o.id} (${o.orderState}${nextStep(o) ? `, next ${nextStep(o)!.key}` : ''}${missing.length ? `, never on ${missing.join(', ')}` : ''})`);
  }

  let apart = 0;
  let raisedOnBoth = 0;
  const byOrder = new Map<string, Tap[]>();
  for (const t of taps) if (t.unchecked !== null && t.code !== 'UNDONE') byOrder.set(t.orderId, [...(byOrder.get(t.orderId) ?? []), t]);
  for (const [orderId, list] of byOrder) {
    const pairs = new Set<string>();
    for (const x of list)
      for (const y of list) {
        if (x.counter >= y.counter || (x.unchecked === 0 && y.unchecked === 0)) continue;
        const kind = kindOf(x.action);
        if (kind === null || kind !== kindOf(y.action) || x.seen === null || y.seen === null) continue;
        if (x.seen.includes(y.requestId) || y.seen.includes(x.requestId)) continue;
        pairs.add(`${x.counter}|${y.counter}`);
      }
    if (pairs.size === 0) continue;
    apart += 1;
    const both = [...pairs].every((pair) => {
      const [a, b] = pair.split('|') as [string, string];
      return [a, b].every((name) => {
        const parties = files.find((f) => f.name === name)?.conflicts.get(orderId);
        return parties?.has(a) === true && parties.has(b);
      });
    });
    if (both) raisedOnBoth += 1;
    else note('notRaised', `${orderId} (${[...pairs].join(', ')})`);
    note('apart', `${orderId} (${[...pairs].join(', ')})`);
  }

  return { taps: taps.length, tapsLost: lost, confirmedUnsent, tapsAppliedTwice: twice, ordersUnhandled: unhandled, ordersApart: apart, apartRaisedOnBoth: raisedOnBoth, examples };
}

/**
 * Run alone on a soak's kept folder (--keep), to read it again:
 *   npx tsx bench/store-soak-check.ts /tmp/packdesk-soak-XXXX
 */
if (process.argv[1]?.endsWith('store-soak-check.ts')) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: store-soak-check.ts <the soak folder kept by --keep>');
  const service = JSON.parse(readFileSync(join(dir, 'service.json'), 'utf8')) as ServiceRecord;
  const counters = readdirSync(dir)
    .filter((d) => d.startsWith('counter-'))
    .sort()
    .map((d) => ({ name: `Counter ${d.slice('counter-'.length)}`, file: join(dir, d, 'packdesk.sqlite') }));
  console.log(JSON.stringify(checkSoak(service, counters), null, 2));
}
