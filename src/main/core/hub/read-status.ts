/**
 * The hub's word on who takes in orders and which counters are there, read once without taking
 * part (no presence written, no lease tried): what `packdesk hub status` prints from a shell while
 * the app or `packdesk run` does the work. Ages are judged by the hub's own stamps against this
 * PC's clock, which is close enough for "heard from within 15 s".
 */
import { counterPresenceSchema, type CounterView, type HubStatus } from '../../../shared/hub';
import { DEFAULT_LEASE_MS, LEASE_BUCKET, LEASE_KEY, LeaseValueSchema } from './lease';
import { type Bucket, bucketKeys, CLIENT_TIMEOUT_MS, isMissingBucket, type NatsConnection, openExistingBucket } from './nats/buckets';
import { PRESENCE_BUCKET, PRESENCE_WINDOW_MS } from './presence';

/** What `hub status` reads from the hub besides the connection itself: the lease holder and the counters' presence (readHubStatus, or a test's seam). */
export type HubStatusReader = (nc: NatsConnection, self: { readonly counterId: string; readonly counterName: string }) => Promise<Pick<HubStatus, 'intakeHolder' | 'counters'>>;

/** The lease holder and the counters as the hub holds them now. */
export async function readHubStatus(
  nc: NatsConnection,
  self: { readonly counterId: string },
  now: () => number = Date.now,
): Promise<Pick<HubStatus, 'intakeHolder' | 'counters'>> {
  let intakeHolder: HubStatus['intakeHolder'] = null;
  // A bucket no counter has made yet (no session ran on this hub) holds nothing: not an error.
  const lease = await openExistingBucket(nc, LEASE_BUCKET, CLIENT_TIMEOUT_MS)
    .then((kv) => kv.get(LEASE_KEY))
    .catch(() => null);
  if (lease && lease.operation === 'PUT' && now() - lease.created.getTime() < DEFAULT_LEASE_MS * 2) {
    const value = LeaseValueSchema.safeParse(lease.json());
    if (value.success) intakeHolder = { counterId: value.data.counterId, counterName: value.data.counterName };
  }
  let counters: CounterView[] = [];
  try {
    const presence = await openExistingBucket(nc, PRESENCE_BUCKET, CLIENT_TIMEOUT_MS);
    counters = await listPresence(presence, await bucketKeys(nc, PRESENCE_BUCKET, CLIENT_TIMEOUT_MS), self, intakeHolder, now);
  } catch (error) {
    if (!isMissingBucket(error)) throw error;
  }
  counters.sort((a, b) => Number(b.isThisCounter) - Number(a.isThisCounter) || a.counterName.localeCompare(b.counterName));
  return { intakeHolder, counters };
}

/**
 * Each counter named in `keys` (the bucket's keys, from `bucketKeys`), once, read at its newest
 * presence; what is not a counter's presence, or was deleted, is left out. A name given twice is
 * listed once (the client's own listing once gave "Counter 2" twice under load).
 */
export async function listPresence(
  presence: Pick<Bucket, 'get'>,
  keys: Iterable<string>,
  self: { readonly counterId: string },
  intakeHolder: HubStatus['intakeHolder'],
  now: () => number,
): Promise<CounterView[]> {
  const counters: CounterView[] = [];
  const listed = new Set<string>();
  for (const key of keys) {
    if (listed.has(key)) continue;
    listed.add(key);
    const entry = await presence.get(key).catch(() => null);
    if (!entry || entry.operation !== 'PUT') continue;
    const parsed = counterPresenceSchema().safeParse(entry.json());
    if (!parsed.success) continue;
    counters.push({
      ...parsed.data,
      present: now() - entry.created.getTime() < PRESENCE_WINDOW_MS,
      isThisCounter: parsed.data.counterId === self.counterId,
      holdsIntake: intakeHolder?.counterId === parsed.data.counterId,
    });
  }
  return counters;
}
