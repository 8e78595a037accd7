/**
 * Drain time: 10,000 queued actions over 1,000 orders (10 each) sent to the sandbox with 20 ms of
 * added latency, next to
 *   - the bound max(actions x latency / concurrency, longest chain x latency), and
 *   - a one-at-a-time replay of the same queue (concurrency 1, a fresh sandbox with the same seed).
 * Targets: within 1.3x the bound; at least 3x faster than one at a time.
 * With --floor, the same requests are also sent by a bare client to a fresh sandbox
 * (bench/drain-floor.ts): what the drain takes over that is the engine's own share; and the
 * sandbox's timers alone (as many waits of the latency), the part no request can avoid.
 * The sandbox runs as a process of its own by default, as the real service runs on another machine
 * (`--sandbox inline` runs it inside the benchmark's process instead).
 * Run: npx tsx bench/drain.ts [--orders 1000] [--latency 20] [--concurrency 4] [--skip-serial] [--floor] [--sandbox process|inline]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { type Faults, startSandbox } from '../sandbox';
import { MemoryVault } from '../src/main/core/auth';
import { openEngineWithService, type ServiceEngine } from '../src/main/core/engine';
import { type ActionInput, type Order, OrderSchema } from '../src/shared/protocol';
import { measureFloor, measureTimers } from './drain-floor';

const PER_ORDER = 10;

export interface DrainRun {
  readonly concurrency: number;
  readonly actions: number;
  readonly ms: number;
  readonly boundMs: number;
}

export interface DrainFigures {
  readonly orders: number;
  readonly latencyMs: number;
  readonly concurrent: DrainRun;
  readonly serial: DrainRun | null;
  /** The same requests from a bare client (bench/drain-floor.ts), in ms; null unless asked for. */
  readonly floorMs: number | null;
  /** The sandbox's timers alone (as many waits of the latency, as many at once), in ms; null unless asked for. */
  readonly timersMs: number | null;
  /** Where the sandbox ran: its own process, or inside the benchmark's. */
  readonly sandbox: 'process' | 'inline';
}

const credentials = { clientId: 'training', clientSecret: 'training-secret' };

/** What the benchmark needs from a sandbox, wherever it runs. */
interface Box {
  readonly url: string;
  orders(): Promise<Order[]>;
  setFaults(patch: Partial<Faults>): Promise<void>;
  appliedCount(): Promise<number>;
  close(): Promise<void>;
}

async function inlineBox(seed: number, orderCount: number): Promise<Box> {
  const sandbox = await startSandbox({ seed, orderCount });
  return {
    url: sandbox.url,
    orders: async () => sandbox.orders(),
    setFaults: async (patch) => sandbox.faults.set(patch),
    appliedCount: async () => sandbox.appliedLog().length,
    close: () => sandbox.close(),
  };
}

/** `npm run sandbox` as a child process, driven through its admin API. */
async function processBox(seed: number, orderCount: number): Promise<Box> {
  const repo = path.resolve(__dirname, '..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--seed', String(seed), '--orders', String(orderCount)], {
    cwd: repo,
    stdio: ['ignore', 'pipe', process.env.BENCH_SANDBOX_LOG ? 'inherit' : 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const urls: string[] = [];
  for await (const line of lines) {
    const m = /^(?:listening|admin) on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line.trim());
    if (m?.[1]) urls.push(m[1]);
    if (urls.length === 2) break;
  }
  const [url, admin] = urls;
  if (!url || !admin) throw new Error('the sandbox did not start');
  // An idle keep-alive socket may have been closed by the sandbox while this process was busy queuing;
  // an admin call is safe to repeat once.
  const call = async (route: string, init?: RequestInit): Promise<Response> => {
    try {
      return await fetch(`${admin}/__sandbox/${route}`, init);
    } catch {
      return fetch(`${admin}/__sandbox/${route}`, init);
    }
  };
  const get = async (route: string): Promise<unknown> => (await call(route)).json();
  return {
    url,
    orders: async () => z.array(OrderSchema).parse(await get('orders')),
    setFaults: async (patch) => {
      const r = await call('faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(patch) });
      if (!r.ok) throw new Error(`faults not set: HTTP ${r.status}`);
    },
    appliedCount: async () => z.array(z.looseObject({ requestId: z.string() })).parse(await get('log')).length,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function engineOn(sandbox: Box, dataDir: string, concurrency: number): ServiceEngine {
  return openEngineWithService({
    dataDir,
    authUrl: sandbox.url,
    baseUrl: sandbox.url,
    vault: new MemoryVault({ credentials }),
    terminalId: 'bench',
    undoWindowMs: 0,
    concurrency,
  });
}

/** Ten taps an accepted order can take in turn, STORE-only or with a DELIVERY fulfilment. */
function planFor(orderId: string, store: string, delivery: string | undefined): ActionInput[] {
  const invoice = (n: number): ActionInput => ({ kind: 'invoice', sellerInvoiceId: `INV-${orderId}-${n}` });
  const plan: ActionInput[] = [
    { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' },
    invoice(1),
    { kind: 'fulfilment', fulfilmentId: store, state: 'PACKED' },
    invoice(2),
  ];
  if (delivery) plan.push({ kind: 'fulfilment', fulfilmentId: delivery, state: 'OUT_FOR_DELIVERY' }, invoice(3), { kind: 'fulfilment', fulfilmentId: delivery, state: 'DELIVERED' });
  else plan.push(invoice(3), invoice(4), invoice(5));
  plan.push(invoice(6), invoice(7), { kind: 'orderState', state: 'COMPLETED' });
  return plan;
}

/** Enough seeded orders that `orders` of them are still new (about three in four are). */
const seededFor = (orders: number): number => Math.min(10_000, Math.ceil(orders / 0.7) + 20);

/** What a run queued, step by step across orders: the floor sends the same. */
interface Queued {
  readonly ids: readonly string[];
  readonly steps: readonly (readonly [string, ActionInput])[];
}

/** Loads `orders` orders on a fresh terminal, queues PER_ORDER actions for each, then times the drain. */
async function runOnce(orders: number, latencyMs: number, concurrency: number, inline: boolean, log: (line: string) => void): Promise<{ run: DrainRun; queued: Queued }> {
  const orderCount = seededFor(orders);
  const sandbox = inline ? await inlineBox(5, orderCount) : await processBox(5, orderCount);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-bench-drain-'));
  try {
    const ids = (await sandbox.orders())
      .filter((o) => o.orderState.toUpperCase() === 'CREATED')
      .map((o) => o.id)
      .slice(0, orders);
    if (ids.length < orders) throw new Error(`the sandbox has only ${ids.length} new orders`);

    // 1. Accept every order (no latency) so the terminal holds their bodies, as after a morning's scans.
    const loading = engineOn(sandbox, dir, 8);
    for (const id of ids) loading.engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' });
    const loaded = await loading.engine.drain({ untilEmpty: true, timeoutMs: 600_000 });
    if (loaded.remaining > 0 || loaded.failed > 0) throw new Error(`could not load the orders: ${JSON.stringify(loaded)}`);

    // 2. Queue the actions while nothing sends (the engine is not started), tap by tap across orders.
    await loading.close();
    const service = engineOn(sandbox, dir, concurrency);
    try {
      const plans = ids.map((id) => {
        const order = service.engine.getOrder(id)?.order;
        const store = order?.fulfillments.find((f) => f.type.toUpperCase() === 'STORE')?.fulfillmentId;
        const delivery = order?.fulfillments.find((f) => f.type.toUpperCase() === 'DELIVERY')?.fulfillmentId;
        if (!store) throw new Error(`order ${id} has no STORE fulfilment`);
        return [id, planFor(id, store, delivery)] as const;
      });
      let actions = 0;
      const steps: (readonly [string, ActionInput])[] = [];
      for (let step = 0; step < PER_ORDER; step++)
        for (const [id, plan] of plans) {
          const r = service.engine.submitTap(id, plan[step]!);
          if (!r.ok) throw new Error(`tap refused for ${id}: ${r.problem.message}`);
          steps.push([id, plan[step]!]);
          actions++;
        }
      log(`  queued ${actions} actions over ${orders} orders; draining with concurrency ${concurrency}...`);

      // 3. Time the drain with the latency switched on. Queuing kept the event loop busy for a while:
      // let it see the sockets the sandbox closed meanwhile, so the timed drain starts on fresh ones.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sandbox.setFaults({ latencyMs });
      const start = process.hrtime.bigint();
      const drained = await service.engine.drain({ untilEmpty: true, timeoutMs: 3_600_000 });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (drained.sent !== actions || drained.remaining > 0) throw new Error(`drain incomplete: ${JSON.stringify(drained)}`);
      if ((await sandbox.appliedCount()) !== actions + orders) throw new Error('the sandbox did not apply every action once');
      const boundMs = Math.max((actions * latencyMs) / concurrency, PER_ORDER * latencyMs);
      return { run: { concurrency, actions, ms, boundMs }, queued: { ids, steps } };
    } finally {
      await service.close();
    }
  } finally {
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the concurrent drain and (unless skipped) the one-at-a-time replay. */
export async function measureDrain(
  options: { orders?: number; latencyMs?: number; concurrency?: number; serial?: boolean; floor?: boolean; inline?: boolean; log?: (line: string) => void } = {},
): Promise<DrainFigures> {
  const orders = options.orders ?? 1000;
  const latencyMs = options.latencyMs ?? 20;
  const concurrency = options.concurrency ?? 4;
  const log = options.log ?? (() => undefined);
  log(`Concurrent drain (concurrency ${concurrency})`);
  const inline = options.inline ?? false;
  const { run: concurrent, queued } = await runOnce(orders, latencyMs, concurrency, inline, log);
  const { ids, steps } = queued;
  let floorMs: number | null = null;
  let timersMs: number | null = null;
  if (options.floor) {
    log("The sandbox's timers alone");
    timersMs = await measureTimers(steps.length, latencyMs, concurrency);
    log('The same requests from a bare client (the floor)');
    const box = inline ? await inlineBox(5, seededFor(orders)) : await processBox(5, seededFor(orders));
    try {
      floorMs = await measureFloor(box, credentials, ids, steps, latencyMs, concurrency);
      if ((await box.appliedCount()) !== steps.length + ids.length) throw new Error('the sandbox did not apply every request of the floor once');
    } finally {
      await box.close();
    }
  }
  let serial: DrainRun | null = null;
  if (options.serial !== false) {
    log('One-at-a-time replay of the same queue');
    serial = (await runOnce(orders, latencyMs, 1, inline, log)).run;
  }
  return { orders, latencyMs, concurrent, serial, floorMs, timersMs, sandbox: inline ? 'inline' : 'process' };
}

/** The figures as lines a person reads. */
export function formatDrain(f: DrainFigures): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const c = f.concurrent;
  const ratio = c.ms / c.boundMs;
  const lines = [
    `Drain of ${c.actions} actions over ${f.orders} orders, sandbox latency ${f.latencyMs} ms (sandbox ${f.sandbox === 'process' ? 'in its own process' : 'in this process'})`,
    `  concurrency ${c.concurrency}: ${s(c.ms)}  (${((c.actions * 1000) / c.ms).toFixed(0)} actions/s)`,
    `  bound max(actions x latency / concurrency, longest chain x latency) = ${s(c.boundMs)}`,
    `  ratio to bound: ${ratio.toFixed(3)}x (target <= 1.3x: ${ratio <= 1.3 ? 'within' : 'OVER'})`,
  ];
  if (f.timersMs !== null) lines.push(`  the sandbox's latency alone (its timers, no requests): ${s(f.timersMs)}, ${(f.timersMs / c.boundMs).toFixed(3)}x the bound`);
  if (f.floorMs !== null)
    lines.push(
      `  the same requests from a bare client (the floor): ${s(f.floorMs)}, ${(f.floorMs / c.boundMs).toFixed(3)}x the bound`,
      `  the engine over the floor: ${(c.ms / f.floorMs).toFixed(3)}x (${(((c.ms - f.floorMs) / c.actions) * c.concurrency).toFixed(2)} ms a request in each of ${c.concurrency} slots)`,
    );
  if (f.serial) {
    const speedup = f.serial.ms / c.ms;
    lines.push(
      `  one at a time (concurrency 1): ${s(f.serial.ms)} (its own bound ${s(f.serial.boundMs)}, ratio ${(f.serial.ms / f.serial.boundMs).toFixed(3)}x)`,
      `  speed-up over one at a time: ${speedup.toFixed(2)}x (target >= 3x: ${speedup >= 3 ? 'met' : 'NOT MET'})`,
    );
  }
  return lines.join('\n');
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

if (process.argv[1]?.endsWith('drain.ts')) {
  measureDrain({
    orders: flag('orders', 1000),
    latencyMs: flag('latency', 20),
    concurrency: flag('concurrency', 4),
    serial: !process.argv.includes('--skip-serial'),
    floor: process.argv.includes('--floor'),
    inline: process.argv.includes('inline'),
    log: (line) => console.log(line),
  })
    .then((figures) => console.log(formatDrain(figures)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
