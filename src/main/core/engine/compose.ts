/**
 * Wires the engine to the real order service: a TokenManager over a credential vault, an
 * OrderServiceClient as the engine's UpdateSender, and order intake beside the engine (its own
 * connection to the data file, its own cursor). Intake's reads feed the one reachability signal
 * the engine's connectivity listens to. The CLI and the Electron/web hosts both use it, so the
 * parts are put together in one way only.
 */
import { randomUUID } from 'node:crypto';
import type { IntakeStatus } from '../../../shared/ipc';
import type { Order } from '../../../shared/protocol/schemas';
import { ProblemError } from '../../../shared/result';
import { OrderServiceClient } from '../api';
import { createStatusCheck } from '../api/status-check';
import { type CredentialVault, TokenManager } from '../auth';
import { forgetParsedActions, openStore, type Store } from '../db';
import { createIntake, DEFAULT_INTAKE_INTERVAL_MS, type Intake, storeForIntake } from '../intake';
import { type Logger, silentLogger } from '../log';
import { createReachabilitySignal, type OnlineSignal } from '../sync';
import { systemTimers, type Timers } from '../time';
import { ServiceClock, type ServiceNow } from '../time/service-clock';
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
  /** Check before resend (decisions.md); absent = the order service's own `status` call. */
  readonly statusCheck?: EngineOptions['statusCheck'];
  /** The store's service provider id (settings); null: intake does not poll `changes`. */
  readonly serviceProviderId?: () => string | null;
  /** Intake's poll interval (settings; default 30 s, never below 10 s). */
  readonly intakeIntervalMs?: () => number;
  /** Tests only: intake's floor for the interval (default 10 s). */
  readonly intakeMinIntervalMs?: number;
  /** Identifies the settings a refusal of access was said for (default: the order service address and provider id). */
  readonly settingsKey?: () => string;
  /** When the data file's pages are checked (EngineOptions.openingCheck; the app: 'later'). */
  readonly openingCheck?: EngineOptions['openingCheck'];
  /** Told when the later check found the data file damaged. */
  readonly onDamaged?: EngineOptions['onDamaged'];
  /** How long finished orders stay on the terminal (EngineOptions.finishedKeepMs). */
  readonly finishedKeepMs?: number;
  /** Tests only: when the engine first looks for finished orders after it starts sending (default a minute). */
  readonly retireFirstMs?: number;
  /** Whether a PIN is the manager's (EngineOptions.isManagerPin). */
  readonly isManagerPin?: EngineOptions['isManagerPin'];
  /** scrypt cost of packers' PINs (tests lower it). */
  readonly staffPinCost?: EngineOptions['staffPinCost'];
  /** The store hub's ports for the staff list and taught barcodes (EngineOptions). */
  readonly staffSharing?: EngineOptions['staffSharing'];
  readonly taughtSharing?: EngineOptions['taughtSharing'];
}

/** What intake tells the host: orders it stored, and its status. */
export type IntakeEvent =
  /** `from: 'hub'`: bodies another counter's intake took in (storeOrders), which this counter need not put into the hub again. */
  | { readonly kind: 'stored'; readonly orderIds: readonly string[]; readonly from?: 'hub' }
  | { readonly kind: 'status'; readonly status: IntakeStatus };

export interface ServiceEngine {
  readonly engine: Engine;
  readonly tokens: TokenManager;
  readonly client: OrderServiceClient;
  readonly clock: ServiceClock;
  readonly intake: Intake;
  /** Subscribes to intake's events; returns the unsubscribe function. */
  onIntake(listener: (event: IntakeEvent) => void): () => void;
  /**
   * Stores bodies another counter's intake took in (heard from the store hub) as this intake
   * stores its own, newer bodies only, in one transaction; intake's listeners hear the changed ids.
   */
  storeOrders(orders: readonly Order[], now: number): ('new' | 'updated' | 'unchanged')[];
  /** The bodies held for these ids (those without one are left out). */
  heldOrders(orderIds: readonly string[]): Order[];
  /**
   * Lets go what only a busy spell reads again: intake's parsed bodies (its re-reads in the
   * overlap) and the parsed taps' actions. Asked in a quiet spell, before the host's collection
   * (host/heap-trim.ts): after a busy hour they held about 0.7 MB that the settled terminal did not.
   */
  letGoBusyCaches(): void;
  /**
   * What another counter found of the order service (the store hub's intake holder): a counter
   * that does not poll sends nothing while idle, so it learns the internet is down from the one
   * that does. False marks it offline and starts its own probe; true asks for a probe.
   */
  reportReachable(reachable: boolean): void;
  /** Stops intake, the engine, then the token manager. */
  close(): Promise<void>;
}

/** What talks to the token server and the order service, and what their answers say of the clock. */
export interface ServiceParts {
  readonly tokens: TokenManager;
  readonly client: OrderServiceClient;
  readonly clock: ServiceClock;
  /** The order service's now for intake's windows: a token and one answer of the service first, so both witnesses can speak. */
  serviceNow(): Promise<ServiceNow>;
}

/** The options ServiceParts are built from (a subset of ServiceEngineOptions). */
export type ServicePartsOptions = Pick<
  ServiceEngineOptions,
  'authUrl' | 'baseUrl' | 'vault' | 'log' | 'now' | 'random' | 'timers' | 'proactiveRefresh' | 'requestTimeoutMs' | 'probeTimeoutMs'
> & {
  /** Told when what the clock's witnesses say may have changed. */
  readonly onClockChange?: () => void;
};

/** The token manager and order service client over one clock; no data file needed (doctor uses them on an unopenable folder). */
export function openServiceParts(options: ServicePartsOptions): ServiceParts {
  const log = options.log ?? silentLogger;
  const clock = new ServiceClock(options.now ?? Date.now, () => options.onClockChange?.());
  const tokens: TokenManager = new TokenManager({
    authUrl: options.authUrl,
    vault: options.vault,
    logger: log,
    onClockSkew: () => clock.tokenSaid(tokens.issuedSkewMs()),
    ...(options.now ? { now: options.now } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
    ...(options.proactiveRefresh !== undefined ? { proactive: options.proactiveRefresh } : {}),
  });
  const client = new OrderServiceClient({
    baseUrl: options.baseUrl,
    tokens,
    logger: log,
    onServiceDate: (date, receivedAt) => clock.serviceSaid(date, receivedAt),
    ...(options.now ? { now: options.now } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
    ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}),
    ...(options.probeTimeoutMs !== undefined ? { probeTimeoutMs: options.probeTimeoutMs } : {}),
  });
  return {
    tokens,
    client,
    clock,
    async serviceNow() {
      await tokens.serviceNow();
      // One light GET when the service has not spoken in this run: a terminal days off must not
      // read its first window on a token server's word alone.
      if (!clock.heardService()) await client.probe();
      return clock.serviceNow();
    },
  };
}

/** Builds the token manager, the order service client and the engine over them. */
export function openEngineWithService(options: ServiceEngineOptions): ServiceEngine {
  const log = options.log ?? silentLogger;
  // Built below, over the token manager; told when the clock's witnesses may have said something new.
  let engine: Engine | null = null;
  const parts = openServiceParts({ ...options, onClockChange: () => engine?.clockSkewChanged() });
  const { tokens, client, clock } = parts;
  const reachability = createReachabilitySignal(options.online);
  engine = createEngine({
    dataDir: options.dataDir,
    sender: client,
    terminalId: options.terminalId,
    log,
    credentialsState: () => tokens.status().credentials,
    tokenProblem: () => tokens.status().lastProblem,
    serviceCertificate: () => client.certificateProblem(),
    clockSkewMs: () => clock.skewMs(),
    clockDisagreementMs: () => clock.judgement().disagreementMs,
    ...pick(options),
    // Check before resend (decisions.md) asks the service's `status` call unless a test brings its own.
    statusCheck: options.statusCheck ?? createStatusCheck(client),
    online: reachability,
  });
  let intakeStore: Store;
  try {
    intakeStore = openIntakeStore(options.dataDir, options.now ?? Date.now);
  } catch (error) {
    void engine.stop();
    throw error;
  }
  const listeners = new Set<(event: IntakeEvent) => void>();
  const tell = (event: IntakeEvent): void => {
    for (const l of [...listeners]) {
      try {
        l(event);
      } catch (e) {
        log.error('intake listener failed', { error: e });
      }
    }
  };
  const serviceProviderId = options.serviceProviderId ?? (() => null);
  // The service's now as the engine reads it (both clock witnesses), so a body is judged newer on one clock.
  const ordersIn = storeForIntake(intakeStore, () => (options.now ?? Date.now)() - (clock.skewMs() ?? 0), options.terminalId);
  const intake = createIntake({
    reader: client,
    store: ordersIn,
    serviceProviderId,
    settingsKey: options.settingsKey ?? (() => `${options.baseUrl}|${serviceProviderId() ?? ''}`),
    now: options.now ?? Date.now,
    serviceNow: () => parts.serviceNow(),
    random: options.random ?? Math.random,
    timers: options.timers ?? systemTimers,
    newRequestId: randomUUID,
    intervalMs: options.intakeIntervalMs ?? (() => DEFAULT_INTAKE_INTERVAL_MS),
    ...(options.intakeMinIntervalMs !== undefined ? { minIntervalMs: options.intakeMinIntervalMs } : {}),
    outboxSending: () => engine.sendingCount(),
    log,
    onStored: (orderIds) => tell({ kind: 'stored', orderIds }),
    onStatus: (status) => tell({ kind: 'status', status }),
    onReachable: (reachable) => reachability.report(reachable),
  });
  // The service answering again (the sync bar turns Online): intake checks at once rather than after its backoff.
  let wasOnline = engine.status().connectivity === 'online';
  const offServiceBack = engine.on('sync.status', (status) => {
    const online = status.connectivity === 'online';
    if (online && !wasOnline) intake.serviceBack();
    wasOnline = online;
  });
  return {
    engine,
    tokens,
    client,
    clock,
    intake,
    onIntake(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    storeOrders(orders, now) {
      const results = ordersIn.saveAllIfNewer(orders, now);
      const changed = orders.filter((_, i) => results[i] !== 'unchanged').map((o) => o.id);
      if (changed.length > 0) tell({ kind: 'stored', orderIds: changed, from: 'hub' });
      return results;
    },
    heldOrders: (orderIds) => orderIds.map((id) => intakeStore.orders.held(id)).filter((o) => o !== null),
    letGoBusyCaches() {
      intakeStore.orders.forgetBodies();
      forgetParsedActions();
    },
    reportReachable: (reachable) => reachability.report(reachable),
    async close() {
      offServiceBack();
      await intake.stop();
      listeners.clear();
      await engine.stop();
      reachability.stop();
      intakeStore.close();
      await tokens.close();
    },
  };
}

/**
 * Intake's own connection to the data file the engine has just opened (and checks). It writes each
 * body once and reads a held one only to compare it with a newer answer: SQLite's default page
 * cache, and a few parsed bodies (at the engine's size it came to hold every order ever updated).
 */
export const INTAKE_MEMORY = { pageCacheKib: 2_048, bodies: 64 } as const;

export function openIntakeStore(dataDir: string, now: () => number): Store {
  const opened = openStore({ dataDir, now, openingCheck: 'later', memory: INTAKE_MEMORY });
  if (!opened.ok) throw new ProblemError(opened.problem);
  return opened.value;
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
  if (o.openingCheck) out.openingCheck = o.openingCheck;
  if (o.onDamaged) out.onDamaged = o.onDamaged;
  if (o.finishedKeepMs !== undefined) out.finishedKeepMs = o.finishedKeepMs;
  if (o.retireFirstMs !== undefined) out.retireFirstMs = o.retireFirstMs;
  if (o.isManagerPin) out.isManagerPin = o.isManagerPin;
  if (o.staffPinCost) out.staffPinCost = o.staffPinCost;
  if (o.staffSharing) out.staffSharing = o.staffSharing;
  if (o.taughtSharing) out.taughtSharing = o.taughtSharing;
  return out;
}
