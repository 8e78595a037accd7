/**
 * Sandbox throughput: 8 concurrent clients send valid update requests (invoice updates with fresh
 * requestIds, so every one is applied) for a bounded time and count; prints requests per second
 * and p50/p99 latency. Run: `npx tsx bench/sandbox-throughput.ts [--seconds 3] [--max 20000]`.
 *
 * Two rows: the sandbox in this process (clients and server share one event loop, as in the
 * integration tests) and the sandbox as a separate process via its CLI (as training mode runs it).
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startSandbox, TOKEN_PATH, UPDATE_PATH } from '../sandbox';
import { quantile } from './stats';

const Flags = z.object({
  seconds: z.coerce.number().positive().max(60).default(3),
  max: z.coerce.number().int().positive().max(1_000_000).default(20_000),
  concurrency: z.coerce.number().int().min(1).max(64).default(8),
  mode: z.enum(['both', 'in-process', 'child']).default('both'),
});
type BenchOptions = z.infer<typeof Flags>;

export interface ThroughputRow {
  mode: string;
  requests: number;
  failures: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Target {
  url: string;
  adminUrl: string;
  stop(): Promise<void>;
}

interface HttpResult {
  status: number;
  body: string;
}

/** One HTTP request over a keep-alive agent (less client overhead than fetch, so the figures are the server's). */
function call(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: string): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function inProcess(): Promise<Target> {
  const s = await startSandbox();
  return { url: s.url, adminUrl: s.adminUrl, stop: () => s.close() };
}

async function childProcess(): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0'], {
    cwd: new URL('..', `file://${__dirname}/`).pathname,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  if (!child.stdout) throw new Error('the sandbox CLI has no stdout');
  const lines: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    lines.push(line);
    if (lines.length === 2) break;
  }
  const url = /^listening on (\S+)$/.exec(lines[0] ?? '')?.[1];
  const adminUrl = /^admin on (\S+)$/.exec(lines[1] ?? '')?.[1];
  if (!url || !adminUrl) {
    child.kill('SIGKILL');
    throw new Error(`the sandbox CLI did not say where it listens: ${JSON.stringify(lines)}`);
  }
  return {
    url,
    adminUrl,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs one measurement against a started sandbox. */
async function measure(mode: string, target: Target, options: BenchOptions): Promise<ThroughputRow> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  try {
    const tokenAnswer = await call(
      agent,
      `${target.url}${TOKEN_PATH}`,
      'POST',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ grant_type: 'client_credentials', client_id: 'training', client_secret: 'training-secret' }).toString(),
    );
    const token = z.object({ access_token: z.string() }).parse(JSON.parse(tokenAnswer.body)).access_token;
    const orders = z
      .array(z.looseObject({ id: z.string(), orderState: z.string() }))
      .parse(JSON.parse((await call(agent, `${target.adminUrl}/__sandbox/orders`, 'GET', {})).body))
      .filter((o) => o.orderState !== 'Cancelled')
      .map((o) => o.id);
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `O-Bearer ${token}` };
    let sequence = 0;
    const send = async (tag: string): Promise<{ ok: boolean; ms: number }> => {
      const n = sequence++;
      const orderId = orders[n % orders.length] ?? '';
      const body = JSON.stringify({
        requestContext: { requestId: `bench-${mode}-${tag}-${n}`, transactionId: orderId, actionType: 'UPDATE' },
        orderId,
        actions: [{ type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: `INV-${mode}-${n}` } }],
      });
      const started = performance.now();
      const answer = await call(agent, `${target.url}${UPDATE_PATH}`, 'POST', headers, body);
      return { ok: answer.status === 200, ms: performance.now() - started };
    };

    // Warm up the JIT and the keep-alive sockets before measuring.
    await Promise.all(Array.from({ length: options.concurrency }, async () => {
      for (let i = 0; i < 50; i++) await send('warm');
    }));

    const latencies: number[] = [];
    let failures = 0;
    let issued = 0;
    const started = performance.now();
    const deadline = started + options.seconds * 1000;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (issued < options.max && performance.now() < deadline) {
          issued += 1;
          const r = await send('run');
          latencies.push(r.ms);
          if (!r.ok) failures += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      mode,
      requests: latencies.length,
      failures,
      seconds,
      perSecond: latencies.length / seconds,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      maxMs: latencies.at(-1) ?? Number.NaN,
    };
  } finally {
    agent.destroy();
  }
}

/** Measures the sandbox's throughput in the modes asked for. */
export async function benchSandboxThroughput(options: BenchOptions): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  const modes = options.mode === 'both' ? (['in-process', 'child'] as const) : [options.mode];
  for (const mode of modes) {
    const target = mode === 'in-process' ? await inProcess() : await childProcess();
    try {
      rows.push(await measure(mode, target, options));
    } finally {
      await target.stop();
    }
  }
  return rows;
}

/** A plain-text table of the rows. */
export function formatThroughput(rows: readonly ThroughputRow[], concurrency: number): string {
  const header = ['sandbox', 'clients', 'requests', 'failed', 'seconds', 'req/s', 'p50 ms', 'p99 ms', 'max ms'];
  const body = rows.map((r) => [
    r.mode,
    String(concurrency),
    String(r.requests),
    String(r.failures),
    r.seconds.toFixed(2),
    r.perSecond.toFixed(0),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    r.maxMs.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string' }, max: { type: 'string' }, concurrency: { type: 'string' }, mode: { type: 'string' } },
  });
  const options = Flags.parse(values);
  // Other work on the machine moves these figures a lot; say how busy it was.
  const loadBefore = loadavg()[0] ?? 0;
  const rows = await benchSandboxThroughput(options);
  console.log(`Sandbox order service throughput (valid invoice updates, each applied; up to ${options.seconds} s or ${options.max} requests per row)`);
  console.log(formatThroughput(rows, options.concurrency));
  console.log(`machine: ${cpus().length} cores, Node ${process.version}, 1-minute load average ${loadBefore.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
