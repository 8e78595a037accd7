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
 * What the feed's `stagingPercentage` means for a terminal in `bucket`. No percentage at all is a
 * full rollout (electron-builder's definition), and 100 or more is everyone. Anything that is not a
 * number from 0 to 100 (`stop`, the letter O, `null`, `0%`, NaN) stops the rollout, said with the
 * value: electron-updater's own rule took those as "everyone", and a hand-edited feed meant to stop
 * a release installed it on every terminal. A quoted numeral ("10") is that number.
 */
export type RolloutVerdict =
  | { readonly inside: true }
  /** Held back at `percentage` (0 or less: stopped). */
  | { readonly inside: false; readonly percentage: number; readonly invalid?: undefined }
  /** Stopped because the feed's value is not a percentage; `invalid` is that value as written. */
  | { readonly inside: false; readonly percentage: 0; readonly invalid: string };

const NUMERAL = /^\s*-?\d+(\.\d+)?\s*$/;

/** The rollout decision for a terminal in `bucket` and the feed's raw `stagingPercentage`. */
export function rolloutVerdict(bucket: number, stagingPercentage: unknown): RolloutVerdict {
  if (stagingPercentage === undefined) return { inside: true };
  const pct = typeof stagingPercentage === 'number' ? stagingPercentage : typeof stagingPercentage === 'string' && NUMERAL.test(stagingPercentage) ? Number(stagingPercentage) : Number.NaN;
  if (Number.isNaN(pct)) return { inside: false, percentage: 0, invalid: shown(stagingPercentage) };
  if (pct >= 100) return { inside: true };
  if (pct <= 0) return { inside: false, percentage: pct };
  return bucket < Math.round(pct * (BUCKETS / 100)) ? { inside: true } : { inside: false, percentage: pct };
}

/** Whether a terminal in `bucket` takes a release with the feed's `stagingPercentage` (rolloutVerdict). */
export function isWithinRollout(bucket: number, stagingPercentage: unknown): boolean {
  return rolloutVerdict(bucket, stagingPercentage).inside;
}

/** A feed value as the manager can read it: short, one line, quoted when it is text. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text.replace(/\s+/g, ' ');
}
