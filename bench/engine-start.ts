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
 * The data file's size is printed with them.
 *
 * Then history in bounds (two years, or --years; 0: none): `--rows` taps a year written day by day into a
 * data file of their own, on orders that arrive with their bodies, finish and leave the terminal, and
 * after each day the pruning of the audit (as the app starts each morning), the walk for finished
 * orders and the pruning of history (settled taps, the rows of orders that left: 180 days) run as
 * the engine runs them, a step at a time, and the pages that freed are given back to the disk
 * (outbox/retire.ts reclaimSpace, as the engine runs it after each pruning run).
 * The data file's size after the first year and after the second and their ratio: the second
 * must be no larger. Also the time of each step, which a tap may wait behind.
 * --legacy starts the history from a file made before auto-vacuum: the first night switches it.
 * Run: npx tsx bench/engine-start.ts [--runs 15] [--orders 5000] [--rows 10000] [--years 2] [--legacy]
 * (--rows 900000: a year of history at a busy store)
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { startSandbox } from '../sandbox';
import { openStore, type Store } from '../src/main/core/db';
import { FINISHED_KEEP_MS, HISTORY_KEEP_MS, mergeFinder, pruneHistory, reclaimSpace, type RetireCursor, retireFinished } from '../src/main/core/outbox';
import { mustMove } from '../src/main/core/outbox/lifecycle';
import { buildAction, type ActionInput, type Order } from '../src/shared/protocol';
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

function flag(name: string, fallback: number, least = 1): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isInteger(v) && v >= least ? v : fallback;
}

/**
 * The child bundled with Vite, as electron-vite bundles the app's main process (tree-shaken: zod's
 * unused locales stay out, as they do in out/main), native modules left outside.
 */
export async function bundleChild(outDir: string, entry = 'engine-start-child', extraExternal: readonly string[] = []): Promise<string> {
  const { build } = await import('vite');
  const external = ['better-sqlite3', 'keytar', 'electron', ...extraExternal];
  await build({
    configFile: false,
    logLevel: 'silent',
    root: path.join(__dirname, '..'),
    ssr: { noExternal: true, external },
    build: {
      ssr: path.join(__dirname, `${entry}.ts`),
      outDir,
      emptyOutDir: false,
      minify: false,
      target: 'node20',
      rollupOptions: { external, output: { format: 'cjs', entryFileNames: `${entry}.cjs` } },
    },
  });
  return path.join(outDir, `${entry}.cjs`);
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

const DAY = 24 * 60 * 60 * 1000;
const YEAR = 365 * DAY;
/** Taps a packer makes on one order (accept, packing, invoice, packed, complete; written here as invoices, rows of a like size). */
const TAPS_PER_ORDER = 5;
/** Orders written per transaction while simulating history. */
const ORDERS_PER_COMMIT = 500;

export interface HistoryFigures {
  readonly tapsPerYear: number;
  /** The data file after each simulated year: size and free pages, bytes. */
  readonly years: readonly FileFigures[];
  /** Each step of pruning (taps and orders' rows), ms. */
  readonly pruneStepMs: Spread;
  /** The audit's pruning, once a day as the sender starts, ms. */
  readonly auditPruneMs: Spread;
  /** Each step of the walk for finished orders, ms. */
  readonly retireStepMs: Spread;
  /** Each step of merging the order finder's index after pruning (the last of a run found nothing to merge), ms. */
  readonly mergeStepMs: Spread;
  /** Each step of giving free pages back to the disk, ms (null: none had pages to give). */
  readonly reclaimStepMs: Spread | null;
  /** The one-time switch to incremental auto-vacuum, ms (a file made before it: --legacy). */
  readonly switchMs: readonly number[];
}

/**
 * Writes `years` of history day by day (see the file's comment) and prunes after each day as the
 * engine does; the data file's size after each year.
 */
export function simulateHistory(dataDir: string, template: Order, tapsPerYear: number, years: number, options: { readonly legacyFile?: boolean } = {}): HistoryFigures {
  // A file made before auto-vacuum, as a terminal updated to this version has: the first run of
  // giving pages back switches it (one VACUUM, timed), as the engine does at a quiet moment.
  if (options.legacyFile) legacyFile(dataDir);
  const opened = openStore({ dataDir, now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  const start = Date.now() - years * YEAR;
  const ordersPerDay = Math.ceil(tapsPerYear / 365 / TAPS_PER_ORDER);
  const pruneSteps: number[] = [];
  const auditPrunes: number[] = [];
  const retireSteps: number[] = [];
  const reclaimSteps: number[] = [];
  const mergeSteps: number[] = [];
  const switches: number[] = [];
  const sizes: FileFigures[] = [];
  const startedAt = Date.now();
  const timed = <T>(into: number[], fn: () => T): T => {
    const t = process.hrtime.bigint();
    const r = fn();
    into.push(Number(process.hrtime.bigint() - t) / 1e6);
    return r;
  };
  try {
    for (let day = 0; day < years * 365; day++) {
      const dayStart = start + day * DAY;
      for (let first = 0; first < ordersPerDay; first += ORDERS_PER_COMMIT) {
        store.transaction(() => {
          for (let k = first; k < Math.min(ordersPerDay, first + ORDERS_PER_COMMIT); k++) {
            // A store's hours: orders from 9:00 to 21:00.
            const at = dayStart + 9 * 60 * 60 * 1000 + Math.floor((k * 12 * 60 * 60 * 1000) / ordersPerDay);
            // Numbered as the marketplace (and the sandbox) numbers them, in the order they arrive.
            const id = `ORD-${10_000_000 + day * ordersPerDay + k}`;
            store.orders.saveBody({ ...template, id, orderState: 'Completed' }, at);
            for (let n = 0; n < TAPS_PER_ORDER; n++) {
              const tapAt = at + n * 60_000;
              const built = buildAction({ kind: 'invoice', sellerInvoiceId: `INV-${id}-${n}` });
              if (!built.ok) throw new Error(built.problem.message);
              // No audit line for the tap itself: the engine writes none (its outbox row is its record,
              // outbox.ts enqueue); the line comes with the attempt, as below.
              const entry = store.outbox.insert({ randomId: randomUUID(), orderId: id, action: built.value, createdAt: tapAt, sendAfter: tapAt, terminalId: 'bench' });
              const sending = mustMove(store.outbox, entry, 'claim', tapAt + 300);
              mustMove(store.outbox, sending, 'deliver', tapAt + 300, { addAttempt: true, sentNow: true, nextAttemptAt: null });
              store.audit.add({ time: tapAt + 300, terminal: 'bench', kind: 'attempt', entryId: entry.id, orderId: id, outcome: 'sent', message: null });
            }
          }
        });
        store.checkpoint();
      }
      // The day's end, as the engine would have done it meanwhile: the audit pruned as the sender
      // starts, the walk for finished orders, history past 180 days, then the pages that freed given
      // back to the disk, each a step at a time and each through the engine's own functions.
      const now = dayStart + DAY;
      timed(auditPrunes, () => store.audit.prune(now - HISTORY_KEEP_MS));
      let after: RetireCursor | null = null;
      do after = timed(retireSteps, () => retireFinished(store, { now, keepMs: FINISHED_KEEP_MS, after })).next;
      while (after !== null);
      store.emptyWal();
      while (timed(pruneSteps, () => pruneHistory(store, { now, keepMs: HISTORY_KEEP_MS, terminal: 'bench' })).more);
      while (timed(mergeSteps, () => mergeFinder(store)));
      // The night is quiet: no tap for hours, so a file made before auto-vacuum is switched now.
      for (;;) {
        const t = process.hrtime.bigint();
        const step = reclaimSpace(store, { quiet: true });
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (step.kind === 'switched') switches.push(ms);
        else if (step.kind === 'given-back' && step.pages > 0) reclaimSteps.push(ms);
        if (step.kind !== 'given-back' || !step.more) break;
      }
      store.emptyWal();
      if ((day + 1) % 365 === 0) sizes.push(measureFile(store));
      // A line a simulated quarter, so a long run shows it moves.
      if ((day + 1) % 91 === 0) process.stderr.write(`  (day ${day + 1} of ${years * 365}, ${((Date.now() - startedAt) / 60_000).toFixed(1)} min)\n`);
    }
  } finally {
    store.close();
  }
  return {
    tapsPerYear: ordersPerDay * 365 * TAPS_PER_ORDER,
    years: sizes,
    pruneStepMs: spread(pruneSteps),
    auditPruneMs: spread(auditPrunes),
    retireStepMs: spread(retireSteps),
    mergeStepMs: spread(mergeSteps),
    reclaimStepMs: reclaimSteps.length > 0 ? spread(reclaimSteps) : null,
    switchMs: switches,
  };
}

/** The main file's size (the WAL emptied first), its free pages, and the pages of each table and index. */
interface FileFigures {
  readonly bytes: number;
  readonly freeBytes: number;
  /** Pages in the file. */
  readonly pageCount: number;
  /** Pages per table or index (SQLite's dbstat). */
  readonly pages: Readonly<Record<string, number>>;
  /** The largest rowid and the rows of each history table. */
  readonly rowids: Readonly<Record<HistoryTable, { readonly max: number; readonly rows: number }>>;
}

const HISTORY_TABLES = ['audit', 'outbox', 'orders'] as const;
type HistoryTable = (typeof HISTORY_TABLES)[number];

/** Bytes SQLite's varint takes for a rowid of `n` (7 bits a byte up to 8 bytes). */
function varintBytes(n: number): number {
  let bytes = 1;
  for (let v = n; v >= 128 && bytes < 9; v = Math.floor(v / 128)) bytes++;
  return bytes;
}

function measureFile(store: Store): FileFigures {
  const db = new Database(store.file, { readonly: true });
  try {
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const free = Number(db.pragma('freelist_count', { simple: true }));
    const rows = db.prepare('SELECT name, COUNT(*) AS pages FROM dbstat GROUP BY name').all() as { name: string; pages: number }[];
    const rowids = Object.fromEntries(
      HISTORY_TABLES.map((t) => [t, db.prepare(`SELECT COALESCE(MAX(rowid), 0) AS max, COUNT(*) AS rows FROM ${t}`).get() as { max: number; rows: number }]),
    ) as FileFigures['rowids'];
    return { bytes: fs.statSync(store.file).size, freeBytes: free * pageSize, pageCount: Number(db.pragma('page_count', { simple: true })), pages: Object.fromEntries(rows.map((r) => [r.name, r.pages])), rowids };
  } finally {
    db.close();
  }
}

/** Makes an empty data file in `dataDir` as Packdesk made them before auto-vacuum (auto_vacuum = NONE, set before any table). */
function legacyFile(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'packdesk.sqlite'));
  try {
    db.pragma('auto_vacuum = NONE');
    db.exec('CREATE TABLE vacuum_mode (x); DROP TABLE vacuum_mode;');
  } finally {
    db.close();
  }
}

/** The history figures as lines a person reads. */
export function formatHistory(h: HistoryFigures): string {
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  const ms = (s: Spread) => `median ${s.median.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  max ${s.max.toFixed(1)} ms (${s.n})`;
  const [first, ...later] = h.years;
  const lines = [
    `History over ${h.years.length} simulated years, ${h.tapsPerYear} taps a year (${h.tapsPerYear / TAPS_PER_ORDER} orders, ${h.tapsPerYear} audit lines: one a sent tap, as the engine writes them), pruned after each day as the engine prunes:`,
    ...h.years.map((y, i) => `  data file after year ${i + 1}: ${y.bytes} bytes, ${mb(y.bytes)} (of which free pages ${mb(y.freeBytes)})`),
  ];
  if (first) {
    const names = Object.keys(first.pages).sort();
    lines.push(`  pages per table and index, year by year: ${names.map((n) => `${n} ${h.years.map((y) => y.pages[n] ?? 0).join('/')}`).join(', ')}`);
  }
  for (const [i, y] of later.entries()) {
    const grew = y.bytes - (first?.bytes ?? 0);
    lines.push(
      `  year ${i + 2} vs year 1: ratio ${(y.bytes / (first?.bytes ?? 1)).toFixed(4)} (bound 1.0000), ${grew >= 0 ? '+' : ''}${grew} bytes (no larger: ${grew <= 0 ? 'within' : 'OVER'})`,
    );
    // The shift's figures of each day (figures_by_month, core/shift) are kept for good by design, a
    // day's worth a day: said apart, with the file's size without them, which is what pruning keeps in bounds.
    // (A row a day with an index of its key beside it before migration 14; a row a month since.)
    const byDesign = (f: FileFigures) => (f.pages.figures_by_month ?? 0) + (f.pages.daily_figures ?? 0) + (f.pages.sqlite_autoindex_daily_figures_1 ?? 0);
    if (first) {
      const pageSize = first.bytes / first.pageCount;
      const without = (f: FileFigures) => f.bytes - byDesign(f) * pageSize;
      const kept = (byDesign(y) - byDesign(first)) * pageSize;
      lines.push(
        `    of which the per-day figures kept by design: +${kept} bytes this year; without them ${without(first)} -> ${without(y)} bytes, ratio ${(without(y) / without(first)).toFixed(4)} (no larger: ${without(y) <= without(first) ? 'within' : 'OVER'})`,
      );
    }
    // Row ids only grow: past 2^21 (and 2^28, ...) each row's id takes a byte more in its b-tree
    // cell. Said apart, since it happens once in decades, not every year.
    for (const t of HISTORY_TABLES) {
      const was = first ? varintBytes(first.rowids[t].max) : 0;
      const now = varintBytes(y.rowids[t].max);
      if (now > was)
        lines.push(
          `    ${t}: row ids now up to ${y.rowids[t].max}, ${now} bytes each where they were ${was} (next at ${2 ** (7 * now)}): about ${y.rowids[t].rows * (now - was)} bytes more for its ${y.rowids[t].rows} rows`,
        );
    }
  }
  // When the row ids, growing at this run's rate, next take a byte more: a one-time step in size
  // that no pruning can undo (the outbox's ids are never reused, since a request id carries one).
  const last = h.years[h.years.length - 1];
  if (first && last && h.years.length > 1) {
    const steps = HISTORY_TABLES.map((t) => {
      const perYear = (last.rowids[t].max - first.rowids[t].max) / (h.years.length - 1);
      const next = 2 ** (7 * varintBytes(last.rowids[t].max));
      return perYear > 0 ? `${t} in year ${(h.years.length + (next - last.rowids[t].max) / perYear).toFixed(1)} (ids past ${next})` : null;
    }).filter((s): s is string => s !== null);
    lines.push(`  at this rate, row ids next take a byte more: ${steps.join(', ')}`);
  }
  lines.push(`  a pruning step (taps, orders' rows): ${ms(h.pruneStepMs)}`);
  lines.push(`  the audit's pruning (once a day here): ${ms(h.auditPruneMs)}`);
  lines.push(`  a step of the walk for finished orders: ${ms(h.retireStepMs)}`);
  lines.push(`  a step of merging the order finder's index: ${ms(h.mergeStepMs)}`);
  lines.push(`  a step of giving free pages back: ${h.reclaimStepMs ? ms(h.reclaimStepMs) : 'none had pages to give'}`);
  if (h.switchMs.length > 0) lines.push(`  the one-time switch to incremental auto-vacuum (VACUUM): ${h.switchMs.map((v) => `${v.toFixed(0)} ms`).join(', ')}`);
  return lines.join('\n');
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
  // --years 0: the engine's start only.
  const years = flag('years', 2, 0);
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
    if (years > 0) {
      const template = sandbox.order(orders[0]!.id);
      if (!template) throw new Error('the sandbox has no order to copy');
      // On a RAM disk where there is one: the figures are the file's size and the CPU of each step,
      // and two years of a busy store's fsyncs on the shared disk took most of an hour.
      const ramDisk = fs.existsSync('/dev/shm') ? fs.mkdtempSync(path.join('/dev/shm', 'packdesk-bench-history-')) : null;
      const historyDir = path.join(ramDisk ?? base, 'history');
      try {
        console.log(`(history written to ${historyDir}${ramDisk ? ', a RAM disk: no disk waits in the step times' : ''})`);
        console.log(formatHistory(simulateHistory(historyDir, template, rows, years, { legacyFile: process.argv.includes('--legacy') })));
      } finally {
        if (ramDisk) fs.rmSync(ramDisk, { recursive: true, force: true });
      }
    }
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
