/**
 * The store's side of the fleet view: the stream on the store hub that keeps what flows north while
 * the link to the centre is down (the centre sources it across domains and catches up by itself),
 * and a sender that publishes one kind of north message every 10 s and on change. Counters and the
 * hub PC use it through the hub session; the fleet bench's simulated stores use it as it is.
 */
import { jetstream, jetstreamManager, type JetStreamClient, StorageType } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { every, systemTimers, type Timers } from '../main/core/time';
import { NORTH_EVERY_MS, NORTH_KEEP_MS, NORTH_PREFIX, NORTH_STREAM, type NorthMessage, NorthMessageSchema, northMessageId, northSubject } from './north';

/** A publish to the store hub waits this long (the hub is on the store's LAN). */
const PUBLISH_TIMEOUT_MS = 2_000;

/** Makes (or keeps) the north stream on the store hub this connection reaches, in the store's own domain. */
export async function ensureNorthStream(nc: NatsConnection): Promise<void> {
  const jsm = await jetstreamManager(nc, { timeout: PUBLISH_TIMEOUT_MS });
  const config = {
    name: NORTH_STREAM,
    subjects: [`${NORTH_PREFIX}.>`],
    storage: StorageType.File,
    max_age: nanos(NORTH_KEEP_MS),
    // A publish retried after a lost answer is dropped by its message id.
    duplicate_window: nanos(120_000),
  };
  try {
    await jsm.streams.info(NORTH_STREAM);
    await jsm.streams.update(NORTH_STREAM, config);
  } catch {
    await jsm.streams.add(config);
  }
}

/** Builds the next message; `seq` counts up from 1 for this sender, `runAt` is when it started. */
export type NorthBuilder = (stamp: { readonly seq: number; readonly runAt: number; readonly at: number }) => NorthMessage;

export interface NorthSenderOptions {
  readonly nc: NatsConnection;
  readonly build: NorthBuilder;
  readonly now: () => number;
  readonly timers?: Timers;
  readonly everyMs?: number;
}

/** Sends one counter's health (or the store's summary) north, every 10 s and on change. */
export interface NorthSender {
  /** Sends now (the figures changed); false when the hub did not take it. */
  changed(): Promise<boolean>;
  close(): void;
}

/** Starts sending: one message at once, then every `everyMs`. */
export function startNorthSender(options: NorthSenderOptions): NorthSender {
  const js: JetStreamClient = jetstream(options.nc, { timeout: PUBLISH_TIMEOUT_MS });
  const runAt = options.now();
  let seq = 0;
  let closed = false;

  const send = async (): Promise<boolean> => {
    if (closed) return false;
    seq += 1;
    const message = NorthMessageSchema.parse(options.build({ seq, runAt, at: options.now() }));
    try {
      await js.publish(northSubject(message), JSON.stringify(message), { msgID: northMessageId(message) });
      return true;
    } catch {
      // The hub away: the next message says it again (health is a heartbeat, not a record to keep).
      return false;
    }
  };

  // The first message goes after the caller has its sender in hand (its builder may refer to it).
  void Promise.resolve().then(send);
  const stop = every(options.timers ?? systemTimers, options.everyMs ?? NORTH_EVERY_MS, () => void send());
  return {
    changed: send,
    close: () => {
      closed = true;
      stop();
    },
  };
}
