/**
 * The store hub's claims and shared taps, module to module through a real nats-server on 127.0.0.1
 * (Debian's 2.9.10), each counter its own client connection, as the counters of a store are:
 *   - claim round trip: `claim()` of an order nobody holds (a read, then a `create`), until held;
 *     bound p99 <= 50 ms;
 *   - tap seen: `publish()` of a tap on counter 1 until counter 2's shared taps announce it;
 *     bounds p95 <= 250 ms, p99 <= 500 ms.
 * Each run starts a fresh server; samples are paced (a pause between them), as packers tap, not a
 * burst. Figures per run, then the median and worst of the runs' p99s against the bounds.
 * Run: npx tsx bench/hub.ts [--runs 5] [--samples 400] [--pause 5]
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { openClaims } from '../src/main/core/hub/claims';
import { openSharedTaps } from '../src/main/core/hub/shared-taps';
import type { SharedTap } from '../src/shared/hub';
import { startTestNats } from '../test/support/nats';
import { type Spread, spread } from './stats';

const CLAIM_P99_MS = 50;
const TAP_P95_MS = 250;
const TAP_P99_MS = 500;
const MIN_RUNS = 5;

export interface HubRun {
  readonly claimMs: Spread;
  readonly tapSeenMs: Spread;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One run: a fresh hub, two counters, `samples` claims and `samples` taps. */
export async function measureHubRun(samples: number, pauseMs: number): Promise<HubRun> {
  const server = await startTestNats();
  const connections: NatsConnection[] = [];
  try {
    const counter = async (n: number) => {
      const nc = await connect({ servers: server.url, maxReconnectAttempts: -1 });
      connections.push(nc);
      return { id: `c${n}`, name: `Counter ${n}`, nc };
    };
    const [one, two] = [await counter(1), await counter(2)];
    const claims1 = await openClaims(one.nc, { counter: { counterId: one.id, counterName: one.name }, now: Date.now });
    const claims2 = await openClaims(two.nc, { counter: { counterId: two.id, counterName: two.name }, now: Date.now });
    const taps1 = await openSharedTaps(one.nc, { counter: { counterId: one.id }, ownTaps: () => [], now: Date.now });
    const taps2 = await openSharedTaps(two.nc, { counter: { counterId: two.id }, ownTaps: () => [], now: Date.now });
    const waiting = new Map<string, () => void>();
    taps2.on((e) => waiting.get(e.tap.requestId)?.());

    const claimMs: number[] = [];
    const tapSeenMs: number[] = [];
    for (let i = 0; i < samples; i++) {
      const orderId = `B-${i}`;
      const started = performance.now();
      const outcome = await claims1.claim(orderId);
      claimMs.push(performance.now() - started);
      if (outcome.kind !== 'held') throw new Error(`claim ${orderId}: ${outcome.kind}`);

      const tap: SharedTap = {
        requestId: `r-${i}`,
        orderId,
        counterId: one.id,
        counterName: one.name,
        action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F1', fulfillmentState: 'PACKED' },
        summary: 'Mark PACKED',
        state: 'waiting',
        queuedAt: Date.now(),
        sentAt: null,
      };
      const seen = new Promise<void>((resolve) => waiting.set(tap.requestId, resolve));
      const publishedAt = performance.now();
      await Promise.all([taps1.publish(tap), seen]);
      tapSeenMs.push(performance.now() - publishedAt);
      waiting.delete(tap.requestId);
      await pause(pauseMs);
    }
    for (const closable of [claims1, claims2, taps1, taps2]) closable.close();
    return { claimMs: spread(claimMs), tapSeenMs: spread(tapSeenMs) };
  } finally {
    for (const nc of connections) await nc.close();
    await server.stop();
  }
}

const ms = (v: number): string => `${v.toFixed(2)} ms`;

function formatRun(r: HubRun, n: number): string {
  return [
    `Run ${n}:`,
    `  claim round trip (${r.claimMs.n}): p50 ${ms(r.claimMs.median)}  p95 ${ms(r.claimMs.p95)}  p99 ${ms(r.claimMs.p99)}  max ${ms(r.claimMs.max)}` +
      `  (p99 ${(r.claimMs.p99 / CLAIM_P99_MS).toFixed(3)}x the ${CLAIM_P99_MS} ms bound)`,
    `  tap on counter 1 seen on counter 2 (${r.tapSeenMs.n}): p50 ${ms(r.tapSeenMs.median)}  p95 ${ms(r.tapSeenMs.p95)}  p99 ${ms(r.tapSeenMs.p99)}  max ${ms(r.tapSeenMs.max)}` +
      `  (p95 ${(r.tapSeenMs.p95 / TAP_P95_MS).toFixed(3)}x, p99 ${(r.tapSeenMs.p99 / TAP_P99_MS).toFixed(3)}x the bounds)`,
  ].join('\n');
}

function formatRuns(runs: readonly HubRun[]): string {
  const within = (ok: boolean): string => (ok ? 'within' : 'OVER');
  const of = (pick: (r: HubRun) => number): { median: number; worst: number } => {
    const s = spread(runs.map(pick));
    return { median: s.median, worst: s.max };
  };
  const claimP99 = of((r) => r.claimMs.p99);
  const tapP95 = of((r) => r.tapSeenMs.p95);
  const tapP99 = of((r) => r.tapSeenMs.p99);
  const lines = [
    `Over ${runs.length} runs:`,
    `  claim round trip p99: median ${ms(claimP99.median)} (${(claimP99.median / CLAIM_P99_MS).toFixed(3)}x), worst ${ms(claimP99.worst)} (${(claimP99.worst / CLAIM_P99_MS).toFixed(3)}x); bound ${CLAIM_P99_MS} ms: ${within(claimP99.worst <= CLAIM_P99_MS)}`,
    `  tap seen p95: median ${ms(tapP95.median)} (${(tapP95.median / TAP_P95_MS).toFixed(3)}x), worst ${ms(tapP95.worst)}; bound ${TAP_P95_MS} ms: ${within(tapP95.worst <= TAP_P95_MS)}`,
    `  tap seen p99: median ${ms(tapP99.median)} (${(tapP99.median / TAP_P99_MS).toFixed(3)}x), worst ${ms(tapP99.worst)}; bound ${TAP_P99_MS} ms: ${within(tapP99.worst <= TAP_P99_MS)}`,
  ];
  if (runs.length < MIN_RUNS) lines.push(`  (only ${runs.length} runs: the target asks for at least ${MIN_RUNS})`);
  return lines.join('\n');
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1]?.endsWith('hub.ts')) {
  const runs = Math.max(1, Number(flag('runs') ?? MIN_RUNS) || MIN_RUNS);
  const samples = Math.max(1, Number(flag('samples') ?? 400) || 400);
  const pauseMs = Math.max(0, Number(flag('pause') ?? 5) || 0);
  (async () => {
    console.log(`Store hub, module to module on 127.0.0.1: ${runs} runs of ${samples} claims and ${samples} taps, ${pauseMs} ms apart`);
    const all: HubRun[] = [];
    for (let n = 1; n <= runs; n++) {
      const run = await measureHubRun(samples, pauseMs);
      all.push(run);
      console.log(formatRun(run, n));
    }
    console.log(formatRuns(all));
  })().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
