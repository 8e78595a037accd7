/**
 * `packdesk fleet` (npm run fleet -- ...): the chain's support tool over the central NATS system.
 * It reads what store hubs send north; it never taps an order. See docs/fleet.md.
 *
 *   fleet status [--json]            stores and counters, problems first
 *   fleet stores add <store id>... [--through-accounts]   source these stores' north streams into the fleet stream
 *                                    (--through-accounts: each store has an account of its own at the centre, docs/fleet.md)
 *   fleet serve [--port N] [--host H] the fleet page on http://127.0.0.1:N/ (serve.ts)
 * Options: --server URL (or PACKDESK_FLEET_SERVER), --creds FILE, --ca FILE.
 * On a store's hub PC (Settings -> Chain does the same on the screens, and keeps the file itself):
 *   fleet link --data-dir DIR --store-id ID --url tls://host:7422 --creds FILE [--ca FILE] [--training]
 *   fleet unlink --data-dir DIR
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { configuredListen, configuredPasswordHash, hubFiles, writeHubConfig } from '../main/core/hub/server/hub-files';
import { ensureFleetStream, readFleet } from './central';
import { type ChainLink, ChainLinkSchema, writeChainLink } from '../main/core/hub/chain/link';
import { runToExit } from '../main/core/entry/exit-guard';
import { formatFleet } from './format';
import { DEFAULT_HOST, exposedWarning, type FleetServer, startFleetServer } from './serve';
import { fleetStatus } from './status';

export interface FleetIo {
  readonly env: NodeJS.ProcessEnv;
  write(text: string): void;
  writeError(text: string): void;
  readonly now: () => number;
  /** `fleet serve` runs until this settles (the process's Ctrl+C or SIGTERM when absent). */
  readonly stopped?: Promise<void>;
}

const USAGE = `Usage: fleet status [--json] | fleet stores add <store id>... [--through-accounts] | fleet serve [--port N] [--host H]
Options: --server URL (or PACKDESK_FLEET_SERVER)  --creds FILE  --ca FILE
On a store's hub PC: fleet link --data-dir DIR --store-id ID --url tls://host:7422 --creds FILE [--ca FILE] [--training]
                     fleet unlink --data-dir DIR
`;
const VALUE_FLAGS = new Set(['--server', '--creds', '--ca', '--data-dir', '--store-id', '--url', '--port', '--host']);
/** The fleet page's port unless --port says otherwise. */
const DEFAULT_PORT = 8740;

interface Parsed {
  readonly words: string[];
  readonly flags: Map<string, string | true>;
}

function parse(argv: readonly string[]): Parsed | string {
  const words: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i]!;
    if (a === '--json' || a === '--help' || a === '--training' || a === '--through-accounts') flags.set(a.slice(2), true);
    else if (VALUE_FLAGS.has(a)) {
      const value = argv[i + 1];
      if (!value) return `${a} needs a value`;
      flags.set(a.slice(2), value);
      i += 1;
    } else if (a.startsWith('--')) return `unknown option ${a}`;
    else words.push(a);
  }
  return { words, flags };
}

async function connectCentral(flags: Parsed['flags'], env: NodeJS.ProcessEnv, keepTrying = false): Promise<NatsConnection> {
  const server = (flags.get('server') as string | undefined) ?? env.PACKDESK_FLEET_SERVER;
  if (!server) throw new Error('Say which central server to read: --server nats://host:4222 (or PACKDESK_FLEET_SERVER)');
  const creds = flags.get('creds') as string | undefined;
  const ca = flags.get('ca') as string | undefined;
  return connect({
    servers: server,
    timeout: 5_000,
    // The page's server outlives a centre restart; a one-off command does not wait for one.
    maxReconnectAttempts: keepTrying ? -1 : 0,
    ...(creds ? { authenticator: credsAuthenticator(readFileSync(creds)) } : {}),
    ...(ca ? { tls: { ca: readFileSync(ca, 'utf8') } } : {}),
  });
}

/** Runs one fleet command; returns the exit code (0 fine, 1 failed, 2 usage). */
export async function runFleet(argv: readonly string[], io: FleetIo): Promise<number> {
  const parsed = parse(argv);
  if (typeof parsed === 'string') {
    io.writeError(`fleet: ${parsed}\n${USAGE}`);
    return 2;
  }
  const [command, sub, ...rest] = parsed.words;
  if (parsed.flags.has('help') || !command) {
    io.write(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'link' || command === 'unlink') return linkStore(command, parsed.flags, io);
  if (command === 'serve') return serve(parsed.flags, io);
  const known = command === 'status' || (command === 'stores' && sub === 'add' && rest.length > 0);
  if (!known) {
    io.writeError(`fleet: unknown command ${parsed.words.join(' ')}\n${USAGE}`);
    return 2;
  }
  let nc: NatsConnection | null = null;
  try {
    nc = await connectCentral(parsed.flags, io.env);
    if (command === 'stores') {
      const stores = await ensureFleetStream(nc, rest, parsed.flags.has('through-accounts'));
      io.write(`The fleet sources ${stores.length} store${stores.length === 1 ? '' : 's'}: ${stores.join(', ')}\n`);
      return 0;
    }
    const status = fleetStatus(await readFleet(nc), io.now());
    io.write(parsed.flags.has('json') ? `${JSON.stringify(status, null, 2)}\n` : formatFleet(status));
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.writeError(`fleet: ${/stream not found/i.test(message) ? 'no fleet stream on this server yet: add stores with `fleet stores add <store id>`' : message}\n`);
    return 1;
  } finally {
    await nc?.close();
  }
}

/** Serves the fleet page until the process is stopped (Ctrl+C); `io.stopped` lets a caller stop it. */
async function serve(flags: Parsed['flags'], io: FleetIo): Promise<number> {
  const portText = flags.get('port');
  const port = portText === undefined ? DEFAULT_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    io.writeError('fleet: --port must be a whole number from 0 to 65535\n');
    return 2;
  }
  // This PC only, unless --host says otherwise: the page has no login of its own.
  const host = typeof flags.get('host') === 'string' ? (flags.get('host') as string) : DEFAULT_HOST;
  let nc: NatsConnection | null = null;
  let server: FleetServer | null = null;
  try {
    nc = await connectCentral(flags, io.env, true);
    server = await startFleetServer({ nc, host, port });
    const warning = exposedWarning(host, server.port);
    if (warning) io.writeError(warning);
    io.write(`The fleet page: ${server.url} (Ctrl+C stops it)\n`);
    await (io.stopped ?? stopSignal());
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.writeError(`fleet: ${/EADDRINUSE/.test(message) ? `port ${port} is taken on ${host}: choose another with --port` : message}\n`);
    return 1;
  } finally {
    await server?.close();
    await nc?.close();
  }
}

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** Saves (or removes) a store hub's chain link and rewrites its nats.conf; the hub takes it when Packdesk next starts it. */
function linkStore(command: 'link' | 'unlink', flags: Parsed['flags'], io: FleetIo): number {
  const dataDir = flags.get('data-dir');
  const files = typeof dataDir === 'string' ? hubFiles(dataDir) : null;
  const listen = files ? configuredListen(files) : null;
  const hash = files ? configuredPasswordHash(files) : null;
  if (!files || !listen || !hash) {
    io.writeError('fleet: this is not a store hub: --data-dir must be the data folder of the PC that is the store hub\n');
    return 1;
  }
  let link: ChainLink | null = null;
  if (command === 'link') {
    const parsed = ChainLinkSchema.safeParse({
      storeId: flags.get('store-id'),
      url: flags.get('url'),
      credentialsPath: typeof flags.get('creds') === 'string' ? flags.get('creds') : null,
      caPath: typeof flags.get('ca') === 'string' ? flags.get('ca') : null,
      training: flags.get('training') === true,
    });
    if (!parsed.success) {
      io.writeError(`fleet: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'link'}: ${i.message}`).join('; ')}\n`);
      return 2;
    }
    link = parsed.data;
  }
  writeChainLink(files.dir, link);
  writeHubConfig(files, listen, hash, link);
  io.write(link ? `This store hub joins the chain as ${link.storeId} at ${link.url} when Packdesk next starts it.\n` : 'This store hub leaves the chain when Packdesk next starts it.\n');
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runToExit({ name: 'fleet' }, () => runFleet(process.argv.slice(2), { env: process.env, write: (t) => process.stdout.write(t), writeError: (t) => process.stderr.write(t), now: Date.now }));
}
