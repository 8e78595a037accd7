/**
 * Order intake:
 *  1. Catch-up: 1,000 orders placed while the terminal was offline, then the network comes back;
 *     the time for one pass to have them all on the terminal (every page of `changes`, a `status`
 *     per order, each stored), next to the bound 1,000 status calls x latency / concurrency, at
 *     20 ms sandbox latency. Target: within 1.5x. Several runs: median and p99.
 *  2. Idle cost: requests an idle terminal makes to the order service per hour, on a simulated
 *     hour (the clock and timers are driven; the requests are real HTTP). Target: no more than the
 *     poll calls plus one probe per interval.
 * The sandbox runs in this process (its request counters are read directly).
 * Run: npx tsx bench/intake.ts [--orders 1000] [--latency 20] [--concurrency 4] [--runs 3]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Sandbox, startSandbox, TRAINING_SERVICE_PROVIDER_ID } from '../sandbox';
import { OrderServiceClient } from '../src/main/core/api';
import { MemoryVault, TokenManager } from '../src/main/core/auth';
import { openStore } from '../src/main/core/db';
import { createIntake, type Intake, storeForIntake } from '../src/main/core/intake';
import { silentLogger } from '../src/main/core/log';
import { systemTimers as nodeTimers, type Timers } from '../src/main/core/time';
import { spread } from './stats';

const credentials = { clientId: 'training', clientSecret: 'training-secret' };

interface Rig {
  readonly sandbox: Sandbox;
  readonly intake: Intake;
  close(): Promise<void>;
}

async function rig(options: { concurrency: number; timers?: Timers; now?: () => number; intervalMs?: number }): Promise<Rig> {
  const sandbox = await startSandbox({ orderCount: 5, arrivalEveryMs: 0, changesMinIntervalMs: 0, changesMaxPageSize: 100 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-bench-intake-'));
  const tokens = new TokenManager({ authUrl: sandbox.url, vault: new MemoryVault({ credentials }), logger: silentLogger, proactive: false });
  const client = new OrderServiceClient({ baseUrl: sandbox.url, tokens, logger: silentLogger });
  const opened = openStore({ dataDir: dir, now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  const intake = createIntake({
    reader: client,
    store: storeForIntake(store),
    serviceProviderId: () => TRAINING_SERVICE_PROVIDER_ID,
    settingsKey: () => sandbox.url,
    now: options.now ?? Date.now,
    random: Math.random,
    timers: options.timers ?? nodeTimers,
    newRequestId: randomUUID,
    intervalMs: () => options.intervalMs ?? 30_000,
    concurrency: options.concurrency,
    outboxSending: () => 0,
    log: silentLogger,
    onStored: () => undefined,
    onStatus: () => undefined,
    onReachable: () => undefined,
  });
  return {
    sandbox,
    intake,
    async close() {
      await intake.stop();
      await tokens.close();
      store.close();
      await sandbox.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One catch-up run: ms for the pass that brings `orders` orders placed while offline. */
async function catchUp(orders: number, latencyMs: number, concurrency: number): Promise<number> {
  const r = await rig({ concurrency });
  try {
    const first = await r.intake.passOnce();
    if (first.kind !== 'completed') throw new Error(`the first pass did not complete: ${first.kind}`);
    r.sandbox.faults.set({ outage: 'refuse' });
    for (let i = 0; i < orders; i++) r.sandbox.placeOrder();
    const offline = await r.intake.passOnce();
    if (offline.kind !== 'unreachable') throw new Error(`expected the offline pass to be unreachable, got ${offline.kind}`);
    r.sandbox.faults.set({ outage: 'none' });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the port listens again
    r.sandbox.faults.set({ latencyMs });
    const started = performance.now();
    const back = await r.intake.passOnce();
    const ms = performance.now() - started;
    if (back.kind !== 'completed' || back.counts.new !== orders) throw new Error(`catch-up pass: ${JSON.stringify(back)}`);
    return ms;
  } finally {
    await r.close();
  }
}

/** Requests to the order service in one simulated idle hour. */
async function idleHour(intervalMs: number): Promise<{ requests: number; polls: number; probes: number; status: number }> {
  let clock = Date.now();
  const pending: { at: number; fn: () => void; id: number }[] = [];
  let ids = 0;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = ++ids;
      pending.push({ at: clock + Math.max(0, ms), fn, id });
      return id;
    },
    clearTimeout: (handle) => {
      const i = pending.findIndex((p) => p.id === handle);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  const r = await rig({ concurrency: 4, timers, now: () => clock, intervalMs });
  try {
    const end = clock + 3_600_000;
    r.intake.start();
    for (;;) {
      pending.sort((a, b) => a.at - b.at);
      const next = pending.shift();
      if (!next || next.at > end) break;
      clock = next.at;
      const before = ids;
      next.fn();
      // The pass runs over real HTTP; it is done when it has armed the next timer.
      while (ids === before) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const s = r.sandbox.stats();
    return { requests: s.changesRequests + s.statusRequests + s.probeRequests, polls: s.changesRequests, probes: s.probeRequests, status: s.statusRequests };
  } finally {
    await r.close();
  }
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

async function main(): Promise<void> {
  const orders = flag('orders', 1000);
  const latencyMs = process.argv.includes("--no-latency") ? 0 : flag("latency", 20);
  const concurrency = flag('concurrency', 4);
  const runs = flag('runs', 3);
  const boundMs = (orders * latencyMs) / concurrency;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await catchUp(orders, latencyMs, concurrency));
  const s = spread(samples);
  console.log(`Catch-up of ${orders} orders placed while offline, sandbox latency ${latencyMs} ms, status concurrency ${concurrency}, ${runs} runs`);
  console.log(`  median ${(s.median / 1000).toFixed(2)} s, p99 ${(s.p99 / 1000).toFixed(2)} s`);
  console.log(`  bound ${orders} status calls x ${latencyMs} ms / ${concurrency} = ${(boundMs / 1000).toFixed(2)} s`);
  console.log(`  ratio to bound: median ${(s.median / boundMs).toFixed(3)}x, p99 ${(s.p99 / boundMs).toFixed(3)}x (target <= 1.5x: ${s.p99 / boundMs <= 1.5 ? 'within' : 'OVER'})`);

  const intervalMs = 30_000;
  const idle = await idleHour(intervalMs);
  const allowed = 2 * (3_600_000 / intervalMs);
  console.log(`Idle terminal, one simulated hour, poll interval ${intervalMs / 1000} s`);
  console.log(`  ${idle.requests} requests (${idle.polls} changes polls, ${idle.status} status, ${idle.probes} probes)`);
  console.log(`  allowed: polls + one probe per interval = ${allowed}; ratio ${(idle.requests / allowed).toFixed(3)}x (target <= 1x: ${idle.requests <= allowed ? 'within' : 'OVER'})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
