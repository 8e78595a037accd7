/**
 * Order bodies shared through the store hub: the lease holder's intake stores a body locally as
 * ever, then puts it into the hub with `create` (new) or `update` at the revision it read, so two
 * intakes overlapping during a hand-over can neither double an order nor replace a newer body
 * (the one newer-body rule, db/orders-table's `supersedes`). Every counter watches the bucket and
 * stores each body in its own SQLite through its ports; the ones new to it ring the new-order alert.
 * The hub is outside the process: every value read back passes OrderSchema, and one that does not
 * is logged and skipped. A body the hub could not take is put again until it does, since a KV write
 * while the hub is away is never replayed by the client.
 */
import { type Order, OrderSchema } from '../../../shared/protocol/schemas';
import { supersedes } from '../db/orders-table';
import { type Logger, silentLogger } from '../log';
import type { Timers } from '../time';
import { type BucketEntry, type BucketSource, isRevisionConflict, reopeningBucket } from './nats/buckets';
import type { CounterPorts } from './ports';
import { HUB_BUCKETS, ORDERS_BUCKET } from './registry';

export { ORDERS_BUCKET };
/**
 * Bodies untouched for a week leave the hub. Every counter keeps its own copy in SQLite (and drops
 * finished orders itself after three days), so the hub only has to carry a body long enough for a
 * counter that was switched off (a long weekend, a week's leave of the PC) to catch up from the
 * watch when it returns; a change to an order writes it again and restarts its week. A week of a
 * busy store's orders at 2 KB each is a few MB. Expiry raises no watch event, which is right: it
 * must not remove anything from a counter.
 */
export const ORDERS_MAX_AGE_MS = HUB_BUCKETS.orders.maxAgeMs;
/** Only the newest body of an order matters (revision-checked writes need no more); one keeps the store small. */
export const ORDERS_HISTORY = HUB_BUCKETS.orders.history;
/** Bodies heard together are stored in one transaction. */
const GATHER_MS = 5;
/** A body the hub did not take, or a store that failed, is tried again after this. */
const RETRY_MS = 2_000;
/** Revision races lost in a row before a body waits for the retry (each loss means another counter wrote it just now). */
const RACES = 4;

/** An order id as a KV key, losslessly: letters, digits and '-' as they are; every other UTF-8 byte as `_XX`. */
export function orderKey(orderId: string): string {
  let key = '';
  for (const byte of Buffer.from(orderId, 'utf8')) {
    const c = String.fromCharCode(byte);
    key += /[A-Za-z0-9-]/.test(c) ? c : `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return key;
}

/** The order id a key stands for, or null when the key is not one orderKey makes. */
export function orderIdOfKey(key: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < key.length; ) {
    const c = key[i]!;
    if (c === '_') {
      const hex = key.slice(i + 1, i + 3);
      if (!/^[0-9A-F]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else if (/[A-Za-z0-9-]/.test(c)) {
      bytes.push(c.charCodeAt(0));
      i += 1;
    } else return null;
  }
  const id = Buffer.from(bytes).toString('utf8');
  return orderKey(id) === key ? id : null;
}

/** What putting one body into the hub came to. */
export type PutOutcome = 'created' | 'updated' | 'kept' | 'failed';

export interface SharedOrdersOptions {
  readonly now: () => number;
  readonly timers: Timers;
  readonly log?: Logger;
  /** The order service's now, on which a body's stamp is judged (default `now`). */
  readonly serviceNow?: () => number;
  /** Bodies from the hub stored here: the ids whose bodies changed, and those new to this counter. */
  readonly onStored: (orderIds: readonly string[], newIds: readonly string[]) => void;
  /** Deadline of one write to the hub (default 2 s). */
  readonly writeTimeoutMs?: number;
  /** The bucket's name (tests may run several stores on one server). */
  readonly bucket?: string;
}

export interface SharedOrders {
  /** Puts the bodies this counter holds for these ids into the hub; a body it could not put is tried again later by itself. */
  publish(orderIds: readonly string[]): Promise<ReadonlyMap<string, PutOutcome>>;
  /** Resolves once the watch has delivered every body the hub held when it began (a counter caught up). */
  caughtUp(): Promise<void>;
  /** Stops watching and retrying. */
  close(): Promise<void>;
}

/** Starts watching the hub's order bodies into this counter; the bucket is opened (again) until it answers. */
export function startSharedOrders(
  source: BucketSource,
  ports: Pick<CounterPorts, 'saveOrders' | 'bodies'>,
  options: SharedOrdersOptions,
): SharedOrders {
  const log = (options.log ?? silentLogger).child('shared-orders');
  const serviceNow = options.serviceNow ?? options.now;
  const writeTimeoutMs = options.writeTimeoutMs ?? 2_000;
  let closed = false;
  let watching: { stop(): void } | null = null;
  let watchFailures = 0;
  let heard = new Map<string, Order>();
  let gathering: unknown = null;
  let retrying: unknown = null;
  const unpublished = new Set<string>();
  let markCaughtUp: () => void = () => undefined;
  let caughtUpOnStore = false;
  const caughtUp = new Promise<void>((resolve) => {
    markCaughtUp = resolve;
  });

  const bucketKv = reopeningBucket(source, HUB_BUCKETS.orders, { ...(options.bucket ? { name: options.bucket } : {}), timeoutMs: writeTimeoutMs });

  const later = (fn: () => void, ms: number): unknown => options.timers.setTimeout(fn, ms);

  /** Stores what the watch delivered, in one transaction; kept and tried again when the data file refuses it. */
  const store = (): void => {
    gathering = null;
    if (closed || heard.size === 0) return;
    const batch = heard;
    heard = new Map();
    const orders = [...batch.values()];
    let results: readonly ('new' | 'updated' | 'unchanged')[];
    try {
      results = ports.saveOrders(orders, options.now());
    } catch (e) {
      log.error('order bodies from the hub could not be stored; trying again', { error: e, count: orders.length });
      for (const [id, order] of batch) if (!heard.has(id)) heard.set(id, order);
      gathering = later(store, RETRY_MS);
      return;
    }
    const changed = orders.filter((_, i) => results[i] !== 'unchanged').map((o) => o.id);
    const fresh = orders.filter((_, i) => results[i] === 'new').map((o) => o.id);
    if (changed.length > 0) options.onStored(changed, fresh);
    if (caughtUpOnStore) {
      caughtUpOnStore = false;
      markCaughtUp();
    }
  };

  const hear = (entry: BucketEntry): void => {
    if (entry.operation !== 'PUT') return;
    const order = readBody(entry, log);
    if (!order) return;
    heard.set(order.id, order);
    gathering ??= later(store, GATHER_MS);
  };

  const watch = async (): Promise<void> => {
    if (closed) return;
    try {
      const store = await bucketKv();
      if ((await store.status()).values === 0) markCaughtUp();
      // With no history asked for, the watch begins with each key's newest body: a counter catches up.
      const iterator = await store.watch();
      if (closed) return iterator.stop();
      watching = iterator;
      watchFailures = 0;
      for await (const entry of iterator) {
        hear(entry);
        // The last of the bodies held when the watch began comes marked as an update.
        if (entry.isUpdate) {
          if (gathering === null) markCaughtUp();
          else caughtUpOnStore = true;
        }
      }
    } catch (e) {
      // Said once per spell of failures: while the hub is away this repeats every 2 s.
      if (watchFailures++ === 0) log.warn('watching order bodies in the hub failed; trying again', { error: e });
      else log.debug('watching order bodies in the hub failed again', { error: e });
    }
    watching = null;
    // The watch ended without close(): the hub went away for good or the bucket was removed.
    if (!closed) later(() => void watch(), RETRY_MS);
  };

  const put = async (order: Order): Promise<PutOutcome> => {
    const store = await bucketKv();
    const key = orderKey(order.id);
    const text = JSON.stringify(order);
    for (let race = 0; race < RACES; race++) {
      const entry = await store.get(key);
      try {
        if (!entry || entry.operation !== 'PUT') {
          await store.create(key, text);
          return 'created';
        }
        if (entry.string() === text) return 'kept';
        const held = readBody(entry, log);
        if (held && !supersedes(order, held, serviceNow())) return 'kept';
        await store.update(key, text, entry.revision, writeTimeoutMs);
        return 'updated';
      } catch (e) {
        if (!isRevisionConflict(e)) throw e;
        // Another counter wrote this order just now: read what it wrote and judge again.
      }
    }
    return 'failed';
  };

  const publish = async (orderIds: readonly string[]): Promise<Map<string, PutOutcome>> => {
    const outcomes = new Map<string, PutOutcome>();
    for (const order of ports.bodies(orderIds)) {
      let outcome: PutOutcome;
      try {
        outcome = await put(order);
      } catch (e) {
        log.debug('an order body was not put into the hub; trying again', { orderId: order.id, error: e });
        outcome = 'failed';
      }
      outcomes.set(order.id, outcome);
      if (outcome === 'failed') unpublished.add(order.id);
      else unpublished.delete(order.id);
    }
    if (unpublished.size > 0 && retrying === null && !closed) {
      retrying = later(() => {
        retrying = null;
        void publish([...unpublished]);
      }, RETRY_MS);
    }
    return outcomes;
  };

  void watch();

  return {
    publish: (orderIds) => publish(orderIds),
    caughtUp: () => caughtUp,
    async close() {
      closed = true;
      watching?.stop();
      if (gathering !== null) options.timers.clearTimeout(gathering);
      if (retrying !== null) options.timers.clearTimeout(retrying);
      gathering = retrying = null;
      await Promise.resolve();
    },
  };
}

/** The order a hub entry holds, or null (logged) when its key or value is not one. */
function readBody(entry: BucketEntry, log: Logger): Order | null {
  const id = orderIdOfKey(entry.key);
  let value: unknown;
  try {
    value = entry.json();
  } catch {
    value = undefined;
  }
  const parsed = OrderSchema.safeParse(value);
  if (!parsed.success || id === null || parsed.data.id !== id) {
    log.warn('an order body in the hub is not a believable order; skipped', {
      key: entry.key,
      revision: entry.revision,
      problem: parsed.success ? 'its key names another order' : parsed.error.issues[0]?.message,
    });
    return null;
  }
  return parsed.data;
}
