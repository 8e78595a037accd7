/**
 * The centre's side: the fleet stream that sources every store hub's north stream across domains
 * (JetStream fetches what a store kept while its link was down, once the link returns, and drops
 * nothing and doubles nothing), and reading the newest message of each counter and store from it.
 * The fleet tool only reads; nothing here can reach an order.
 */
import { jetstreamManager, type JetStreamManager, type StreamSource, StorageType } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { FLEET_STREAM, NORTH_KEEP_MS, NORTH_PREFIX, NORTH_STREAM, type NorthMessage, type StoreId, StoreIdSchema } from '../main/core/hub/chain/north';
import { believe, storeOfSource } from './belief';
import { countRefusal, type Refusal, type RefusalCounts } from './refusals';

const API_TIMEOUT_MS = 5_000;
/** How many messages are asked for at once when reading the newest of each subject. */
const READ_BATCH = 64;

/**
 * Where the fleet stream reads a store from. By default straight from the store hub's north stream
 * through its domain. With `throughAccount` (the deployment of docs/fleet.md, "Stores apart at the
 * centre"): from the copy the store's own account at the centre keeps (`NORTH_<store id>`, which
 * sources the hub), through the services that account exports to the fleet's: its flow control
 * subjects are then the store's own, which two stores' sources sharing one name could not be.
 */
export interface StoreSource {
  readonly storeId: StoreId;
  /** The stream the fleet stream sources: the hub's PACKDESK_NORTH, or the store account's NORTH_<id>. */
  readonly name: string;
}

/** The stream a store's own account at the centre keeps (deployment "Stores apart at the centre"). */
export const accountNorthStream = (storeId: StoreId): string => `NORTH_${storeId}`;
/** Deliveries from a store to the fleet's account travel under this prefix, then the store id (exported by the store's account). */
export const DELIVER_PREFIX = 'fleet.deliver';

function streamSource(storeId: StoreId, throughAccount: boolean): StreamSource {
  return throughAccount
    ? { name: accountNorthStream(storeId), external: { api: `$JS.${storeId}.API`, deliver: `${DELIVER_PREFIX}.${storeId}` } }
    : { name: NORTH_STREAM, external: { api: `$JS.${storeId}.API`, deliver: '' } };
}

/** The stores the fleet stream sources, read back from its config. */
function sourcedStores(sources: readonly StreamSource[] | undefined): StoreSource[] {
  return (sources ?? []).flatMap((s) => {
    const match = /^\$JS\.([^.]+)\.API$/.exec(s.external?.api ?? '');
    return match?.[1] ? [{ storeId: match[1], name: s.name }] : [];
  });
}

/**
 * Makes (or extends) the fleet stream so it sources these stores; stores already sourced are kept
 * as they are. `throughAccount`: the new ones are read from their accounts' copies. Returns every store sourced.
 */
export async function ensureFleetStream(nc: NatsConnection, storeIds: readonly string[], throughAccount = false): Promise<StoreId[]> {
  const wanted = storeIds.map((id) => StoreIdSchema.parse(id));
  const jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
  const existing = await jsm.streams.info(FLEET_STREAM).catch(() => null);
  const kept = existing?.config.sources ?? [];
  const known = new Set(sourcedStores(kept).map((s) => s.storeId));
  const sources = [...kept, ...[...new Set(wanted)].filter((id) => !known.has(id)).map((id) => streamSource(id, throughAccount))];
  sources.sort((a, b) => (a.external?.api ?? '').localeCompare(b.external?.api ?? ''));
  const config = {
    name: FLEET_STREAM,
    storage: StorageType.File,
    max_age: nanos(NORTH_KEEP_MS),
    sources,
  };
  if (existing) await jsm.streams.update(FLEET_STREAM, config);
  else await jsm.streams.add(config);
  return sourcedStores(sources).map((s) => s.storeId).sort();
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
  /** Subjects whose newest message the centre did not believe (belief.ts), by why. */
  readonly refused: RefusalCounts;
}

/** The stores the fleet stream sources, with the stream each is read from (a store added later is believed from the next read). */
export async function readFleetSources(nc: NatsConnection): Promise<StoreSource[]> {
  const jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
  return sourcedStores((await jsm.streams.info(FLEET_STREAM)).config.sources);
}

/** Reads the newest message of every subject in the fleet stream; a message the centre does not believe is counted, not kept. */
export async function readFleet(nc: NatsConnection, options: { readonly sources?: readonly StoreSource[] } = {}): Promise<FleetReading> {
  const jsm = await jetstreamManager(nc, { timeout: API_TIMEOUT_MS });
  return readFleetWith(jsm, options.sources);
}

/** `given`: the stores to believe; by default those the fleet stream sources (the fleet bench names its simulated ones). */
async function readFleetWith(jsm: JetStreamManager, given?: readonly StoreSource[]): Promise<FleetReading> {
  const info = await jsm.streams.info(FLEET_STREAM, { subjects_filter: `${NORTH_PREFIX}.>` });
  const sources = given ?? sourcedStores(info.config.sources);
  const stores = sources.map((s) => s.storeId);
  const storeOf = storeOfSource(sources);
  const subjects = Object.keys(info.state.subjects ?? {}).sort();
  const latest: Arrived[] = [];
  const refused: Partial<Record<Refusal, number>> = {};
  for (let i = 0; i < subjects.length; i += READ_BATCH) {
    const batch = subjects.slice(i, i + READ_BATCH);
    const got = await Promise.all(batch.map((subject) => jsm.streams.getMessage(FLEET_STREAM, { last_by_subj: subject }).catch(() => null)));
    for (const stored of got) {
      if (!stored) continue;
      const belief = believe({ subject: stored.subject, data: stored.data, source: stored.header?.get(SOURCE_HEADER) ?? null }, storeOf);
      if (belief.ok) latest.push({ message: belief.message, arrivedAt: stored.time.getTime() });
      else countRefusal(refused, belief.why);
    }
  }
  return { stores, latest, refused };
}

/** The header nats-server stamps on a sourced message, naming its source. */
export const SOURCE_HEADER = 'Nats-Stream-Source';

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
