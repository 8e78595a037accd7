/**
 * Wires the engine to the real order service: a TokenManager over a credential vault and an
 * OrderServiceClient as the engine's UpdateSender. The CLI and the Electron/web hosts both use it,
 * so the parts are put together in one way only.
 */
import { OrderServiceClient } from '../api';
import { type CredentialVault, TokenManager } from '../auth';
import { type Logger, silentLogger } from '../log';
import type { OnlineSignal } from '../sync';
import type { Timers } from '../time';
import { createEngine, type Engine, type EngineOptions } from './engine';

export interface ServiceEngineOptions {
  readonly dataDir: string;
  /** `{auth_url}` of the token server. */
  readonly authUrl: string;
  /** `{base_url}` of the order service. */
  readonly baseUrl: string;
  readonly vault: CredentialVault;
  readonly terminalId: string;
  readonly log?: Logger;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly timers?: Timers;
  readonly online?: OnlineSignal;
  readonly undoWindowMs?: number;
  readonly concurrency?: number;
  readonly backlogThresholdMs?: number;
  readonly backoff?: EngineOptions['backoff'];
  readonly pollMs?: number;
  readonly stopGraceMs?: number;
  /** Deadline of one update request (default 15 s, the client's). */
  readonly requestTimeoutMs?: number;
  /** Deadline of a reachability probe (default 3 s). */
  readonly probeTimeoutMs?: number;
  /** Refresh tokens on a timer ahead of expiry (default true; the CLI's short runs turn it off). */
  readonly proactiveRefresh?: boolean;
  /** Check before resend (decisions.md); absent = resend as before. */
  readonly statusCheck?: EngineOptions['statusCheck'];
}

export interface ServiceEngine {
  readonly engine: Engine;
  readonly tokens: TokenManager;
  readonly client: OrderServiceClient;
  /** Stops the engine, then the token manager. */
  close(): Promise<void>;
}

/** Builds the token manager, the order service client and the engine over them. */
export function openEngineWithService(options: ServiceEngineOptions): ServiceEngine {
  const log = options.log ?? silentLogger;
  const tokens = new TokenManager({
    authUrl: options.authUrl,
    vault: options.vault,
    logger: log,
    ...(options.now ? { now: options.now } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
    ...(options.proactiveRefresh !== undefined ? { proactive: options.proactiveRefresh } : {}),
  });
  const client = new OrderServiceClient({
    baseUrl: options.baseUrl,
    tokens,
    logger: log,
    ...(options.now ? { now: options.now } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
    ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}),
    ...(options.probeTimeoutMs !== undefined ? { probeTimeoutMs: options.probeTimeoutMs } : {}),
  });
  const engine = createEngine({
    dataDir: options.dataDir,
    sender: client,
    terminalId: options.terminalId,
    log,
    credentialsState: () => tokens.status().credentials,
    tokenProblem: () => tokens.status().lastProblem,
    ...pick(options),
  });
  return {
    engine,
    tokens,
    client,
    async close() {
      await engine.stop();
      await tokens.close();
    },
  };
}

function pick(o: ServiceEngineOptions): Partial<EngineOptions> {
  const out: Partial<EngineOptions> = {};
  if (o.now) out.now = o.now;
  if (o.random) out.random = o.random;
  if (o.timers) out.timers = o.timers;
  if (o.online) out.online = o.online;
  if (o.undoWindowMs !== undefined) out.undoWindowMs = o.undoWindowMs;
  if (o.concurrency !== undefined) out.concurrency = o.concurrency;
  if (o.backlogThresholdMs !== undefined) out.backlogThresholdMs = o.backlogThresholdMs;
  if (o.backoff) out.backoff = o.backoff;
  if (o.pollMs !== undefined) out.pollMs = o.pollMs;
  if (o.stopGraceMs !== undefined) out.stopGraceMs = o.stopGraceMs;
  if (o.statusCheck) out.statusCheck = o.statusCheck;
  return out;
}
