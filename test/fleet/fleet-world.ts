/**
 * A chain on 127.0.0.1 for the fleet tests: a central nats-server with JetStream and a leaf node
 * port, store hubs made by the product's own hub files (nats.conf with the leaf remote and the
 * store's domain) and supervisor, and counters connected with the product's connectHub, each
 * sending its health north with the product's sender.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, createInbox, nanos, type NatsConnection } from '@nats-io/transport-node';
import { DELIVER_PREFIX } from '../../src/fleet/central';
import type { ChainLink } from '../../src/main/core/hub/chain/link';
import type { CounterHealth, StoreSummary } from '../../src/main/core/hub/chain/north';
import { type NorthSender, startNorthSender } from '../../src/main/core/hub/chain/north-sender';
import { type ChainKeeper, newKeeperPassword, startChainKeeper } from '../../src/main/core/hub/chain/keeper';
import { KEEPER_INBOX_PREFIX, KEEPER_USER } from '../../src/main/core/hub/server/accounts';
import { silentLogger } from '../../src/main/core/log/logger';
import { systemTimers } from '../../src/main/core/time';
import { connectHub, type HubConnection, type HubTarget } from '../../src/main/core/hub/nats/connection';
import { createHubFiles, hashSecret, HubSupervisor, hubFiles, type HubFiles, newHubSecret, writeHubConfig } from '../../src/main/core/hub/server';
import { natsProgram } from '../main/core/hub/hub-fixture';
import type { Cleanup } from '../support/engine';
import { freePort, startTestNats, type TestNatsServer } from '../support/nats';

export interface Central {
  readonly server: TestNatsServer;
  readonly leafUrl: string;
  readonly nc: NatsConnection;
}

/** The chain's central server: JetStream and a leaf node listener (with TLS when given a certificate), no domain of its own. */
export async function startCentral(cleanup: Cleanup, tls?: { readonly certPath: string; readonly keyPath: string }): Promise<Central> {
  const leafPort = await freePort();
  const leafTls = tls ? `\n  tls { cert_file: ${JSON.stringify(tls.certPath)}, key_file: ${JSON.stringify(tls.keyPath)} }\n` : '';
  const server = await startTestNats({ extraConfig: `server_name: central\nleafnodes { listen: "127.0.0.1:${leafPort}"${leafTls} }` });
  cleanup.add(() => server.stop());
  const nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  cleanup.add(() => nc.close());
  return { server, leafUrl: `${tls ? 'tls' : 'nats-leaf'}://127.0.0.1:${leafPort}`, nc };
}

export type CounterFigures = Omit<CounterHealth, 'kind' | 'storeId' | 'counterId' | 'counterName' | 'version' | 'seq' | 'runAt' | 'at'>;

export interface TestCounter {
  readonly counterId: string;
  readonly counterName: string;
  readonly version: string;
  figures: CounterFigures;
  readonly connection: HubConnection;
  readonly sender: NorthSender;
  /** Stops sending and drops the connection, as a killed counter would. */
  kill(): Promise<void>;
}

export interface TestStore {
  readonly storeId: string;
  readonly files: HubFiles;
  /** What a counter's join code would carry. */
  readonly target: HubTarget;
  readonly counters: TestCounter[];
  summary: Omit<StoreSummary, 'kind' | 'storeId' | 'seq' | 'runAt' | 'at'>;
  /** The hub PC's connection (reads the store's own north stream). */
  readonly nc: NatsConnection;
  /** nats-server's lines from the hub (the running one, across setLink); returns the function that stops listening. */
  onLine(listener: (line: string) => void): () => void;
  /** Restarts the hub with its leaf remote pointed nowhere (the link cut) or back at the centre. */
  setLink(up: boolean): Promise<void>;
  /** The hub PC's keeper of the chain's account (the product's), with this run's password. */
  readonly keeper: ChainKeeper;
  readonly keeperPassword: string;
  /** A connection in the chain's account (as the keeper), to read what the store keeps for the centre. */
  readonly chainNc: NatsConnection;
}

const defaultFigures = (n: number): CounterFigures => ({
  tapsWaiting: n,
  oldestWaitingAt: n ? Date.now() - n * 1000 : null,
  lastSentAt: Date.now() - 2_000,
  online: true,
  clockDifferenceMs: 40 * n,
  lastIntakeAt: Date.now() - 3_000,
  storageWarnings: [],
});

export interface StoreOptions {
  /** The chain's CA, when the centre's leaf port has TLS. */
  readonly caPath?: string | null;
  /** The store's leaf credentials file, when the centre runs in operator mode. */
  readonly credentialsPath?: string | null;
  /** How often the hub PC's keeper looks at the chain's consumers. */
  readonly keeperSweepMs?: number;
}

/** One store hub (leaf node of `central`, domain = store id) with `counters` counters sending every `everyMs`. */
export async function startStore(cleanup: Cleanup, central: Central, storeId: string, counters: number, everyMs: number, options: StoreOptions = {}): Promise<TestStore> {
  const { caPath = null, credentialsPath = null, keeperSweepMs } = options;
  const { program, version } = await natsProgram();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'packdesk-fleet-'));
  cleanup.add(() => rmSync(dataDir, { recursive: true, force: true }));
  const files = hubFiles(dataDir);
  const port = await freePort();
  const listen = `127.0.0.1:${port}`;
  const secret = newHubSecret();
  const chain = (url: string): ChainLink => ({ storeId, url, credentialsPath, caPath, training: true });
  const { fingerprint } = await createHubFiles(files, { listen, secret, now: new Date(), chain: chain(central.leafUrl) });
  const keeperPassword = newKeeperPassword();
  const keeperHash = hashSecret(keeperPassword);
  writeHubConfig(files, listen, hashSecret(secret), chain(central.leafUrl), null, keeperHash);
  const lineListeners = new Set<(line: string) => void>();
  const supervise = (): HubSupervisor => {
    const made = new HubSupervisor({ program, version, files, listen, stopGraceMs: 3000 });
    made.onLine((line) => lineListeners.forEach((l) => l(line)));
    return made;
  };
  let supervisor = supervise();
  const started = await supervisor.start();
  if (!started.running) throw new Error(`store hub did not start: ${started.problem}`);
  cleanup.add(() => supervisor.stop());

  const join = async (name: string): Promise<HubConnection> => {
    const result = await connectHub({ host: '127.0.0.1', port, secret, fingerprint }, { name, reconnectWaitMs: 200 });
    if (!result.ok) throw new Error(result.problem.message);
    cleanup.add(() => result.connection.close());
    return result.connection;
  };

  const hubConnection = await join('Counter 1');
  const keeper = startChainKeeper({
    storeId,
    connect: () => connectHub({ host: '127.0.0.1', port, secret: keeperPassword, fingerprint }, { name: 'chain keeper', user: KEEPER_USER, inboxPrefix: KEEPER_INBOX_PREFIX, reconnectWaitMs: 200 }),
    timers: systemTimers,
    log: silentLogger,
    ...(keeperSweepMs ? { sweepEveryMs: keeperSweepMs } : {}),
  });
  cleanup.add(() => keeper.stop());
  await until('the chain streams made by the keeper', 15_000, async () => (keeper.ready() ? true : null));
  const chainSide = await connectHub({ host: '127.0.0.1', port, secret: keeperPassword, fingerprint }, { name: 'test reader', user: KEEPER_USER, inboxPrefix: KEEPER_INBOX_PREFIX, reconnectWaitMs: 200 });
  if (!chainSide.ok) throw new Error(chainSide.problem.message);
  cleanup.add(() => chainSide.connection.close());
  const list: TestCounter[] = [];
  for (let i = 1; i <= counters; i += 1) {
    const connection = i === 1 ? hubConnection : await join(`Counter ${i}`);
    const counter: TestCounter = {
      counterId: `${storeId}-c${i}`,
      counterName: `Counter ${i}`,
      version: '1.4.0',
      figures: defaultFigures(i),
      connection,
      sender: startNorthSender({
        nc: connection.nc,
        now: Date.now,
        everyMs,
        build: (stamp) => ({ kind: 'counter', storeId, counterId: counter.counterId, counterName: counter.counterName, version: counter.version, ...stamp, ...counter.figures }),
      }),
      kill: async () => {
        counter.sender.close();
        await connection.close();
      },
    };
    cleanup.add(() => counter.sender.close());
    list.push(counter);
  }
  const store: TestStore = {
    storeId,
    files,
    target: { host: '127.0.0.1', port, secret, fingerprint },
    counters: list,
    summary: { awaitingAccept: 2, beingPacked: 1, late: 0, cancelledAlarmsOpen: 1 },
    nc: hubConnection.nc,
    keeper,
    keeperPassword,
    chainNc: chainSide.connection.nc,
    onLine: (listener) => {
      // Held here, not on a supervisor: setLink starts a new one.
      lineListeners.add(listener);
      return () => lineListeners.delete(listener);
    },
    setLink: async (up) => {
      const nowhere = `nats-leaf://127.0.0.1:${await freePort()}`;
      writeHubConfig(files, listen, hashSecret(secret), chain(up ? central.leafUrl : nowhere), null, keeperHash);
      await supervisor.stop();
      supervisor = supervise();
      const again = await supervisor.start();
      if (!again.running) throw new Error(`store hub did not restart: ${again.problem}`);
    },
  };
  const summarySender = startNorthSender({ nc: hubConnection.nc, now: Date.now, everyMs, build: (stamp) => ({ kind: 'summary', storeId, ...stamp, ...store.summary }) });
  cleanup.add(() => summarySender.close());
  return store;
}

/** Asks `probe` every 200 ms until it gives a value (not null, not an error); fails after `timeoutMs`, naming `what`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe().catch(() => null);
    if (value !== null) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A round trip from `nc` at the centre through a store's link, with what the centre may do there
 * (an ephemeral consumer on the store's north stream, made and deleted). Whatever `nc` sent the
 * store before it (a subscription's interest, a message the link should refuse) has reached the
 * store's hub by the time the answer is here: one connection and one link keep their order.
 */
export async function roundTripThrough(nc: NatsConnection, storeId: string): Promise<void> {
  const inbox = `${DELIVER_PREFIX}.${storeId}.${createInbox().split('.').pop()!}`;
  const config = { deliver_subject: inbox, deliver_policy: 'new', ack_policy: 'none', inactive_threshold: nanos(5_000) };
  const reply = await nc.request(`$JS.${storeId}.API.CONSUMER.CREATE.PACKDESK_NORTH`, JSON.stringify({ stream_name: 'PACKDESK_NORTH', config }), { timeout: 5_000 });
  const made = JSON.parse(new TextDecoder().decode(reply.data)) as { name?: string; error?: { description?: string } };
  if (!made.name) throw new Error(`${storeId} did not make the consumer: ${made.error?.description ?? 'no reason given'}`);
  nc.publish(`$JS.${storeId}.API.CONSUMER.DELETE.PACKDESK_NORTH.${made.name}`, '');
}
