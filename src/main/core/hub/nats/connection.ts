/**
 * A counter's connection to the store hub, made from a join code: TLS pinned to the hub's own
 * certificate (self-signed: exactly that certificate is trusted, nothing else), the store's secret,
 * reconnecting forever, and pings short enough that a hub that is away is noticed within seconds.
 * The certificate is checked before the secret is ever sent: a probe reads the hub's certificate
 * first, and only a certificate with the pinned fingerprint is then trusted by the real connection.
 */
import { createHash, X509Certificate } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { HUB_INBOX_PREFIX } from '../../../../shared/hub';
import { every, systemTimers, type Timers } from '../../time';
import { HUB_USER } from '../server/hub-files';

/** Where a hub is and how to prove who both sides are (what a join code carries). */
export interface HubTarget {
  readonly host: string;
  readonly port: number;
  /** The store's secret (the hub's password). */
  readonly secret: string;
  /** The hub certificate's SHA-256 fingerprint in hex, whole or its first 24 digits or more. */
  readonly fingerprint: string;
}

/** Why a hub could not be used, for the words and for what a screen offers. */
export type HubProblemKind = 'wrongSecret' | 'certificate' | 'noTls' | 'unreachable' | 'other';

export interface HubProblem {
  readonly kind: HubProblemKind;
  readonly message: string;
}

/** The words for each problem: what a manager or support reads. */
export const HUB_PROBLEM_WORDS: Readonly<Record<HubProblemKind, string>> = {
  wrongSecret: 'The hub refused this counter: the join code is wrong or old. Ask the manager for the hub\'s current join code.',
  certificate: 'The hub at this address is not the one the join code names (its certificate is different). Ask the manager for the current join code.',
  noTls: 'The hub at this address does not use encryption, so it is not a Packdesk hub. Nothing was sent to it.',
  unreachable: 'The hub cannot be reached. Check that the hub PC is on, Packdesk is running there, and both PCs are on the store\'s network.',
  other: 'The hub could not be used.',
};

/** Connection state as the session and screens see it. */
export type HubLinkState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

export interface HubLinkStatus {
  readonly state: HubLinkState;
  /** When the state last changed (epoch ms). */
  readonly since: number;
  readonly problem: HubProblem | null;
}

export interface HubConnection {
  /** The NATS connection, for the hub's rules (KV buckets). */
  readonly nc: NatsConnection;
  /** The hub certificate's full fingerprint, as the probe read it. */
  readonly fingerprint: string;
  status(): HubLinkStatus;
  /** Called on every change of state; returns the function that stops listening. */
  onStatus(listener: (status: HubLinkStatus) => void): () => void;
  /** Closes the connection (no reconnecting after this). */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The connection's name as the hub lists it (the counter's name). */
  readonly name?: string;
  /** How often the client pings the hub; two missed pings count as the hub away. Default 2 s (away noticed in about 6 s). */
  readonly pingIntervalMs?: number;
  /** Wait between reconnect attempts. Default 1 s. */
  readonly reconnectWaitMs?: number;
  /** Deadline for the first connection. Default 5 s. */
  readonly timeoutMs?: number;
  readonly now?: () => number;
  /** While reconnecting, how often the hub's certificate is read again to tell "another hub" from "no hub". Default 3 s. */
  readonly probeEveryMs?: number;
  readonly timers?: Timers;
  /** The user to connect as: the counters' (default), or the hub PC's keeper of the chain's account. */
  readonly user?: string;
  /** Where replies come back; a prefix the chain link never lets north. Default the counters' own. */
  readonly inboxPrefix?: string;
}

export type HubConnectResult = { readonly ok: true; readonly connection: HubConnection } | { readonly ok: false; readonly problem: HubProblem };

/** A problem in words from any error met while connecting or reconnecting. */
export function describeHubError(error: unknown): HubProblem {
  const text = error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code ?? '')} ${String((error.cause as Error | undefined)?.message ?? '')}` : String(error);
  if (/authorization violation|authentication|user authentication/i.test(text)) return problem('wrongSecret');
  if (/certificate|self[- ]signed|CERT_|fingerprint|DEPTH_ZERO/i.test(text)) return problem('certificate');
  if (/tls|secure connection|ssl|wrong version number/i.test(text)) return problem('noTls');
  if (/ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|timeout|CONNECTION_REFUSED|closed|ENOTFOUND/i.test(text)) return problem('unreachable');
  return { kind: 'other', message: `${HUB_PROBLEM_WORDS.other} (${text.trim().slice(0, 200)})` };
}

function problem(kind: HubProblemKind): HubProblem {
  return { kind, message: HUB_PROBLEM_WORDS[kind] };
}

/** Whether a full fingerprint matches a pinned one (the whole of it, or a prefix of at least 24 hex digits). */
export function fingerprintMatches(actual: string, pinned: string): boolean {
  const a = actual.toLowerCase().replace(/[^0-9a-f]/g, '');
  const p = pinned.toLowerCase().replace(/[^0-9a-f]/g, '');
  return p.length >= 24 && a.length === 64 && a.startsWith(p);
}

export type ProbeResult = { readonly ok: true; readonly certPem: string; readonly fingerprint: string } | { readonly ok: false; readonly problem: HubProblem };

/**
 * Reads the hub's certificate without sending anything secret: nats-server says hello in plain
 * text (INFO), then the client starts TLS; we stop right after the handshake and check the pin.
 */
export async function probeHubCertificate(host: string, port: number, pinned: string, timeoutMs = 5000): Promise<ProbeResult> {
  return new Promise<ProbeResult>((resolve) => {
    let settled = false;
    let secure: tls.TLSSocket | null = null;
    const socket = net.connect({ host, port });
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      secure?.destroy();
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, problem: problem('unreachable') }), timeoutMs);
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n');
      if (end < 0) {
        if (buffered.length > 65_536) finish({ ok: false, problem: { ...problem('other'), message: 'Something other than a Packdesk hub answers at this address.' } });
        return;
      }
      socket.off('data', onData);
      const line = buffered.slice(0, end);
      if (!line.startsWith('INFO ')) return finish({ ok: false, problem: { ...problem('other'), message: 'Something other than a Packdesk hub answers at this address.' } });
      let info: { tls_required?: boolean };
      try {
        info = JSON.parse(line.slice(5)) as { tls_required?: boolean };
      } catch {
        return finish({ ok: false, problem: { ...problem('other'), message: 'Something other than a Packdesk hub answers at this address.' } });
      }
      if (info.tls_required !== true) return finish({ ok: false, problem: problem('noTls') });
      // Verification is ours (the pin), so the handshake itself accepts any certificate; nothing is sent after it.
      secure = tls.connect({ socket, rejectUnauthorized: false }, () => {
        const peer = secure?.getPeerCertificate(true);
        if (!peer?.raw) return finish({ ok: false, problem: problem('certificate') });
        const fingerprint = createHash('sha256').update(peer.raw).digest('hex');
        if (!fingerprintMatches(fingerprint, pinned)) return finish({ ok: false, problem: problem('certificate') });
        finish({ ok: true, certPem: new X509Certificate(peer.raw).toString(), fingerprint });
      });
      secure.on('error', (error) => finish({ ok: false, problem: describeHubError(error) }));
    };
    socket.on('data', onData);
    socket.on('error', (error) => finish({ ok: false, problem: describeHubError(error) }));
    socket.on('close', () => finish({ ok: false, problem: problem('unreachable') }));
  });
}

/** Connects to the hub a join code names; refuses, in words, a wrong secret, another certificate, a hub without TLS or none at all. */
export async function connectHub(target: HubTarget, options: ConnectOptions = {}): Promise<HubConnectResult> {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 5000;
  const probe = await probeHubCertificate(target.host, target.port, target.fingerprint, timeoutMs);
  if (!probe.ok) return probe;
  const pinned = probe.fingerprint;
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: `${target.host}:${target.port}`,
      name: options.name,
      user: options.user ?? HUB_USER,
      pass: target.secret,
      tls: {
        // Exactly this certificate is trusted; the name check is replaced by the pin (a hub's LAN address may change).
        ca: probe.certPem,
        checkServerIdentity: (_host: string, cert: { raw?: Buffer }) =>
          cert.raw && createHash('sha256').update(cert.raw).digest('hex') === pinned ? undefined : new Error('hub certificate fingerprint differs from the pinned one'),
      } as never,
      maxReconnectAttempts: -1,
      reconnectTimeWait: options.reconnectWaitMs ?? 1000,
      pingInterval: options.pingIntervalMs ?? 2000,
      maxPingOut: 2,
      timeout: timeoutMs,
      ignoreClusterUpdates: true,
      noRandomize: true,
      // Replies and watch deliveries on a prefix of their own (the counters' account never reaches the chain link anyway).
      inboxPrefix: options.inboxPrefix ?? HUB_INBOX_PREFIX,
    });
  } catch (error) {
    return { ok: false, problem: describeHubError(error) };
  }
  return { ok: true, connection: watchConnection(nc, target, pinned, { now, timers: options.timers ?? systemTimers, probeEveryMs: options.probeEveryMs ?? 3000, timeoutMs }) };
}

interface WatchOptions {
  readonly now: () => number;
  readonly timers: Timers;
  readonly probeEveryMs: number;
  readonly timeoutMs: number;
}

function watchConnection(nc: NatsConnection, target: HubTarget, fingerprint: string, options: WatchOptions): HubConnection {
  const { now } = options;
  let current: HubLinkStatus = { state: 'connected', since: now(), problem: null };
  const listeners = new Set<(status: HubLinkStatus) => void>();
  let lastError: HubProblem | null = null;
  let stopProbing: (() => void) | null = null;
  const set = (state: HubLinkState, found: HubProblem | null): void => {
    if (state === 'reconnecting' && !stopProbing) {
      // The client only says "disconnected": a hub made again (another certificate) looks the same
      // as no hub. Reading the certificate again tells them apart, without sending anything.
      stopProbing = every(options.timers, options.probeEveryMs, () => {
        void probeHubCertificate(target.host, target.port, fingerprint, options.timeoutMs).then((probe) => {
          if (current.state !== 'reconnecting') return;
          lastError = probe.ok ? null : probe.problem;
          if (!probe.ok) set('reconnecting', probe.problem);
        });
      });
    }
    if (state !== 'reconnecting' && stopProbing) {
      stopProbing();
      stopProbing = null;
    }
    if (current.state === state && current.problem?.message === found?.message) return;
    current = { state, since: current.state === state ? current.since : now(), problem: found };
    for (const listener of listeners) listener(current);
  };
  void (async () => {
    for await (const s of nc.status()) {
      switch (s.type) {
        case 'disconnect':
        case 'staleConnection':
        case 'reconnecting':
          if (current.state !== 'closed') set('reconnecting', lastError ?? problem('unreachable'));
          break;
        case 'reconnect':
          lastError = null;
          set('connected', null);
          break;
        case 'error':
          lastError = describeHubError(s.error);
          if (current.state === 'reconnecting') set('reconnecting', lastError);
          break;
        default:
          break;
      }
    }
  })();
  void nc.closed().then((error) => set('closed', error ? describeHubError(error) : null));
  return {
    nc,
    fingerprint,
    status: () => current,
    onStatus: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      if (!nc.isClosed()) await nc.close();
    },
  };
}

/** Whether the connection is up, as its last status said; followed until the connection closes. */
export function connectionState(nc: NatsConnection): { connected(): boolean } {
  let up = !nc.isClosed();
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') up = false;
      if (status.type === 'reconnect') up = true;
    }
    up = false;
  })();
  return { connected: () => up && !nc.isClosed() };
}
