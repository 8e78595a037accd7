/**
 * `fleet serve`: the fleet page for the chain's support team, over HTTP on 127.0.0.1. The page
 * (page/) polls three JSON endpoints: the status (as `fleet status --json`), the charts' series
 * (folded from the centre's fleet stream, a day back at start, then live) and a store's drill-down
 * (its counters and its open orders read live through its domain: ids, steps and claims only).
 * The server only reads the centre; nothing here can reach an order. See docs/fleet.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { readFleet, readFleetSources, SOURCE_HEADER } from './central';
import { believe, storeOfSource } from './belief';
import { type DrillReading, readOpenOrders } from './drill';
import { type FleetSeries, FleetHistory, HISTORY_KEEP_MS } from './history';
import { FLEET_STREAM, StoreIdSchema } from '../main/core/hub/chain/north';
import { type FleetStatus, fleetStatus, type StoreRow } from './status';

/** The address the page listens on unless told otherwise: this PC only. */
export const DEFAULT_HOST = '127.0.0.1';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
/** A status read is shared by requests within this long (several tabs, one read of the centre). */
const STATUS_FRESH_MS = 2_000;
/** When the fleet stream is not there yet (no store added), look again this often. */
const HISTORY_RETRY_MS = 10_000;

/** What the drill-down endpoint answers. */
export interface StoreDrill {
  readonly storeId: string;
  /** The store's row of the status (its counters), null when the centre has nothing of it. */
  readonly store: StoreRow | null;
  readonly open: DrillReading;
  readonly at: number;
}

/** Why listening beyond this PC needs saying: the page has no login of its own. Null on loopback. */
export function exposedWarning(host: string, port: number): string | null {
  if (LOOPBACK.has(host)) return null;
  return (
    `fleet serve: listening on ${host}:${port}. The page has no login: anyone who can reach this address reads the whole fleet ` +
    `and every store's open order ids. Put it behind the chain's own authenticating proxy, or leave out --host to keep it on 127.0.0.1.\n`
  );
}

const SECURITY_HEADERS = {
  // No inline script or style, nothing from elsewhere: the page's own files and its own JSON only.
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
} as const;

const PAGE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page');

/** Where `npm run build` (and `npm run fleet`) puts the page's script, bundled from page/main.ts (no CDN: everything it needs is in it). */
export const FLEET_SCRIPT = path.resolve(PAGE_DIR, '..', '..', '..', 'out', 'fleet', 'fleet.js');

/** The page's script, built beforehand: nothing is bundled while the page is served. */
function builtPage(): string {
  if (!existsSync(FLEET_SCRIPT)) throw new Error(`The fleet page is not built (${FLEET_SCRIPT} is missing): run \`npm run build\` first.`);
  return readFileSync(FLEET_SCRIPT, 'utf8');
}

export interface FleetServerOptions {
  readonly nc: NatsConnection;
  readonly host?: string;
  /** 0: any free port. */
  readonly port: number;
  readonly now?: () => number;
  /** How long a drill-down waits for the store. */
  readonly drillTimeoutMs?: number;
}

export interface FleetServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Keeps the history current: reads the fleet stream from a day back, then follows it. */
function followHistory(nc: NatsConnection, history: FleetHistory, now: () => number): () => void {
  let stopped = false;
  let stopCurrent: (() => void) | null = null;
  const run = async (): Promise<void> => {
    while (!stopped) {
      try {
        const js = jetstream(nc);
        // Believed as the status is (belief.ts): a store only about itself, and only stores the fleet sources.
        const storeOf = storeOfSource(await readFleetSources(nc));
        const consumer = await js.consumers.get(FLEET_STREAM, { deliver_policy: DeliverPolicy.StartTime, opt_start_time: new Date(now() - HISTORY_KEEP_MS).toISOString() });
        const messages = await consumer.consume();
        stopCurrent = () => void messages.stop();
        let n = 0;
        for await (const m of messages) {
          const belief = believe({ subject: m.subject, data: m.data, source: m.headers?.get(SOURCE_HEADER) ?? null }, storeOf);
          if (belief.ok) history.add(belief.message, m.info.timestampNanos / 1e6);
          if (++n % 1000 === 0) history.prune(now());
        }
        if (!stopped) await new Promise((r) => setTimeout(r, HISTORY_RETRY_MS));
      } catch {
        // No fleet stream yet (no store added) or the centre away: look again.
        if (!stopped) await new Promise((r) => setTimeout(r, HISTORY_RETRY_MS));
      }
    }
  };
  void run();
  return () => {
    stopped = true;
    stopCurrent?.();
  };
}

/** Starts the page's server; resolves once it listens. */
export async function startFleetServer(options: FleetServerOptions): Promise<FleetServer> {
  const now = options.now ?? Date.now;
  const host = options.host ?? DEFAULT_HOST;
  const [script, css, html] = [builtPage(), readFileSync(path.join(PAGE_DIR, 'fleet.css'), 'utf8'), readFileSync(path.join(PAGE_DIR, 'index.html'), 'utf8')];
  const history = new FleetHistory();
  const stopHistory = followHistory(options.nc, history, now);
  let cached: { at: number; status: Promise<FleetStatus> } | null = null;
  const status = (): Promise<FleetStatus> => {
    if (!cached || now() - cached.at > STATUS_FRESH_MS) {
      const at = now();
      const reading = readFleet(options.nc).then((r) => fleetStatus(r, now()));
      cached = { at, status: reading };
      reading.catch(() => (cached = null));
    }
    return cached.status;
  };
  let allowedHosts: Set<string> = new Set();

  /** A path segment's text, or null when its percent-encoding is malformed (decodeURIComponent would throw, and was said as the centre not answering). */
  const decodedSegment = (segment: string): string | null => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return null;
    }
  };
  const server = http.createServer((req, res) => {
    const send = (code: number, type: string, body: string, extra: Record<string, string> = {}): void => {
      res.writeHead(code, { 'Content-Type': type, ...SECURITY_HEADERS, ...extra });
      res.end(body);
    };
    const json = (code: number, body: unknown): void => send(code, 'application/json; charset=utf-8', JSON.stringify(body), { 'Cache-Control': 'no-store' });
    // Another site's page reaching this one through a name of its own (DNS rebinding) is refused.
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) return send(421, 'text/plain; charset=utf-8', 'This page answers only at the address fleet serve printed.\n');
    if (req.method !== 'GET') return send(405, 'text/plain; charset=utf-8', 'Only GET here: the fleet page reads, it never changes anything.\n', { Allow: 'GET' });
    const url = new URL(req.url ?? '/', 'http://page');
    const route = url.pathname;
    void (async () => {
      if (route === '/' || route === '/index.html') return send(200, 'text/html; charset=utf-8', html);
      if (route === '/fleet.js') return send(200, 'text/javascript; charset=utf-8', script);
      if (route === '/fleet.css') return send(200, 'text/css; charset=utf-8', css);
      // Browsers ask for it by themselves; the page has no icon, and says so without an error.
      if (route === '/favicon.ico') return send(204, 'image/x-icon', '');
      if (route === '/api/status') return json(200, await status());
      if (route === '/api/history') {
        const minutes = Number(url.searchParams.get('minutes') ?? '60');
        if (!Number.isFinite(minutes) || minutes < 1 || minutes > 1440) return json(400, { error: 'minutes: a number from 1 to 1440' });
        const series: FleetSeries = history.series(now(), minutes * 60_000);
        return json(200, series);
      }
      const drill = /^\/api\/stores\/([^/]+)$/.exec(route);
      if (drill) {
        const decoded = decodedSegment(drill[1]!);
        if (decoded === null) return json(400, { error: 'store id: the address has a % that is not followed by two hex digits (a malformed percent-encoding)' });
        const id = StoreIdSchema.safeParse(decoded);
        if (!id.success) return json(400, { error: 'store id: letters, digits, - and _ only' });
        const [row, open] = await Promise.all([status().then((s) => s.stores.find((st) => st.storeId === id.data) ?? null), readOpenOrders(options.nc, id.data, options.drillTimeoutMs)]);
        const body: StoreDrill = { storeId: id.data, store: row, open, at: now() };
        return json(200, body);
      }
      return send(404, 'text/plain; charset=utf-8', 'Not here: the fleet page is at /.\n');
    })().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const words = /stream not found/i.test(message)
        ? 'No fleet stream on the centre yet: add stores with `fleet stores add <store id>`.'
        : `The centre did not answer: ${message}. The page tries again by itself.`;
      json(503, { error: words });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  allowedHosts = new Set([`${shown}:${port}`, ...(LOOPBACK.has(host) ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] : [])]);
  return {
    url: `http://${shown}:${port}/`,
    port,
    close: async () => {
      stopHistory();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
