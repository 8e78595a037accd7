/**
 * The busy hour of bench/memory.ts (issue 41), compressed: packers work through new orders, orders
 * arrive at the marketplace and a few are cancelled there, at ten times a busy store's rate.
 */
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_INTAKE_INTERVAL_MS, DEFAULT_OVERLAP_MS } from '../src/main/core/intake';
import type { OrderSummary, OrderView } from '../src/shared/ipc';
import type { ActionInput } from '../src/shared/protocol';
import type { HostProcess } from './processes';

/** A busy store's day (bench/ui-shift.ts): 1,500 orders and 12,000 taps over 12 hours; the busy hour runs at ten times that. */
const BUSY = { ordersPerHour: (1_500 / 12) * 10, tapsPerHour: (12_000 / 12) * 10, cancelledShare: 0.05 };
const WALK_EVERY_MS = 2 * 60_000;
/** Orders packers have on the go at once during the busy hour. */
const IN_HAND = 12;

/** The machine's one-minute load average, said beside CPU and timing figures (the machine is shared). */
export const load = (): string => `load ${loadavg()[0]?.toFixed(2) ?? '?'}`;

/** The tap a next step stands for (as the big button makes it: NextStepButton.tsx). */
function inputFor(step: NonNullable<OrderView['nextStep']>): ActionInput | null {
  if (step.key === 'ACCEPT') return { kind: 'orderState', state: 'ACCEPTED' };
  if (step.key === 'COMPLETE') return { kind: 'orderState', state: 'COMPLETED' };
  return step.fulfilmentId ? { kind: 'fulfilment', fulfilmentId: step.fulfilmentId, state: step.key } : null;
}

export interface BusyCounts {
  taps: number;
  /** Each tap from the request to the host's answer (the entry durable), ms: what a page waits for. */
  readonly tapMs: number[];
  refused: number;
  placed: number;
  cancelled: number;
  finished: number;
}

/**
 * Packers work through new orders, a dozen in hand at once, each tapped from Accept to Complete;
 * orders arrive at the marketplace and a few are cancelled there, all at ten times a busy store's rate.
 */
async function busyHour(host: HostProcess, adminUrl: string, minutes: number): Promise<BusyCounts> {
  const list = await host.handle<OrderSummary[]>('orders.list', {});
  const fresh = list.filter((o) => o.nextStep?.key === 'ACCEPT').map((o) => o.id);
  const inHand: string[] = [];
  const placed: string[] = [];
  const counts: BusyCounts = { taps: 0, tapMs: [], refused: 0, placed: 0, cancelled: 0, finished: 0 };
  const admin = async (path: string, body: unknown = {}): Promise<unknown> => {
    const res = await fetch(`${adminUrl}/__sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`sandbox ${path}: HTTP ${res.status}`);
    return res.json();
  };
  const tap = async (): Promise<void> => {
    for (let tries = 0; tries < IN_HAND * 2; tries++) {
      while (inHand.length < IN_HAND && fresh.length > 0) inHand.push(fresh.shift()!);
      const id = inHand.shift();
      if (id === undefined) throw new Error('no order left to tap: raise --orders');
      const view = await host.handle<OrderView | null>('orders.get', { orderId: id });
      // Not on the terminal yet (placed at the marketplace, intake has yet to bring it): later.
      if (view === null) {
        fresh.push(id);
        continue;
      }
      const input = view.nextStep ? inputFor(view.nextStep) : null;
      if (input === null) {
        counts.finished++;
        continue;
      }
      const asked = performance.now();
      const reply = await host.request({ kind: 'handle', command: 'taps.submit', payload: { orderId: id, input } });
      counts.tapMs.push(performance.now() - asked);
      counts.taps++;
      if (!(reply as { ok: boolean }).ok) counts.refused++;
      inHand.push(id);
      return;
    }
  };
  const started = performance.now();
  const end = started + minutes * 60_000;
  const due = (perHour: number): number => Math.floor(((performance.now() - started) / 3_600_000) * perHour);
  let lastSaid = started;
  while (performance.now() < end) {
    while (counts.taps < due(BUSY.tapsPerHour)) await tap();
    while (counts.placed < due(BUSY.ordersPerHour)) {
      const order = (await admin('place-order')) as { id: string };
      counts.placed++;
      placed.push(order.id);
      // The newest first, as packers take them.
      fresh.unshift(order.id);
    }
    while (counts.cancelled < due(BUSY.ordersPerHour * BUSY.cancelledShare)) {
      const id = fresh.pop();
      if (id === undefined) break;
      await admin(`orders/${encodeURIComponent(id)}/change`, { change: 'cancel' });
      counts.cancelled++;
    }
    if (performance.now() - lastSaid > 60_000) {
      lastSaid = performance.now();
      console.error(`  busy hour: ${((lastSaid - started) / 60_000).toFixed(0)} of ${minutes} min, ${counts.taps} taps, ${counts.placed} orders placed, ${load()}`);
    }
    await sleep(50);
  }
  // The hour ends with every order placed in it accepted: one still new is an alert on screen (a
  // chime, a glow), not an idle terminal. Those intake has yet to bring are brought now.
  await sleep(6_000); // the sandbox's least pause between two polls
  await host.handle('intake.checkNow', {});
  for (const id of placed) {
    const view = await host.handle<OrderView | null>('orders.get', { orderId: id });
    if (view?.nextStep?.key !== 'ACCEPT') continue;
    await host.request({ kind: 'handle', command: 'taps.submit', payload: { orderId: id, input: { kind: 'orderState', state: 'ACCEPTED' } } });
    counts.taps++;
  }
  return counts;
}

/**
 * One compressed busy hour, the engine's walk for finished orders every WALK_EVERY_MS during it.
 * After it the walk goes back to its own six hours, so the idle figures after it are an idle
 * terminal's, not a walk every few seconds.
 */
export async function compressedHour(host: HostProcess, adminUrl: string, minutes: number): Promise<BusyCounts> {
  await host.request({ kind: 'compressWalks', everyMs: WALK_EVERY_MS });
  try {
    return await busyHour(host, adminUrl, minutes);
  } finally {
    await host.request({ kind: 'compressWalks', everyMs: null });
  }
}

/**
 * How long from now (ms, at least 10 s) until the changes of an hour that ended at `ended`
 * (performance.now()) are out of intake's overlap: until then intake's every pass reads them again
 * (decisions.md, "Order intake").
 */
export const untilOverlapOver = (ended: number): number => Math.max(10_000, ended + DEFAULT_OVERLAP_MS + DEFAULT_INTAKE_INTERVAL_MS + 10_000 - performance.now());
