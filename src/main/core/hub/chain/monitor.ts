/**
 * The leaf link's state on the hub PC, in words: whether the link is up is read from the hub's own
 * nats-server (`/leafz` on its 127.0.0.1 monitoring port: a connection the centre has not accepted
 * yet is not listed there), and why it is not from the lines nats-server writes (a refusal by the
 * centre is said only there: "Authorization Violation", "TLS leafnode handshake error"). Measured
 * with a real operator-mode centre (test/fleet/chain-creds.test.ts).
 */
import type { ChainLink } from './link';
import type { ChainStatus } from '../../../../shared/chain';
import { every, type Timers } from '../../time';

/** How often /leafz is read. */
export const LEAFZ_EVERY_MS = 2_000;

/** What one line of nats-server says about the leaf link, if anything. */
export type LeafLine =
  | { readonly kind: 'refused'; readonly by: 'credentials' | 'certificate' | 'other'; readonly detail: string }
  | { readonly kind: 'unreachable'; readonly detail: string };

/** Reads a nats-server log line for the leaf link's failures. */
export function leafLine(line: string): LeafLine | null {
  const text = line.replace(/^\[\d+\]\s*\S+\s+\S+\s*\[\w+\]\s*/, '').replace(/^\S+ - lid:\d+ - /, '').trim();
  if (/Leafnode Error 'Authorization Violation'/i.test(text)) return { kind: 'refused', by: 'credentials', detail: 'Authorization Violation' };
  if (/TLS leafnode handshake error|x509:|certificate/i.test(text) && /\[ERR\]/.test(line)) return { kind: 'refused', by: 'certificate', detail: text.slice(0, 300) };
  if (/Leafnode Error '/.test(text)) return { kind: 'refused', by: 'other', detail: text.slice(0, 300) };
  if (/Error trying to connect as leafnode|leafnode.*(connection refused|no such host|i\/o timeout)/i.test(text)) return { kind: 'unreachable', detail: text.slice(0, 300) };
  return null;
}

/** Whether /leafz lists a leaf connection: true/false, or null when the hub's server does not answer. */
export async function leafConnected(monitorPort: number, timeoutMs = 1_500): Promise<boolean | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${monitorPort}/leafz`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return null;
    // 2.9: `leafnodes` is the count, `leafs` the list.
    const body = (await res.json()) as { leafs?: unknown; leafnodes?: unknown };
    return (typeof body.leafnodes === 'number' && body.leafnodes > 0) || (Array.isArray(body.leafs) && body.leafs.length > 0);
  } catch {
    return null;
  }
}

/** The centre's host:port of a leaf URL (what the screens name; never a credential). */
export function centreOf(url: string): string {
  return url.replace(/^[a-z-]+:\/\//, '').replace(/^[^@]*@/, '');
}

export interface ChainMonitorOptions {
  readonly link: ChainLink;
  readonly monitorPort: number;
  /** nats-server's lines (the supervisor's onLine). */
  readonly lines: (listener: (line: string) => void) => () => void;
  readonly now: () => number;
  readonly timers: Timers;
  /** A file the link needs is missing, or similar: said on the status. */
  readonly problem?: string | null;
  readonly everyMs?: number;
}

export interface ChainMonitor {
  status(): ChainStatus;
  /** Called when the state (or its reason) changes; returns the function that stops listening. */
  onChange(listener: (status: ChainStatus) => void): () => void;
  stop(): void;
}

/** Watches the hub's leaf link while its server runs. */
export function startChainMonitor(options: ChainMonitorOptions): ChainMonitor {
  const { link } = options;
  const startedAt = options.now();
  let connected = false;
  let linkedSince: number | null = null;
  let lostAt: number | null = null;
  let everLinked = false;
  /** The last failure nats-server said since the link was last up, and when it began. */
  let failure: (LeafLine & { at: number }) | null = null;
  const listeners = new Set<(status: ChainStatus) => void>();

  const status = (): ChainStatus => {
    const base = {
      role: 'hub' as const,
      storeId: link.storeId,
      centre: centreOf(link.url),
      training: link.training,
      hasCredentials: link.credentialsPath !== null,
      hasCa: link.caPath !== null,
      problem: options.problem ?? null,
    };
    if (connected) return { ...base, state: 'linked', since: linkedSince, refusedBy: null, detail: null };
    if (failure?.kind === 'refused') return { ...base, state: 'refused', since: failure.at, refusedBy: failure.by, detail: failure.detail };
    if (everLinked) return { ...base, state: 'cut', since: lostAt, refusedBy: null, detail: failure?.detail ?? null };
    return { ...base, state: 'connecting', since: startedAt, refusedBy: null, detail: failure?.detail ?? null };
  };

  let last = JSON.stringify(status());
  const changed = (): void => {
    const now = status();
    const text = JSON.stringify(now);
    if (text === last) return;
    last = text;
    for (const listener of listeners) listener(now);
  };

  const stopLines = options.lines((line) => {
    const said = leafLine(line);
    if (!said || connected) return;
    // Keep when a failure began; a new kind of failure starts again.
    if (!failure || failure.kind !== said.kind || (said.kind === 'refused' && failure.kind === 'refused' && failure.by !== said.by)) failure = { ...said, at: options.now() };
    changed();
  });

  let reading = false;
  const stopPoll = every(options.timers, options.everyMs ?? LEAFZ_EVERY_MS, () => {
    if (reading) return;
    reading = true;
    void leafConnected(options.monitorPort)
      .then((up) => {
        if (up === null) return;
        if (up && !connected) {
          connected = true;
          everLinked = true;
          linkedSince = options.now();
          failure = null;
        } else if (!up && connected) {
          connected = false;
          lostAt = options.now();
        }
        changed();
      })
      .finally(() => (reading = false));
  });

  return {
    status,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopPoll();
      stopLines();
      listeners.clear();
    },
  };
}
