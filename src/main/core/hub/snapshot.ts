/**
 * The store hub read once, from outside a session: who takes in orders, which counters are there,
 * and the claims on some orders. For one-off commands (`packdesk doctor`, `orders`, `claim`) that
 * must not join the lease contest or write a presence of their own. Ages are judged on the hub's
 * stamps against this PC's clock, which is enough for a look (a running session reads the hub's
 * clock properly; see claims.ts).
 */
import { jetstream } from '@nats-io/jetstream';
import { type KV, type KvEntry, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { type Claim, ClaimSchema, type CounterView, CounterPresenceSchema } from '../../../shared/hub';
import { WRITE_TIMEOUT_MS } from './buckets';
import { CLAIMS_BUCKET } from './claims';
import { connectHub, type HubConnection, type HubProblem } from './connection';
import type { HubConfig } from './hub-config';
import { keyOf } from './keys';
import { DEFAULT_LEASE_MS, LEASE_BUCKET, LEASE_KEY, LeaseValueSchema, type LeaseHolder } from './lease';
import { localTargetOf } from './membership';
import { PRESENCE_BUCKET, PRESENCE_WINDOW_MS } from './presence';
import type { HubSecretStore } from './server';

/** The hub as read once. */
export interface HubSnapshot {
  readonly intakeHolder: LeaseHolder | null;
  readonly counters: readonly CounterView[];
}

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
  } finally {
    await joined.connection.close().catch(() => undefined);
  }
}

/** A bucket as it is on the hub, or null when no counter has made it yet: a look makes nothing. */
async function existing(nc: NatsConnection, name: string): Promise<KV | null> {
  try {
    const kv = await new Kvm(jetstream(nc, { timeout: WRITE_TIMEOUT_MS })).open(name);
    await kv.status();
    return kv;
  } catch {
    return null;
  }
}

/** The entries of a bucket. */
async function entries(kv: KV): Promise<KvEntry[]> {
  const found: KvEntry[] = [];
  for await (const key of await kv.keys()) {
    const entry = await kv.get(key);
    if (entry && entry.operation === 'PUT') found.push(entry);
  }
  return found;
}

const parsed = <T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, entry: KvEntry): T | null => {
  try {
    const r = schema.safeParse(entry.json());
    return r.success ? r.data : null;
  } catch {
    return null;
  }
};

/** Who takes in orders and which counters are there, as the hub holds it now. */
export async function readHubSnapshot(nc: NatsConnection, me: string, now: number): Promise<HubSnapshot> {
  const lease = await existing(nc, LEASE_BUCKET);
  const held = lease ? await lease.get(LEASE_KEY).catch(() => null) : null;
  // An unrenewed lease is nobody's: the holder renews every second.
  const value = held && held.operation === 'PUT' && now - held.created.getTime() < DEFAULT_LEASE_MS ? parsed(LeaseValueSchema, held) : null;
  const intakeHolder = value ? { counterId: value.counterId, counterName: value.counterName } : null;
  const presence = await existing(nc, PRESENCE_BUCKET);
  const counters = (presence ? await entries(presence) : []).flatMap((entry) => {
    const p = parsed(CounterPresenceSchema, entry);
    if (!p || p.counterId !== entry.key) return [];
    return [{ ...p, present: now - entry.created.getTime() < PRESENCE_WINDOW_MS, isThisCounter: p.counterId === me, holdsIntake: p.counterId === intakeHolder?.counterId }];
  });
  counters.sort((a, b) => Number(b.isThisCounter) - Number(a.isThisCounter) || a.counterName.localeCompare(b.counterName));
  return { intakeHolder, counters };
}

/** The live claims on these orders (an order without one is left out). */
export async function readClaims(nc: NatsConnection, orderIds: readonly string[], now: number): Promise<Map<string, Claim>> {
  const kv = await existing(nc, CLAIMS_BUCKET);
  const claims = new Map<string, Claim>();
  if (!kv) return claims;
  for (const orderId of orderIds) {
    const entry = await kv.get(keyOf(orderId));
    const claim = entry && entry.operation === 'PUT' ? parsed(ClaimSchema, entry) : null;
    // A claim lapses a quiet period after the hub's stamp on its last renewal.
    if (entry && claim && entry.created.getTime() + (claim.expiresAt - claim.renewedAt) > now) claims.set(orderId, claim);
  }
  return claims;
}
