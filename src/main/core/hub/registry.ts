/**
 * Everything the store hub keeps, declared once: each KV bucket and each stream, with its owner
 * (the module that writes it), how long it keeps what it holds, and who may read it. The hub's
 * nats.conf (its two accounts, what the store's account exports to the chain's and what the leaf
 * link may do) is generated from this list (server/accounts.ts), so a bucket added here is
 * the store's alone unless it says otherwise; a test fails when the hub holds anything not named
 * here (test/fleet/isolation.test.ts). See docs/fleet.md, "What the chain link reaches".
 */

/** Who may read a bucket or stream: the counters of this store only, or the chain's centre too. */
export type Reach = 'store' | 'chain';

/** A KV bucket in the store's account: counters only, never reachable over the chain link. */
export interface BucketDeclaration {
  readonly kind: 'bucket';
  readonly name: string;
  /** The module that writes it (where to look when it misbehaves). */
  readonly owner: string;
  /** What it holds, in words. */
  readonly holds: string;
  /** How long a value is kept; 0: until it is deleted. */
  readonly maxAgeMs: number;
  readonly history: number;
  readonly reach: 'store';
}

/**
 * A stream in the chain's account (what the leaf link lands in): fed only by the store's own
 * subjects, which the store's account exports to it; the centre may read it with an ephemeral
 * push consumer and do nothing else.
 */
export interface ChainStreamDeclaration {
  readonly kind: 'stream';
  readonly name: string;
  readonly owner: string;
  readonly holds: string;
  /** The subject prefix it takes, followed by `.<store id>`: only the store's own subjects feed it. */
  readonly prefix: string;
  /** `>` below the store's prefix (many subjects) or none (the store's one subject). */
  readonly below: boolean;
  readonly maxAgeMs: number;
  /** Only the newest N of each subject (0: all). */
  readonly perSubject: number;
  /** A resent message with the same id within this window is dropped (0: none). */
  readonly duplicateWindowMs: number;
  readonly reach: 'chain';
}

export type HubDeclaration = BucketDeclaration | ChainStreamDeclaration;

const DAY_MS = 24 * 3_600_000;

const bucket = (name: string, owner: string, holds: string, maxAgeMs: number, history = 1): BucketDeclaration => ({ kind: 'bucket', name, owner, holds, maxAgeMs, history, reach: 'store' });

export const ORDERS_BUCKET = 'packdesk-orders';
export const TAPS_BUCKET = 'packdesk-taps';
export const CLAIMS_BUCKET = 'packdesk-claims';
export const PRESENCE_BUCKET = 'packdesk-presence';
export const COUNTER_NAMES_BUCKET = 'packdesk_counter_names';
export const LEASE_BUCKET = 'packdesk-intake-lease';
export const STAFF_BUCKET = 'packdesk-staff';
export const TAUGHT_BUCKET = 'packdesk-taught';
export const SHIFT_BUCKET = 'packdesk-shift';
export const CHAIN_BUCKET = 'packdesk-chain';
export const CONFLICTS_BUCKET = 'packdesk-conflicts';
export const STORE_SETTINGS_BUCKET = 'packdesk-store-settings';
export const STORE_ALARMS_BUCKET = 'packdesk-alarms';

/** Every bucket the hub keeps. None is reachable from the chain. */
export const HUB_BUCKETS = {
  orders: bucket(ORDERS_BUCKET, 'shared-orders.ts', 'order bodies: customers’ names, phones, addresses, items', 7 * DAY_MS),
  taps: bucket(TAPS_BUCKET, 'shared-taps.ts', 'each counter’s taps not yet answered by the order service', DAY_MS),
  claims: bucket(CLAIMS_BUCKET, 'claims.ts', 'which counter (and packer) is packing which order', DAY_MS),
  presence: bucket(PRESENCE_BUCKET, 'presence.ts', 'each counter’s presence and figures', 7 * DAY_MS),
  counterNames: bucket(COUNTER_NAMES_BUCKET, 'counter-names.ts', 'the counters’ names, one counter each', 0),
  lease: bucket(LEASE_BUCKET, 'lease.ts', 'the intake lease: which counter polls the order service', 0),
  staff: bucket(STAFF_BUCKET, 'store-records.ts', 'packers’ names, badge codes, PIN hashes and salts', 0),
  taught: bucket(TAUGHT_BUCKET, 'store-records.ts', 'barcodes the store taught the terminal', 0),
  shift: bucket(SHIFT_BUCKET, 'store-records.ts', 'who packed which order, when', 4 * DAY_MS),
  chain: bucket(CHAIN_BUCKET, 'chain/shared-state.ts', 'the chain link’s state, for the other counters', 7 * DAY_MS),
  conflicts: bucket(CONFLICTS_BUCKET, 'conflicts.ts', 'orders packed at two counters while apart, and who settled them', 7 * DAY_MS),
  storeSettings: bucket(STORE_SETTINGS_BUCKET, 'store-settings.ts', 'what the store sets for every counter (scan to pack, claims’ quiet period)', 365 * DAY_MS),
  alarms: bucket(STORE_ALARMS_BUCKET, 'store-alarms.ts', 'orders cancelled or changed elsewhere that a counter has not acknowledged', 2 * DAY_MS),
} as const satisfies Record<string, BucketDeclaration>;

export const NORTH_STREAM = 'PACKDESK_NORTH';
export const OPEN_STREAM = 'PACKDESK_OPEN';
/** Every subject that flows north starts with this, then the store id. */
export const NORTH_PREFIX = 'packdesk.north';
export const OPEN_PREFIX = 'packdesk.open';

/** The streams the chain's centre reads, in the chain's account. */
export const CHAIN_STREAMS = {
  north: {
    kind: 'stream',
    name: NORTH_STREAM,
    owner: 'chain/north-sender.ts',
    holds: 'each counter’s health and the store’s summary in figures, kept while the link is down',
    prefix: NORTH_PREFIX,
    below: true,
    maxAgeMs: 7 * DAY_MS,
    perSubject: 0,
    duplicateWindowMs: 120_000,
    reach: 'chain',
  },
  open: {
    kind: 'stream',
    name: OPEN_STREAM,
    owner: 'chain/open-orders.ts',
    holds: 'the store’s open orders as ids, next steps and claiming counters, for the fleet page’s drill-down',
    prefix: OPEN_PREFIX,
    below: false,
    maxAgeMs: DAY_MS,
    perSubject: 1,
    duplicateWindowMs: 0,
    reach: 'chain',
  },
} as const satisfies Record<string, ChainStreamDeclaration>;

/** Everything the hub keeps, in one list. */
export const HUB_REGISTRY: readonly HubDeclaration[] = [...Object.values(HUB_BUCKETS), ...Object.values(CHAIN_STREAMS)];

/** The store's subject (or subjects, with `>`) that feed a chain stream. */
export function feedSubject(stream: ChainStreamDeclaration, storeId: string): string {
  return `${stream.prefix}.${storeId}${stream.below ? '.>' : ''}`;
}

/** The JetStream stream behind a bucket (`KV_<name>`): what the hub's stream listing shows for it. */
export function bucketStream(name: string): string {
  return `KV_${name}`;
}

/** Whether a stream the hub holds is one the registry names (a bucket's stream or a chain stream). */
export function declaredStream(streamName: string): HubDeclaration | null {
  return HUB_REGISTRY.find((d) => (d.kind === 'bucket' ? bucketStream(d.name) : d.name) === streamName) ?? null;
}
