/**
 * The keeper of the chain's account, on the hub PC of a store in a chain: it logs in as the one
 * local user of that account (a password made for this run of the app, never written down), makes
 * the chain streams the registry declares, fed only by this store's subjects, and clears the
 * consumers the chain may not keep there: anything but an ephemeral push consumer with a short
 * inactivity limit (the centre's source and its drill-downs). The chain link already refuses a
 * durable's creation; this holds too on a newer nats-server that might take one.
 */
import { randomBytes } from 'node:crypto';
import { type ConsumerInfo, jetstreamManager, type JetStreamManager, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { Logger } from '../../log';
import { every, type Timers } from '../../time';
import type { HubConnection, HubConnectResult } from '../nats/connection';
import { CHAIN_STREAMS, type ChainStreamDeclaration, feedSubject } from '../registry';

/** A consumer of the chain idle longer than this is not one the centre needs (its source and drill-downs use seconds). */
export const CHAIN_CONSUMER_IDLE_MAX_MS = 10 * 60_000;
/** How often the consumers are looked at. */
export const KEEPER_SWEEP_MS = 30_000;
/** How soon a keeper that could not log in or make the streams tries again. */
const RETRY_MS = 2_000;
const API_TIMEOUT_MS = 3_000;

/** A fresh password for the keeper: 32 random bytes, for this run only. */
export function newKeeperPassword(): string {
  return randomBytes(32).toString('base64url');
}

/** The stream a chain declaration makes on this store's hub. */
export function chainStreamConfig(stream: ChainStreamDeclaration, storeId: string) {
  return {
    name: stream.name,
    subjects: [feedSubject(stream, storeId)],
    storage: StorageType.File,
    max_age: nanos(stream.maxAgeMs),
    ...(stream.perSubject > 0 ? { max_msgs_per_subject: stream.perSubject } : {}),
    ...(stream.duplicateWindowMs > 0 ? { duplicate_window: nanos(stream.duplicateWindowMs) } : {}),
  };
}

/** Makes (or brings up to date) the chain streams of this store. */
export async function ensureChainStreams(jsm: JetStreamManager, storeId: string): Promise<void> {
  for (const stream of Object.values(CHAIN_STREAMS)) {
    const config = chainStreamConfig(stream, storeId);
    const existing = await jsm.streams.info(stream.name).catch(() => null);
    if (existing) await jsm.streams.update(stream.name, config);
    else await jsm.streams.add(config);
  }
}

/** Why a consumer may not stay in the chain's account, or null when it may. */
export function consumerRefusal(info: Pick<ConsumerInfo, 'config'>): string | null {
  const config = info.config;
  if (config.durable_name) return 'durable';
  if (!config.deliver_subject) return 'pull';
  const idle = config.inactive_threshold ?? 0;
  if (idle > nanos(CHAIN_CONSUMER_IDLE_MAX_MS)) return 'kept idle too long';
  return null;
}

/** Deletes the consumers of the chain streams that may not stay; returns how many. */
export async function sweepChainConsumers(jsm: JetStreamManager, log: Logger): Promise<number> {
  let cleared = 0;
  for (const stream of Object.values(CHAIN_STREAMS)) {
    // The server lists a consumer being deleted at that moment as null (seen under a flood).
    const consumers = (await jsm.consumers.list(stream.name).next()) as (ConsumerInfo | null)[];
    for (const consumer of consumers) {
      if (!consumer) continue;
      const why = consumerRefusal(consumer);
      if (!why) continue;
      await jsm.consumers.delete(stream.name, consumer.name).catch(() => false);
      cleared += 1;
      log.warn('removed a consumer the chain may not keep on this store', { stream: stream.name, consumer: consumer.name, why });
    }
  }
  return cleared;
}

export interface ChainKeeperOptions {
  readonly storeId: string;
  /** Connects as the keeper (host, pin and this run's password). */
  readonly connect: () => Promise<HubConnectResult>;
  readonly timers: Timers;
  readonly log: Logger;
  readonly sweepEveryMs?: number;
}

export interface ChainKeeper {
  /** Consumers removed since the keeper started. */
  cleared(): number;
  /** Whether the chain streams were made since the keeper (re)connected. */
  ready(): boolean;
  stop(): Promise<void>;
}

/** Starts keeping the chain's account: connects (again, until it can), makes the streams, sweeps every 30 s. */
export function startChainKeeper(options: ChainKeeperOptions): ChainKeeper {
  const log = options.log.child('chain-keeper');
  let connection: HubConnection | null = null;
  let connecting = false;
  let ready = false;
  let cleared = 0;
  let stopped = false;
  let sinceSweep = Number.POSITIVE_INFINITY;
  const sweepEveryMs = options.sweepEveryMs ?? KEEPER_SWEEP_MS;

  const tick = async (): Promise<void> => {
    if (stopped) return;
    sinceSweep += RETRY_MS;
    if (ready && sinceSweep < sweepEveryMs) return;
    if (!connection) {
      if (connecting) return;
      connecting = true;
      const made = await options.connect().finally(() => (connecting = false));
      if (!made.ok) return;
      if (stopped) return void made.connection.close();
      connection = made.connection;
      // The hub restarted (its streams are on disk): they are looked at again at the next tick.
      connection.onStatus((status) => {
        if (status.state !== 'connected') ready = false;
      });
    }
    try {
      const jsm = await jetstreamManager(connection.nc, { timeout: API_TIMEOUT_MS });
      if (!ready) {
        await ensureChainStreams(jsm, options.storeId);
        ready = true;
      }
      sinceSweep = 0;
      cleared += await sweepChainConsumers(jsm, log);
    } catch (error) {
      log.warn('the chain streams could not be looked after this time', { error });
    }
  };

  let running: Promise<void> = tick();
  const stop = every(options.timers, Math.min(RETRY_MS, sweepEveryMs), () => {
    running = running.then(tick);
  });
  return {
    cleared: () => cleared,
    ready: () => ready,
    stop: async () => {
      stopped = true;
      stop();
      await running.catch(() => undefined);
      await connection?.close();
    },
  };
}
