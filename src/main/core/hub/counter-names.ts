/**
 * Counters' names, as the hub hands them out: "Counter 1" for the hub PC, then the next free number
 * for each counter that joins without a name of its own. Each name is a KV key created with
 * `create`, so two counters joining at once can never get the same name.
 */
import { CounterNameSchema } from '../../../shared/hub';
import { type Bucket, CLIENT_TIMEOUT_MS, type NatsConnection, openBucket } from './nats/buckets';
import { COUNTER_NAMES_BUCKET, HUB_BUCKETS } from './registry';

/** The hub's bucket of names: `name.<hex of the name>` -> counter id, `id.<counter id>` -> name. */
export { COUNTER_NAMES_BUCKET };

export type NameClaim = { readonly ok: true; readonly counterName: string } | { readonly ok: false; readonly message: string };

const nameKey = (name: string): string => `name.${Buffer.from(name.trim().toLowerCase(), 'utf8').toString('hex')}`;
const idKey = (counterId: string): string => `id.${counterId}`;

async function bucket(nc: NatsConnection): Promise<Bucket> {
  return openBucket(nc, HUB_BUCKETS.counterNames, CLIENT_TIMEOUT_MS);
}

async function valueOf(kv: Bucket, key: string): Promise<string | null> {
  const entry = await kv.get(key);
  return entry && entry.operation === 'PUT' ? entry.string() : null;
}

/** Takes `wanted` for this counter, or (null) the name it already has, else the lowest free "Counter N". */
export async function claimCounterName(nc: NatsConnection, counterId: string, wanted: string | null): Promise<NameClaim> {
  const kv = await bucket(nc);
  const take = async (name: string): Promise<'taken' | 'ours' | 'other'> => {
    try {
      await kv.create(nameKey(name), counterId);
      return 'taken';
    } catch {
      return (await valueOf(kv, nameKey(name))) === counterId ? 'ours' : 'other';
    }
  };
  const settle = async (name: string): Promise<NameClaim> => {
    const before = await valueOf(kv, idKey(counterId));
    if (before !== null && before.toLowerCase() !== name.toLowerCase()) await kv.delete(nameKey(before));
    await kv.put(idKey(counterId), name);
    return { ok: true, counterName: name };
  };
  if (wanted !== null) {
    const name = CounterNameSchema.safeParse(wanted);
    if (!name.success) return { ok: false, message: 'A counter name is 1 to 40 characters.' };
    if ((await take(name.data)) === 'other') return { ok: false, message: `Another counter of this store is already called "${name.data}"; choose another name.` };
    return settle(name.data);
  }
  const current = await valueOf(kv, idKey(counterId));
  if (current !== null) return { ok: true, counterName: current };
  for (let n = 1; n <= 99; n++) {
    const outcome = await take(`Counter ${n}`);
    if (outcome !== 'other') return settle(`Counter ${n}`);
  }
  return { ok: false, message: 'The hub has no free counter name left; give this counter a name.' };
}

/** Frees this counter's name (it leaves the hub). */
export async function forgetCounterName(nc: NatsConnection, counterId: string): Promise<void> {
  const kv = await bucket(nc);
  const name = await valueOf(kv, idKey(counterId));
  if (name !== null) await kv.delete(nameKey(name));
  await kv.delete(idKey(counterId));
}
