/** Command-line flags of the sandbox CLI, parsed with zod at the boundary. */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { describeZodError } from '../src/shared/protocol/schemas';
import type { SandboxOptions } from './types';

export const USAGE = `Usage: npm run sandbox -- [options]

Runs a local token server and order service (and its admin API) on 127.0.0.1.

Options:
  --port N              service port (token + order service); 0 = any free port (default 0)
  --admin-port N        admin API port; 0 = any free port (default 0)
  --seed N              seed for the orders (default 1)
  --orders N            number of seeded orders (default 40)
  --client-id ID        accepted client id (default training)
  --client-secret S     accepted client secret (default training-secret)
  --token-ttl SECONDS   access token lifetime (default 3600)
  --expired-status N    status for an expired token: 401 or 412 (default 401)
  --latency MS          delay added before each token and update answer (default 0)
  --arrival-every MS    a new order arrives every MS milliseconds; 0 = none (default 180000)
  --changes-max-page N  largest changes page (default 100)
  --changes-min-interval MS
                        a new changes poll sooner than this gets 429 + Retry-After (default 5000)
  --help                show this text
`;

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const FlagsSchema = z.strictObject({
  port: int(0, 65_535).optional(),
  'admin-port': int(0, 65_535).optional(),
  seed: int(-2_147_483_648, 4_294_967_295).optional(),
  orders: int(1, 100_000).optional(),
  'client-id': z.string().min(1).optional(),
  'client-secret': z.string().min(1).optional(),
  'token-ttl': int(1, 30 * 86_400).optional(),
  'expired-status': z.enum(['401', '412']).optional(),
  latency: int(0, 600_000).optional(),
  'arrival-every': int(0, 86_400_000).optional(),
  'changes-min-interval': int(0, 3_600_000).optional(),
  'changes-max-page': int(1, 10_000).optional(),
  help: z.boolean().optional(),
});

const stringFlag = { type: 'string' } as const;

/** Parses argv into sandbox options, or says what is wrong. */
export function parseFlags(argv: readonly string[]): { ok: true; help: boolean; options: SandboxOptions; latencyMs: number } | { ok: false; message: string } {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: stringFlag,
        'admin-port': stringFlag,
        seed: stringFlag,
        orders: stringFlag,
        'client-id': stringFlag,
        'client-secret': stringFlag,
        'token-ttl': stringFlag,
        'expired-status': stringFlag,
        latency: stringFlag,
        'arrival-every': stringFlag,
        'changes-min-interval': stringFlag,
        'changes-max-page': stringFlag,
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const flags = FlagsSchema.safeParse(values);
  if (!flags.success) return { ok: false, message: describeZodError(flags.error) };
  const f = flags.data;
  const options: SandboxOptions = {};
  if (f.port !== undefined) options.port = f.port;
  if (f['admin-port'] !== undefined) options.adminPort = f['admin-port'];
  if (f.seed !== undefined) options.seed = f.seed;
  if (f.orders !== undefined) options.orderCount = f.orders;
  if (f['client-id'] !== undefined) options.clientId = f['client-id'];
  if (f['client-secret'] !== undefined) options.clientSecret = f['client-secret'];
  if (f['token-ttl'] !== undefined) options.tokenTtlSeconds = f['token-ttl'];
  if (f['expired-status'] !== undefined) options.expiredStatus = f['expired-status'] === '412' ? 412 : 401;
  if (f['arrival-every'] !== undefined) options.arrivalEveryMs = f['arrival-every'];
  if (f['changes-max-page'] !== undefined) options.changesMaxPageSize = f['changes-max-page'];
  if (f['changes-min-interval'] !== undefined) options.changesMinIntervalMs = f['changes-min-interval'];
  return { ok: true, help: f.help === true, options, latencyMs: f.latency ?? 0 };
}
