/**
 * Engine start: how long a terminal that was killed (power cut, crash, kill -9) takes from
 * starting again to accepting the packer's first tap, on a data file that has been in use a while:
 * 5,000 orders with their bodies and 10,000 outbox rows (mostly sent, some queued and failed, each
 * with its audit lines). The engine runs in a process of its own, bundled by Vite as the app is; each run taps once, reports and is killed with SIGKILL, so the next run opens the file as a
 * crash left it (WAL and all). Figures, each from the child's own clock:
 *   - engine start to first tap accepted (module loading, open: migrations (the page check runs
 *     beside the engine on a worker thread, as in the app: openingCheck 'later'),
 *     prepared statements; start: sender lock, recovery, audit pruning, sync start; the tap):
 *     bound 150 ms (p95);
 *   - the CPU time the process used over that span: on a shared machine the wall time also holds
 *     the waits for a core, and the CPU time shows what the engine itself costs;
 *   - Node's own boot before our first line, for reference (outside the engine).
 * Run: npx tsx bench/engine-start.ts [--runs 15] [--orders 5000] [--rows 10000] (--rows 900000: a year of history)
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { startSandbox } from '../sandbox';
import { openStore } from '../src/main/core/db';
import { mustMove } from '../src/main/core/outbox/lifecycle';
import { buildAction, type ActionInput } from '../src/shared/protocol';
import { type Spread, spread } from './stats';

const BOUND_MS = 150;
/** The newest rows, among which some taps still wait or were refused; older ones were all sent. */
const RECENT_ROWS = 10_000;
const NODE_MODULES = path.join(__dirname, '..', 'node_modules');

const StepsSchema = z.object({
  entryAt: z.number(),
  loadedAt: z.number(),
  openedAt: z.number(),
  startedAt: z.number(),
  tappedAt: z.number(),
  loadedCpu: z.number(),
  openedCpu: z.number(),
  startedCpu: z.number(),
  tappedCpu: z.number(),
});
type Steps = z.infer<typeof StepsSchema>;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

/**
 * The child bundled with Vite, as electron-vite bundles the app's main process (tree-shaken: zod's
 * unused locales stay out, as they do in out/main), native modules left outside.
 */
export async function bundleChild(outDir: string): Promise<string> {
  const { build } = await import('vite');
  const external = ['better-sqlite3', 'keytar', 'electron'];
  await build({
    configFile: false,
    logLevel: 'silent',
    root: path.join(__dirname, '..'),
    ssr: { noExternal: true, external },
    build: {
      ssr: path.join(__dirname, 'engine-start-child.ts'),
      outDir,
      emptyOutDir: false,
      minify: false,
      target: 'node20',
      rollupOptions: { external, output: { format: 'cjs', entryFileNames: 'engine-start-child.cjs' } },
    },
  });
  return path.join(outDir, 'engine-start-child.cjs');
}

/**
 * Writes the data file: every order with the body the service would have answered, and `rows`
 * outbox entries over them with a tap and an attempt audit line each: the newest 10,000 are 97%
 * sent, 2% queued and 1% failed, everything older is sent (a store's history: `--rows 900000` is
 * about a year at a busy store).
 */
export function buildDataFile(dataDir: string, orders: readonly { id: string }[], bodies: (id: string) => unknown, rows: number): void {
  const opened = openStore({ dataDir, now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  const t0 = Date.now() - 3 * 24 * 60 * 60 * 1000;
  try {
    store.transaction(() => {
      orders.forEach((o, i) => {
        store.orders.ensure(o.id, t0 + i);
        store.orders.saveBody(bodies(o.id) as never, t0 + i);
      });
      for (let n = 0; n < rows; n++) {
        const order = orders[n % orders.length]!;
        const input: ActionInput = { kind: 'invoice', sellerInvoiceId: `INV-${n}` };
        const built = buildAction(input);
        if (!built.ok) throw new Error(built.problem.message);
        const at = t0 + n * 20;
        const entry = store.outbox.insert({ randomId: randomUUID(), orderId: order.id, action: built.value, createdAt: at, sendAfter: at, terminalId: 'bench' });
        store.audit.add({ time: at, terminal: 'bench', kind: 'tap', entryId: entry.id, orderId: order.id, outcome: 'queued', message: `Invoice INV-${n}` });
        const kind = n < rows - RECENT_ROWS ? 0 : n % 100;
        if (kind < 97) {
          const sending = mustMove(store.outbox, entry, 'claim', at + 300);
          mustMove(store.outbox, sending, 'deliver', at + 300, { addAttempt: true, sentNow: true, nextAttemptAt: null });
          store.audit.add({ time: at + 300, terminal: 'bench', kind: 'attempt', entryId: entry.id, orderId: order.id, outcome: 'sent', message: null });
        } else if (kind === 99) {
          const sending = mustMove(store.outbox, entry, 'claim', at + 300);
          mustMove(store.outbox, sending, 'refuse', at + 300, {
            addAttempt: true,
            nextAttemptAt: null,
            lastError: { kind: 'permanent', message: 'refused by the service', code: 'REFUSED' },
            mayBeApplied: false,
          });
          store.audit.add({ time: at + 300, terminal: 'bench', kind: 'attempt', entryId: entry.id, orderId: order.id, outcome: 'failed', message: 'refused' });
        }
      }
    });
    store.checkpoint();
  } finally {
    store.close();
  }
}

/** Starts the child, waits for its figures, kills it with SIGKILL. */
function runOnce(child: string, dataDir: string, url: string, orderId: string): Promise<Steps> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, dataDir, url, orderId], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The bundle sits in a temp folder; its native modules come from the checkout.
      env: { ...process.env, NODE_PATH: NODE_MODULES },
    });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const lines = createInterface({ input: proc.stdout });
    let result: Steps | null = null;
    lines.once('line', (line) => {
      try {
        result = StepsSchema.parse(JSON.parse(line));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
      proc.kill('SIGKILL');
    });
    proc.once('exit', () => {
      if (result) resolve(result);
      else reject(new Error(`the engine process ended without figures: ${stderr.trim()}`));
    });
  });
}

function line(title: string, s: Spread, bound: number | null): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const head = `  ${title}: median ${ms(s.median)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  max ${ms(s.max)}`;
  if (bound === null) return head;
  const verdict = s.p95 <= bound ? 'within' : 'OVER';
  return `${head}\n    vs bound ${ms(bound)}: median ${(s.median / bound).toFixed(2)}x  p95 ${(s.p95 / bound).toFixed(2)}x (${verdict})  p99 ${(s.p99 / bound).toFixed(2)}x`;
}

async function main(): Promise<void> {
  const runs = flag('runs', 15);
  const orderCount = flag('orders', 5000);
  const rows = flag('rows', 10_000);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'packdesk-bench-start-'));
  const sandbox = await startSandbox({ seed: 5, orderCount });
  try {
    const orders = sandbox.orders();
    const dataDir = path.join(base, 'data');
    buildDataFile(dataDir, orders, (id) => sandbox.order(id), rows);
    const fresh = orders.filter((o) => o.orderState.toUpperCase() === 'CREATED').map((o) => o.id);
    if (fresh.length < runs + 1) throw new Error(`only ${fresh.length} new orders to tap; use more --orders`);
    const child = await bundleChild(base);
    // One run to warm the disk cache and the bundle's compile cache, as a machine that ran the app before.
    await runOnce(child, dataDir, sandbox.url, fresh[0]!);
    const samples: Steps[] = [];
    for (let i = 1; i <= runs; i++) samples.push(await runOnce(child, dataDir, sandbox.url, fresh[i]!));
    const part = (f: (s: Steps) => number) => spread(samples.map(f));
    const sizeMb = fs.statSync(path.join(dataDir, 'packdesk.sqlite')).size / 1e6;
    console.log(`Engine start after a kill, ${orderCount} orders and ${rows} outbox rows (${sizeMb.toFixed(1)} MB data file), ${runs} restarts`);
    console.log(line('engine start to first tap accepted', part((s) => s.tappedAt - s.entryAt), BOUND_MS));
    // Each step in wall time, then in CPU time: on a shared machine the wall time also holds the
    // waits for a core; the CPU time is what the step costs on a machine of its own.
    const steps: [string, (s: Steps) => number, (s: Steps) => number][] = [
      ['loading the engine modules', (s) => s.loadedAt - s.entryAt, (s) => s.loadedCpu],
      ['opening (data file, migrations, statements; pages checked beside)', (s) => s.openedAt - s.loadedAt, (s) => s.openedCpu - s.loadedCpu],
      ['starting (lock, recovery, audit pruning, sync)', (s) => s.startedAt - s.openedAt, (s) => s.startedCpu - s.openedCpu],
      ['the first tap (validated, committed)', (s) => s.tappedAt - s.startedAt, (s) => s.tappedCpu - s.startedCpu],
    ];
    for (const [title, wall, cpu] of steps) {
      const w = part(wall);
      const c = part(cpu);
      console.log(`    ${title}: wall median ${w.median.toFixed(1)} / p95 ${w.p95.toFixed(1)} ms; CPU median ${c.median.toFixed(1)} / p95 ${c.p95.toFixed(1)} ms`);
    }
    console.log(line('CPU time over the whole span', part((s) => s.tappedCpu), null));
    console.log(line('for reference, Node booting before our first line', part((s) => s.entryAt), null));
  } finally {
    await sandbox.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('engine-start.ts')) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
