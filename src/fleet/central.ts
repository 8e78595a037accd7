/**
 * The centre's side: the fleet stream that sources every store hub's north stream across domains
 * (JetStream fetches what a store kept while its link was down, once the link returns, and drops
 * nothing and doubles nothing), and reading the newest message of each counter and store from it.
 * The fleet tool only reads; nothing here can reach an order.
 */
import { jetstreamManager, type JetStreamManager, type StreamSource, StorageType } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { FLEET_STREAM, NORTH_KEEP_MS, NORTH_PREFIX, NORTH_STREAM, type NorthMessage, NorthMessageSchema, type StoreId, StoreIdSchema } from './north';

const API_TIMEOUT_MS = 5_000;
/** How many messages are asked for at once when reading the newest of each subject. */
const READ_BATCH = 64;

/** One store hub's north stream, as a source of the fleet stream (its domain is the store id). */
function storeSource(storeId: StoreId): StreamSource {
  return { name: NORTH_STREAM, external: { api: `$JS.${storeId}.API`, deliver: '' } };
}

/** The store ids the fleet stream sources, read back from its config. */
function sourcedStores(sources: readonly StreamSource[] | undefined): StoreId[] {
  return (sources ?? []).flatMap((s) => {
    const match = /^\$JS\.([^.]+)\.API$/.exec(s.external?.api ?? '');
    return match?.[1] ? [match[1]] : [];
  });
}

/** Makes (or extends) the fleet stream so it sources these stores; stores already sourced are kept. Returns every store sourced. */
export async function ensureFleetStream(nc: NatsConnection, storeIds: readonly string[]): Promise<StoreId[]> {
  const wanted = storeIds.map((id) => StoreIdSchema.parse(id));
  const jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
  const existing = await jsm.streams.info(FLEET_STREAM).catch(() => null);
  const stores = [...new Set([...sourcedStores(existing?.config.sources), ...wanted])].sort();
  const config = {
    name: FLEET_STREAM,
    storage: StorageType.File,
    max_age: nanos(NORTH_KEEP_MS),
    sources: stores.map(storeSource),
  };
  if (existing) await jsm.streams.update(FLEET_STREAM, config);
  else await jsm.streams.add(config);
  return stores;
}

/** A north message as the centre holds it, with when it arrived there (the centre's clock). */
export interface Arrived {
  readonly message: NorthMessage;
  readonly arrivedAt: number;
}

/** What the centre holds: the newest message of each counter and each store summary, and the stores it sources. */
export interface FleetReading {
  readonly stores: readonly StoreId[];
  readonly latest: readonly Arrived[];
}

/** Reads the newest message of every subject in the fleet stream (a message that fails its schema is skipped). */
export async function readFleet(nc: NatsConnection): Promise<FleetReading> {
  const jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
  return readFleetWith(jsm);
}

async function readFleetWith(jsm: JetStreamManager): Promise<FleetReading> {
  const info = await jsm.streams.info(FLEET_STREAM, { subjects_filter: `${NORTH_PREFIX}.>` });
  const subjects = Object.keys(info.state.subjects ?? {}).sort();
  const latest: Arrived[] = [];
  for (let i = 0; i < subjects.length; i += READ_BATCH) {
    const batch = subjects.slice(i, i + READ_BATCH);
    const got = await Promise.all(batch.map((subject) => jsm.streams.getMessage(FLEET_STREAM, { last_by_subj: subject }).catch(() => null)));
    for (const stored of got) {
      if (!stored) continue;
      const parsed = NorthMessageSchema.safeParse(safeJson(stored.data));
      if (parsed.success) latest.push({ message: parsed.data, arrivedAt: stored.time.getTime() });
    }
  }
  return { stores: sourcedStores(info.config.sources), latest };
}

/** Every message the fleet stream holds, oldest first, with the centre's arrival time (tests and audits read all of it). */
export async function readAllNorth(nc: NatsConnection): Promise<{ raw: string; arrivedAt: number }[]> {
  const jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
  const info = await jsm.streams.info(FLEET_STREAM);
  const out: { raw: string; arrivedAt: number }[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq += 1) {
    const stored = await jsm.streams.getMessage(FLEET_STREAM, { seq }).catch(() => null);
    if (stored) out.push({ raw: new TextDecoder().decode(stored.data), arrivedAt: stored.time.getTime() });
  }
  return out;
}

/** JSON of a message's data, or null when it is not JSON (then its schema refuses it). */
export function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(data));
  } catch {
    return null;
  }
}
