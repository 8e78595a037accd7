/**
 * Staged rollouts: the feed's `stagingPercentage` says what share of terminals get a release.
 * Each terminal's bucket comes from its stable terminal id, so it stays in (or out of) a rollout
 * across restarts and reinstalls of the same data folder, and one percentage step admits a
 * predictable slice of the fleet.
 */
import { createHash } from 'node:crypto';

/** Buckets per percent; 10 000 buckets give 0.01 % steps. */
const BUCKETS = 10_000;

/** The terminal's rollout bucket in [0, 10 000): same id, same bucket; ids spread uniformly. */
export function rolloutBucket(terminalId: string): number {
  // A salted hash, so the bucket is not guessable from (or correlated with) other uses of the id.
  const digest = createHash('sha256').update(`packdesk-rollout:${terminalId}`).digest();
  return digest.readUInt32BE(0) % BUCKETS;
}

/**
 * Whether a terminal in `bucket` takes a release with the feed's `stagingPercentage`.
 * No percentage (or one that is not a number) means a full rollout, as electron-builder defines it.
 */
export function isWithinRollout(bucket: number, stagingPercentage: unknown): boolean {
  if (stagingPercentage === undefined || stagingPercentage === null) return true;
  const pct = typeof stagingPercentage === 'number' ? stagingPercentage : Number.parseFloat(String(stagingPercentage));
  if (!Number.isFinite(pct)) return true;
  if (pct <= 0) return false;
  if (pct >= 100) return true;
  return bucket < Math.round(pct * (BUCKETS / 100));
}
