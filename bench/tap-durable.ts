/**
 * Tap-to-durable latency: how long `submitTap` takes from the call until the entry is committed
 * (validated against the projected order, written, fsync'd), next to the raw cost of one fsync'd
 * write on the same disk, which is the bound no durable tap can beat. The two are measured
 * interleaved, so both see the same disk.
 * Target: p99 tap-to-durable within 1.5x the fsync bound's p99.
 * A third series, interleaved with the other two, commits an outbox row alone (no order read, no
 * check) into a second data file: the floor of any tap that is written as a row of this schema,
 * so the room left for the check is plain.
 * A second series taps at a packer's pace (a pause longer than the engine's checkpoint delay before
 * each tap), where every tap follows a checkpoint.
 * Run: npx tsx bench/tap-durable.ts [--taps 2000] [--spaced 100] [--dir /path/on/the/disk]
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
  /** write(512 bytes) + fsync on the same disk, ms. */
  readonly fsyncMs: Spread;
  readonly taps: number;
  /** p99 tap / p99 fsync. */
  readonly ratioP99: number;
  /** An outbox row committed alone (no read, no check) in a data file of the same schema, ms. */
  readonly rowOnlyMs: Spread;
  /** This process's CPU time (user + system) per tap, ms: what the tap costs apart from waiting on the disk, steadier than wall time on a busy machine. */
  readonly tapCpuMs: Spread;
  readonly dir: string;
  /** The same for taps a pause apart (the engine folds its WAL back in between). */
  readonly spaced: { readonly tapMs: Spread; readonly fsyncMs: Spread; readonly ratioP99: number } | null;
}

/** p99 tap-to-durable over p99 of the bound. */
const TARGET_RATIO = 1.5;
/** Longer than the engine's checkpoint delay (250 ms), as between a packer's taps. */
const SPACED_PAUSE_MS = 400;

const since = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/** The bound: one small write made durable with fsync, appended as a log would be. */
class FsyncProbe {
  private readonly fd: number;
  private readonly block = Buffer.alloc(512, 7);
  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, 'w');
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
    const measure = (id: string, tap: ActionInput, into: number[], boundInto: number[]): void => {
      boundInto.push(probe.once());
      const cpuBefore = process.cpuUsage();
      const start = process.hrtime.bigint();
      const r = reopened.engine.submitTap(id, tap);
      const ms = since(start);
      const used = process.cpuUsage(cpuBefore);
      if (!r.ok) throw new Error(`tap refused: ${r.problem.message}`);
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
    // The first taps warm up the caches and the JIT; both series drop the same number.
    const warm = Math.min(50, Math.floor(samples.length / 10));
    const fsync = spread(bound.slice(warm));
    const tap = spread(samples.slice(warm));
    const spacedFigures =
      spacedSamples.length > 0
        ? { tapMs: spread(spacedSamples), fsyncMs: spread(spacedBound), ratioP99: spread(spacedSamples).p99 / spread(spacedBound).p99 }
        : null;
    return {
      tapMs: tap,
      fsyncMs: fsync,
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

/** The figures as lines a person reads. */
export function formatTapDurable(f: TapDurableFigures): string {
  const ms = (v: number) => `${v.toFixed(3)} ms`;
  const verdict = f.ratioP99 <= TARGET_RATIO ? 'within' : 'OVER';
  return [
    `Tap-to-durable (${f.taps} taps, validated against the projected order and committed with synchronous=FULL, in ${path.dirname(f.dir)})`,
    `  submitTap until committed:      p50 ${ms(f.tapMs.median)}  p99 ${ms(f.tapMs.p99)}  max ${ms(f.tapMs.max)}`,
    `  bound, one fsync'd 512 B write: p50 ${ms(f.fsyncMs.median)}  p99 ${ms(f.fsyncMs.p99)}  max ${ms(f.fsyncMs.max)}`,
    `  ratio p99/p99: ${f.ratioP99.toFixed(2)}x (target <= ${TARGET_RATIO}x: ${verdict}); p50/p50: ${(f.tapMs.median / f.fsyncMs.median).toFixed(2)}x`,
    `  CPU per tap (user + system):    p50 ${ms(f.tapCpuMs.median)}  p99 ${ms(f.tapCpuMs.p99)}`,
    `  floor, an outbox row committed alone (no order read, no check): p50 ${ms(f.rowOnlyMs.median)}  p99 ${ms(f.rowOnlyMs.p99)};` +
      ` ${(f.rowOnlyMs.p99 / f.fsyncMs.p99).toFixed(2)}x the bound at p99, so the check has ${Math.max(0, TARGET_RATIO * f.fsyncMs.p99 - f.rowOnlyMs.p99).toFixed(3)} ms of the target left`,
    ...(f.spaced
      ? [
          `Taps ${SPACED_PAUSE_MS} ms apart (${f.spaced.tapMs.n}; the engine folds the WAL back between two of them):`,
          `  submitTap until committed:      p50 ${ms(f.spaced.tapMs.median)}  p99 ${ms(f.spaced.tapMs.p99)}  max ${ms(f.spaced.tapMs.max)}`,
          `  bound, one fsync'd 512 B write: p50 ${ms(f.spaced.fsyncMs.median)}  p99 ${ms(f.spaced.fsyncMs.p99)}  max ${ms(f.spaced.fsyncMs.max)}`,
          `  ratio p99/p99: ${f.spaced.ratioP99.toFixed(2)}x (target <= ${TARGET_RATIO}x: ${f.spaced.ratioP99 <= TARGET_RATIO ? 'within' : 'OVER'}); p50/p50: ${(f.spaced.tapMs.median / f.spaced.fsyncMs.median).toFixed(2)}x`,
        ]
      : []),
  ].join('\n');
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1]?.endsWith('tap-durable.ts')) {
  const taps = Number(flag('taps') ?? 2000);
  const spaced = Number(flag('spaced') ?? 100);
  measureTapDurable({ taps: Number.isFinite(taps) && taps > 0 ? taps : 2000, spaced: Number.isInteger(spaced) && spaced >= 0 ? spaced : 100, dir: flag('dir') })
    .then((figures) => console.log(formatTapDurable(figures)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
