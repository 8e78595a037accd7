/**
 * Plain messages on the hub and what its JetStream says of itself: what the chain's senders need of
 * NATS beyond buckets (chain/north-sender.ts, chain/counter-north.ts), kept here with the rest of
 * the client so the chain's rules speak in subjects and words, not in the client's types.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { headers, type NatsConnection } from '@nats-io/transport-node';

/**
 * Publishes `text` on `subject` with these headers (a message id, by which a stream drops a message
 * sent twice, and any others). False when the connection could not take it: it is closing.
 */
export function publishWithHeaders(nc: NatsConnection, subject: string, text: string, fields: Readonly<Record<string, string>>): boolean {
  const h = headers();
  for (const [name, value] of Object.entries(fields)) h.set(name, value);
  try {
    nc.publish(subject, text, { headers: h });
    return true;
  } catch {
    return false;
  }
}

/** The JetStream domain the hub runs in (a hub in a chain runs in its store's), or undefined. */
export async function jetStreamDomain(nc: NatsConnection, timeoutMs: number): Promise<string | undefined> {
  const jsm = await jetstreamManager(nc, { timeout: timeoutMs });
  return (await jsm.getAccountInfo()).domain;
}
