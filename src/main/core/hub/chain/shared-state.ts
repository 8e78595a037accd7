/**
 * The chain link's state as every counter of the store reads it: the hub PC, which alone sees its
 * nats-server, puts it in a small hub bucket; a counter's Settings -> Chain and `doctor` read it
 * back. Only the words of ChainStatus travel (no credentials: the status has none).
 */
import { type ChainStatus, chainStatusSchema } from '../../../../shared/chain';
import { type NatsConnection, openBucket, openExistingBucket } from '../nats/buckets';
import { CHAIN_BUCKET, HUB_BUCKETS } from '../registry';

export { CHAIN_BUCKET };
const KEY = 'link';

/** Puts the hub PC's chain status in the hub. */
export async function putChainState(nc: NatsConnection, status: ChainStatus): Promise<void> {
  // Kept a week: a status nobody rewrote for that long is from a hub that no longer runs.
  const kv = await openBucket(nc, HUB_BUCKETS.chain);
  await kv.put(KEY, JSON.stringify(status));
}

/** The chain status the hub PC last put, or null (no hub PC has said anything: not in a chain, or never run). */
export async function readChainState(nc: NatsConnection): Promise<ChainStatus | null> {
  try {
    const kv = await openExistingBucket(nc, CHAIN_BUCKET);
    const entry = await kv.get(KEY);
    if (!entry || entry.operation !== 'PUT') return null;
    const parsed = chainStatusSchema().safeParse(JSON.parse(entry.string()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
