/**
 * Tap-to-durable latency: how long `submitTap` takes from the call until the entry is committed
 * (validated against the projected order, written, fsync'd), next to the raw cost of one fsync'd
 * write of the same size on the same disk, which is the bound no durable tap can beat. The two are
 * measured interleaved, so both see the same disk.
 * Target (docs/decisions.md): over at least 5 runs, each on a fresh data file, the median of the
 * runs' p99 ratios (p99 tap / p99 bound, both from the same run) at most 1.6x, and no run above 2.0x.
 * One run's ratio follows its bound's p99, which moves from run to run on the same disk; the
 * median over runs is the figure, the worst run the guard.
 * A third series, interleaved with the other two, commits an outbox row alone (no order read, no
 * check) into a second data file: the floor of any tap that is written as a row of this schema,
 * so the room left for the check is plain.
 * A second series taps at a packer's pace (a pause longer than the engine's checkpoint delay before
 * each tap), where every tap follows a checkpoint; its taps are shared out over the runs.
 * Run: npx tsx bench/tap-durable.ts [--runs 5] [--taps 2000] [--spaced 100] [--dir /path/on/the/disk]
 * (--taps is per run, --spaced over all the runs; five runs of 2,000 take a few minutes)
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox } from '../sandbox';
import { MemoryVault } from '../src/main/core/auth';
import { openStore, type Store } from '../src/main/core/db';
import { openEngineWithService } from '../src/main/core/engine';
import type { ActionInput } from '../src/shared/protocol';
import { type Spread, spread } from './stats';

export interface TapDurableFigures {
  /** submitTap until committed, ms. */
  readonly tapMs: Spread;
  /** One write of as many bytes as a tap writes, then fsync, on the same disk, ms. */
  readonly fsyncMs: Spread;
  /** Bytes a tap writes (its WAL frames; the median over the warm-up taps): the bound writes as many. */
  readonly tapBytes: number;
  readonly taps: number;
  /** p99 tap / p99 fsync. */
  readonly ratioP99: number;
  /** An outbox row committed alone (no read, no check) in a data file of the same schema, ms. */
  readonly rowOnlyMs: Spread;
  /** This process's CPU time (user + system) per tap, ms: what the tap costs apart from waiting on the disk, steadier than wall time on a busy machine. */
  readonly tapCpuMs: Spread;
  readonly dir: string;
  /** The same for taps a pause apart (the engine folds its WAL back in between). */
  readonly spaced: { readonly samples: readonly number[]; readonly bound: readonly number[] } | null;
}

/** The median over the runs of p99 tap-to-durable over p99 of the bound. */
const TARGET_RATIO = 1.6;
/** No single run's ratio above this. */
const WORST_RATIO = 2.0;
/** Fewer runs make the median a guess. */
const MIN_RUNS = 5;
/** Longer than the engine's checkpoint delay (250 ms), as between a packer's taps. */
const SPACED_PAUSE_MS = 400;

const since = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/**
 * Bytes this process has handed to write() so far (Linux's /proc/self/io), or null where there is
 * no such file; read around a tap, it is the size of what the tap's commit wrote.
 */
function bytesWritten(): number | null {
  try {
    const m = /^wchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
/** Where write() sizes cannot be read: a tap's three pages (the row and two indexes) as WAL frames. */
const TAP_BYTES_FALLBACK = 3 * (4096 + 24);

/** The bound: one small write made durable with fsync, appended as a log would be. */
class FsyncProbe {
  private readonly fd: number;
  private block = Buffer.alloc(512, 7);
  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, 'w');
  }
  /** From now on each write is `bytes` long. */
  resize(bytes: number): void {
    this.block = Buffer.alloc(bytes, 7);
  }
  /** One fsync'd write, ms. */
  once(): number {
    const start = process.hrtime.bigint();
    fs.writeSync(this.fd, this.block);
    fs.fsyncSync(this.fd);
    return since(start);
  }
  close(): void {
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
  }
}

/** The floor: an outbox row committed alone, in a data file of its own with the same orders. */
function openFloor(dataDir: string, orderIds: readonly string[]): { once(orderId: string): number; close(): void } {
  const opened = openStore({ dataDir, now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store: Store = opened.value;
  store.transaction(() => {
    for (const id of orderIds) store.orders.ensure(id, Date.now());
  });
  let writes = 0;
  return {
    once(orderId) {
      const start = process.hrtime.bigint();
      store.transaction(() =>
        store.outbox.insert({
          randomId: randomUUID(),
          orderId,
          action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
          createdAt: Date.now(),
          sendAfter: Date.now(),
          terminalId: 'bench',
        }),
      );
      const ms = since(start);
      // Folded back now and then, as the engine does between taps.
      if (++writes % 64 === 0) store.checkpoint();
      return ms;
    },
    close: () => store.close(),
  };
}

/** The taps a packer makes on an accepted order, in order (five per order). */
function tapsFor(orderId: string, store: string, delivery: string | undefined): ActionInput[] {
  const taps: ActionInput[] = [
    { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' },
    { kind: 'invoice', sellerInvoiceId: `INV-${orderId}` },
    { kind: 'fulfilment', fulfilmentId: store, state: 'PACKED' },
  ];
  if (delivery)
    taps.push({ kind: 'fulfilment', fulfilmentId: delivery, state: 'OUT_FOR_DELIVERY' }, { kind: 'fulfilment', fulfilmentId: delivery, state: 'DELIVERED' });
  else taps.push({ kind: 'invoice', sellerInvoiceId: `INV-${orderId}-2` }, { kind: 'orderState', state: 'COMPLETED' });
  return taps;
}

/** Measures both on `dir` (default: the OS temp folder) with real orders from a sandbox. */
export async function measureTapDurable(options: { taps?: number; spaced?: number; dir?: string } = {}): Promise<TapDurableFigures> {
  const taps = options.taps ?? 2000;
  const spaced = options.spaced ?? 100;
  const base = fs.mkdtempSync(path.join(options.dir ?? os.tmpdir(), 'packdesk-bench-tap-'));
  const orderCount = Math.ceil((taps + spaced) / 5 / 0.7) + 20;
  const sandbox = await startSandbox({ seed: 3, orderCount: Math.min(10_000, orderCount) });
  const service = openEngineWithService({
    dataDir: path.join(base, 'data'),
    authUrl: sandbox.url,
    baseUrl: sandbox.url,
    vault: new MemoryVault({ credentials: { clientId: 'training', clientSecret: 'training-secret' } }),
    terminalId: 'bench',
    undoWindowMs: 0,
    concurrency: 8,
  });
  try {
    const { engine } = service;
    // Real order bodies first, as on a terminal: accept the orders and let the answers arrive.
    const ids = sandbox
      .orders()
      .filter((o) => o.orderState.toUpperCase() === 'CREATED')
      .map((o) => o.id)
      .slice(0, Math.ceil((taps + spaced) / 5));
    for (const id of ids) engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' });
    const loaded = await engine.drain({ untilEmpty: true, timeoutMs: 300_000 });
    if (loaded.remaining > 0 || loaded.failed > 0) throw new Error(`could not load the orders: ${JSON.stringify(loaded)}`);
    await engine.stop();

    // A fresh engine on the same file, not sending: only the tap path is measured. Default undo window.
    const reopened = openEngineWithService({
      dataDir: path.join(base, 'data'),
      authUrl: sandbox.url,
      baseUrl: sandbox.url,
      vault: new MemoryVault({ credentials: { clientId: 'training', clientSecret: 'training-secret' } }),
      terminalId: 'bench',
    });
    const plan: [string, ActionInput][] = [];
    for (let step = 0; step < 5; step++)
      for (const id of ids) {
        const order = reopened.engine.getOrder(id)?.order;
        const store = order?.fulfillments.find((f) => f.type.toUpperCase() === 'STORE')?.fulfillmentId;
        const delivery = order?.fulfillments.find((f) => f.type.toUpperCase() === 'DELIVERY')?.fulfillmentId;
        if (!store) continue;
        const tap = tapsFor(id, store, delivery)[step];
        if (tap) plan.push([id, tap]);
      }
    // Interleaved (tap, raw write, tap, ...): both see the same disk, whatever else the machine is doing.
    const probe = new FsyncProbe(path.join(base, 'fsync-bound.bin'));
    const floor = openFloor(path.join(base, 'floor'), ids);
    const rowOnly: number[] = [];
    const samples: number[] = [];
    const bound: number[] = [];
    const spacedBound: number[] = [];
    const spacedSamples: number[] = [];
    const cpu: number[] = [];
    // The first taps warm up the caches and the JIT; every series drops the same number. Their
    // sizes set the bound's write size for the rest.
    const warm = Math.min(50, Math.floor(taps / 10));
    const warmBytes: number[] = [];
    let tapBytes = TAP_BYTES_FALLBACK;
    const measure = (id: string, tap: ActionInput, into: number[], boundInto: number[]): void => {
      boundInto.push(probe.once());
      const sizing = into === samples && into.length < warm;
      const bytesBefore = sizing ? bytesWritten() : null;
      const cpuBefore = process.cpuUsage();
      const start = process.hrtime.bigint();
      const r = reopened.engine.submitTap(id, tap);
      const ms = since(start);
      const used = process.cpuUsage(cpuBefore);
      if (!r.ok) throw new Error(`tap refused: ${r.problem.message}`);
      const bytesAfter = bytesBefore === null ? null : bytesWritten();
      if (bytesBefore !== null && bytesAfter !== null) warmBytes.push(bytesAfter - bytesBefore);
      if (sizing && into.length + 1 === warm && warmBytes.length > 0) {
        tapBytes = Math.max(1, spread(warmBytes).median);
        probe.resize(tapBytes);
      }
      into.push(ms);
      if (into === samples) {
        cpu.push((used.user + used.system) / 1000);
        rowOnly.push(floor.once(id));
      }
    };
    const rest = plan.slice(0, taps + spaced);
    for (const [id, tap] of rest.slice(0, taps)) {
      // Taps come from a person: the event loop gets its turn between two of them, as in the app.
      await new Promise((resolve) => setImmediate(resolve));
      measure(id, tap, samples, bound);
    }
    // A packer's usual pace: each tap after a pause longer than the engine's checkpoint delay.
    for (const [id, tap] of rest.slice(taps)) {
      await new Promise((resolve) => setTimeout(resolve, SPACED_PAUSE_MS));
      measure(id, tap, spacedSamples, spacedBound);
    }
    probe.close();
    floor.close();
    await reopened.close();
    const fsync = spread(bound.slice(warm));
    const tap = spread(samples.slice(warm));
    const spacedFigures = spacedSamples.length > 0 ? { samples: spacedSamples, bound: spacedBound } : null;
    return {
      tapMs: tap,
      fsyncMs: fsync,
      tapBytes,
      taps: samples.length - warm,
      ratioP99: tap.p99 / fsync.p99,
      rowOnlyMs: spread(rowOnly.slice(warm)),
      tapCpuMs: spread(cpu.slice(warm)),
      dir: base,
      spaced: spacedFigures,
    };
  } finally {
    await service.close();
    await sandbox.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

/** The figures of several runs, each on a fresh data file, and what the target makes of them. */
export interface TapDurableRuns {
  readonly runs: readonly TapDurableFigures[];
  /** The figure: the median over the runs of each run's p99 tap / p99 bound. */
  readonly medianRatioP99: number;
  /** The guard: the highest run's ratio. */
  readonly worstRatioP99: number;
  /** The same median for the floor (an outbox row committed alone) over its run's bound. */
  readonly medianFloorRatioP99: number;
}

/** Runs `runs` measurements one after the other (the spaced taps shared out over them) and sums them up. */
export async function measureTapDurableRuns(
  options: { runs?: number; taps?: number; spaced?: number; dir?: string; onRun?: (f: TapDurableFigures, n: number) => void } = {},
): Promise<TapDurableRuns> {
  const count = options.runs ?? MIN_RUNS;
  const spacedPerRun = Math.ceil((options.spaced ?? 100) / count);
  const runs: TapDurableFigures[] = [];
  for (let n = 1; n <= count; n++) {
    const figures = await measureTapDurable({ taps: options.taps, spaced: spacedPerRun, dir: options.dir });
    runs.push(figures);
    options.onRun?.(figures, n);
  }
  return {
    runs,
    medianRatioP99: spread(runs.map((r) => r.ratioP99)).median,
    worstRatioP99: Math.max(...runs.map((r) => r.ratioP99)),
    medianFloorRatioP99: spread(runs.map((r) => r.rowOnlyMs.p99 / r.fsyncMs.p99)).median,
  };
}

const ms = (v: number) => `${v.toFixed(3)} ms`;

/** One run's figures as lines a person reads. */
export function formatTapDurable(f: TapDurableFigures, n?: number): string {
  const bound = `bound, one fsync'd ${f.tapBytes} B write:`;
  return [
    `Run${n === undefined ? '' : ` ${n}`}: ${f.taps} taps, validated against the projected order and committed with synchronous=FULL, in ${path.dirname(f.dir)}`,
    `  submitTap until committed: p50 ${ms(f.tapMs.median)}  p99 ${ms(f.tapMs.p99)}  max ${ms(f.tapMs.max)}`,
    `  ${bound} p50 ${ms(f.fsyncMs.median)}  p99 ${ms(f.fsyncMs.p99)}  max ${ms(f.fsyncMs.max)}`,
    `  floor, an outbox row committed alone: p50 ${ms(f.rowOnlyMs.median)}  p99 ${ms(f.rowOnlyMs.p99)}`,
    `  ratio p99/p99: tap ${f.ratioP99.toFixed(2)}x, floor ${(f.rowOnlyMs.p99 / f.fsyncMs.p99).toFixed(2)}x; p50/p50: tap ${(f.tapMs.median / f.fsyncMs.median).toFixed(2)}x`,
    `  CPU per tap (user + system): p50 ${ms(f.tapCpuMs.median)}  p99 ${ms(f.tapCpuMs.p99)}`,
  ].join('\n');
}

/** The runs summed up against the target, with the taps at a packer's pace pooled over the runs. */
export function formatTapDurableRuns(r: TapDurableRuns): string {
  const within = (ok: boolean) => (ok ? 'within' : 'OVER');
  const spacedTaps = r.runs.flatMap((f) => (f.spaced ? [f.spaced] : []));
  const lines = [
    `Tap-to-durable over ${r.runs.length} runs (each run's p99 tap over the same run's p99 bound):`,
    `  per run: ${r.runs.map((f) => `${f.ratioP99.toFixed(2)}x`).join(', ')}`,
    `  median ${r.medianRatioP99.toFixed(2)}x (target <= ${TARGET_RATIO}x: ${within(r.medianRatioP99 <= TARGET_RATIO)});` +
      ` worst run ${r.worstRatioP99.toFixed(2)}x (no run above ${WORST_RATIO.toFixed(1)}x: ${within(r.worstRatioP99 <= WORST_RATIO)})`,
    `  floor, an outbox row committed alone (no order read, no check): median ${r.medianFloorRatioP99.toFixed(2)}x;` +
      ` per run ${r.runs.map((f) => `${(f.rowOnlyMs.p99 / f.fsyncMs.p99).toFixed(2)}x`).join(', ')}`,
    `  tap p99 per run: ${r.runs.map((f) => ms(f.tapMs.p99)).join(', ')}; bound p99 per run: ${r.runs.map((f) => ms(f.fsyncMs.p99)).join(', ')}`,
  ];
  if (r.runs.length < MIN_RUNS) lines.push(`  (only ${r.runs.length} runs: the target asks for at least ${MIN_RUNS})`);
  if (spacedTaps.length > 0) {
    const tap = spread(spacedTaps.flatMap((s) => s.samples));
    const bound = spread(spacedTaps.flatMap((s) => s.bound));
    lines.push(
      `Taps ${SPACED_PAUSE_MS} ms apart (${tap.n} over the runs; the engine folds the WAL back between two of them):`,
      `  submitTap until committed: p50 ${ms(tap.median)}  p99 ${ms(tap.p99)}  max ${ms(tap.max)}`,
      `  bound:                     p50 ${ms(bound.median)}  p99 ${ms(bound.p99)}  max ${ms(bound.max)}`,
      `  ratio p99/p99: ${(tap.p99 / bound.p99).toFixed(2)}x; p50/p50: ${(tap.median / bound.median).toFixed(2)}x`,
    );
  }
  return lines.join('\n');
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1]?.endsWith('tap-durable.ts')) {
  const runs = Number(flag('runs') ?? MIN_RUNS);
  const taps = Number(flag('taps') ?? 2000);
  const spaced = Number(flag('spaced') ?? 100);
  measureTapDurableRuns({
    runs: Number.isInteger(runs) && runs > 0 ? runs : MIN_RUNS,
    taps: Number.isFinite(taps) && taps > 0 ? taps : 2000,
    spaced: Number.isInteger(spaced) && spaced >= 0 ? spaced : 100,
    dir: flag('dir'),
    onRun: (f, n) => console.log(formatTapDurable(f, n)),
  })
    .then((figures) => console.log(formatTapDurableRuns(figures)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
