/**
 * The store hub visited once from outside a session (a connection with the keychain's secret, closed
 * after), and the claims on some orders read without writing. For one-off commands (`packdesk
 * doctor`, `orders`, `claim`); who takes in orders and which counters are there is read-status.ts.
 * A claim's age is judged on the hub's stamp against this PC's clock, which is enough for a look
 * (a running session reads the hub's clock properly; see claims.ts).
 */
import { type Claim, claimSchema } from '../../../shared/hub';
import { type Bucket, type NatsConnection, openExistingBucket } from './nats/buckets';
import { CLAIMS_BUCKET } from './claims';
import { connectHub, type HubConnection, type HubProblem } from './nats/connection';
import type { HubConfig } from './hub-config';
import { keyOf } from './keys';
import { localTargetOf } from './membership';
import type { HubSecretStore } from './server';

export type HubVisit<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: HubProblem };

/** Connects to this PC's hub with the secret from the keychain, runs `use`, and closes the connection. */
export async function visitHub<T>(config: HubConfig, secrets: HubSecretStore, name: string, use: (connection: HubConnection) => Promise<T>): Promise<HubVisit<T>> {
  let secret: string | null;
  try {
    secret = await secrets.get();
  } catch (error) {
    return { ok: false, problem: { kind: 'other', message: `The keychain cannot be read: ${error instanceof Error ? error.message : String(error)}` } };
  }
  if (!secret) return { ok: false, problem: { kind: 'wrongSecret', message: "The store's secret is missing from the keychain; leave the store hub and join it again." } };
  const joined = await connectHub(localTargetOf(config, secret), { timeoutMs: 3000, name: `${config.counterName} (${name})` });
  if (!joined.ok) return joined;
  try {
    return { ok: true, value: await use(joined.connection) };
  } catch (error) {
    // The hub answered but a read failed (a bucket not made yet, a timeout): said, never thrown at a one-off command.
    return { ok: false, problem: { kind: 'other', message: `The store hub answered but could not be read: ${error instanceof Error ? error.message : String(error)}` } };
  } finally {
    await joined.connection.close().catch(() => undefined);
  }
}

/** A bucket as it is on the hub, or null when no counter has made it yet: a look makes nothing. */
async function existing(nc: NatsConnection, name: string): Promise<Bucket | null> {
  try {
    const kv = await openExistingBucket(nc, name);
    await kv.status();
    return kv;
  } catch {
    return null;
  }
}

/** A claim entry's value, or null when it is not one. */
function claimIn(text: string): Claim | null {
  try {
    const r = claimSchema().safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** The live claims on these orders (an order without one is left out). */
export async function readClaims(nc: NatsConnection, orderIds: readonly string[], now: number): Promise<Map<string, Claim>> {
  const kv = await existing(nc, CLAIMS_BUCKET);
  const claims = new Map<string, Claim>();
  if (!kv) return claims;
  for (const orderId of orderIds) {
    const entry = await kv.get(keyOf(orderId));
    const claim = entry && entry.operation === 'PUT' ? claimIn(entry.string()) : null;
    // A claim lapses a quiet period after the hub's stamp on its last renewal.
    if (entry && claim && entry.created.getTime() + (claim.expiresAt - claim.renewedAt) > now) claims.set(orderId, claim);
  }
  return claims;
}
