/**
 * The store's side of the fleet view: a sender that publishes one kind of north message every 10 s
 * and on change. Counters and the hub PC use it through the hub session; the fleet bench's
 * simulated stores use it as it is. A counter publishes in the store's account; the hub exports
 * exactly the store's own north subjects to the chain's account, where the north stream keeps them
 * while the link to the centre is down (the keeper makes it: chain/keeper.ts). No counter can reach
 * that stream, so a publish is not answered: a message the hub did not take is said again by the
 * next one (health is a heartbeat, not a record to keep).
 */
import { every, systemTimers, type Timers } from '../../time';
import type { NatsConnection } from '../nats/buckets';
import { publishWithHeaders } from '../nats/messages';
import { NORTH_EVERY_MS, type NorthMessage, NorthMessageSchema, northMessageId, northSubject } from './north';

/** Builds the next message; `seq` counts up from 1 for this sender, `runAt` is when it started. */
export type NorthBuilder = (stamp: { readonly seq: number; readonly runAt: number; readonly at: number }) => NorthMessage;

export interface NorthSenderOptions {
  readonly nc: NatsConnection;
  readonly build: NorthBuilder;
  readonly now: () => number;
  readonly timers?: Timers;
  readonly everyMs?: number;
  /** Headers beyond the message id (the fleet bench stamps the source a centre's stream would). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Sends one counter's health (or the store's summary) north, every 10 s and on change. */
export interface NorthSender {
  /** Sends now (the figures changed); false when the connection could not take it. */
  changed(): boolean;
  close(): void;
}

/** Publishes a north message with its id, by which the north stream drops a message sent twice. */
export function publishNorth(nc: NatsConnection, message: NorthMessage, extra: Readonly<Record<string, string>> = {}): boolean {
  // False when the connection closed: the sender is being stopped.
  return publishWithHeaders(nc, northSubject(message), JSON.stringify(message), { 'Nats-Msg-idSchema()': northMessageId(message), ...extra });
}

/** Starts sending: one message at once, then every `everyMs`. */
export function startNorthSender(options: NorthSenderOptions): NorthSender {
  const runAt = options.now();
  let seq = 0;
  let closed = false;

  const send = (): boolean => {
    if (closed) return false;
    seq += 1;
    return publishNorth(options.nc, NorthMessageSchema.parse(options.build({ seq, runAt, at: options.now() })), options.headers);
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
