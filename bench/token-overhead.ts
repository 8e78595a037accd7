/**
 * What the token manager costs per call, on this machine, against a real sandbox on 127.0.0.1:
 * 1. `authorization()` on a cached token (the price every update pays);
 * 2. whole update calls through the order service client with the token manager, against the same
 *    calls with a fixed header (no manager bookkeeping), interleaved so drift hits both alike.
 * Run: npx tsx bench/token-overhead.ts [--calls 2000] [--batches 300]
 */
import { randomUUID } from 'node:crypto';
import { startSandbox } from '../sandbox';
import { OrderServiceClient, type TokenSource } from '../src/main/core/api';
import { MemoryVault, TokenManager } from '../src/main/core/auth';
import { buildUpdateRequest } from '../src/shared/protocol';
import { ok } from '../src/shared/result';
import { type Spread, spread } from './stats';

export interface TokenOverheadFigures {
  /** authorization() on a cached token, microseconds per call. */
  readonly authorizationUs: Spread;
  /** One update call end to end, milliseconds, with the token manager. */
  readonly updateWithManagerMs: Spread;
  /** One update call end to end, milliseconds, with a fixed Authorization header. */
  readonly updateFixedHeaderMs: Spread;
  /** with / without, for the median and the p99. */
  readonly ratio: { readonly median: number; readonly p99: number };
  readonly calls: number;
}

const elapsedMs = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/** Runs both measurements against a fresh sandbox and returns the figures. */
export async function measureTokenOverhead(options: { calls?: number; batches?: number; batchSize?: number } = {}): Promise<TokenOverheadFigures> {
  const calls = options.calls ?? 2000;
  const batches = options.batches ?? 300;
  const batchSize = options.batchSize ?? 1000;
  const sandbox = await startSandbox({ seed: 11, orderCount: 40 });
  const tokens = new TokenManager({
    authUrl: sandbox.url,
    vault: new MemoryVault({ credentials: { clientId: 'training', clientSecret: 'training-secret' } }),
  });
  try {
    const first = await tokens.authorization();
    if (!first.ok) throw new Error(first.problem.message);

    // 1. authorization() on a cached token, timed per batch (a single call is below the timer's resolution).
    for (let i = 0; i < batchSize * 20; i++) await tokens.authorization(); // warm-up
    const perCallUs: number[] = [];
    for (let b = 0; b < batches; b++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < batchSize; i++) await tokens.authorization();
      perCallUs.push((elapsedMs(start) * 1000) / batchSize);
    }

    // 2. Update calls with and without the manager; same sandbox, same kind of request.
    const fixed: TokenSource = {
      authorization: async () => ok(first.value),
      rejected: async () => ok(first.value),
    };
    const withManager = new OrderServiceClient({ baseUrl: sandbox.url, tokens });
    const fixedHeader = new OrderServiceClient({ baseUrl: sandbox.url, tokens: fixed });
    const open = sandbox.orders().filter((o) => !['CANCELLED', 'COMPLETED'].includes(o.orderState.toUpperCase()));
    if (open.length === 0) throw new Error('the sandbox has no open order');
    let n = 0;
    const oneCall = async (client: OrderServiceClient): Promise<number> => {
      n += 1;
      const order = open[n % open.length];
      const request = buildUpdateRequest(order?.id ?? '', randomUUID(), [
        { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: `BENCH-${n}` } },
      ]);
      if (!request.ok) throw new Error(request.problem.message);
      const start = process.hrtime.bigint();
      const outcome = await client.update(request.value);
      const ms = elapsedMs(start);
      if (outcome.kind !== 'success') throw new Error(`bench update failed: ${outcome.kind}: ${'message' in outcome ? outcome.message : ''}`);
      return ms;
    };
    for (let i = 0; i < 200; i++) await oneCall(i % 2 === 0 ? withManager : fixedHeader); // warm-up
    const managed: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < calls; i++) {
      // Alternate which goes first so neither always meets a warmer connection.
      if (i % 2 === 0) {
        managed.push(await oneCall(withManager));
        plain.push(await oneCall(fixedHeader));
      } else {
        plain.push(await oneCall(fixedHeader));
        managed.push(await oneCall(withManager));
      }
    }
    const updateWithManagerMs = spread(managed);
    const updateFixedHeaderMs = spread(plain);
    return {
      authorizationUs: spread(perCallUs),
      updateWithManagerMs,
      updateFixedHeaderMs,
      ratio: {
        median: updateWithManagerMs.median / updateFixedHeaderMs.median,
        p99: updateWithManagerMs.p99 / updateFixedHeaderMs.p99,
      },
      calls,
    };
  } finally {
    await tokens.close();
    await sandbox.close();
  }
}

/** The figures as lines a person reads. */
export function formatTokenOverhead(f: TokenOverheadFigures): string {
  const us = (v: number) => `${v.toFixed(3)} µs`;
  const ms = (v: number) => `${v.toFixed(3)} ms`;
  return [
    'Token manager overhead',
    `  authorization() on a cached token: median ${us(f.authorizationUs.median)}/call (${(f.authorizationUs.median * 1000).toFixed(0)} ns), p99 ${us(f.authorizationUs.p99)}/call`,
    `  update call end to end, ${f.calls} calls each, one at a time, sandbox on 127.0.0.1:`,
    `    with the token manager:  median ${ms(f.updateWithManagerMs.median)}, p99 ${ms(f.updateWithManagerMs.p99)}`,
    `    fixed header, no manager: median ${ms(f.updateFixedHeaderMs.median)}, p99 ${ms(f.updateFixedHeaderMs.p99)}`,
    `    ratio with/without:       median ${f.ratio.median.toFixed(3)}, p99 ${f.ratio.p99.toFixed(3)}`,
  ].join('\n');
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

if (process.argv[1]?.endsWith('token-overhead.ts')) {
  measureTokenOverhead({ calls: flag('calls', 2000), batches: flag('batches', 300) })
    .then((figures) => console.log(formatTokenOverhead(figures)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
