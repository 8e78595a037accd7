/** The north messages the centre did not believe (belief.ts), counted and said: used by `fleet status` and the fleet page alike. */

/** Why a message was not believed. */
export type Refusal = 'not-sourced' | 'unreadable' | 'other-store' | 'version';

/** The words for each refusal, as `fleet status` says them. */
export const REFUSAL_WORDS: Readonly<Record<Refusal, string>> = {
  'not-sourced': 'not from a store’s own link',
  unreadable: 'unreadable',
  'other-store': 'speaking for another store',
  version: 'a version that is not a release number',
};

/** Refusals counted by why. */
export type RefusalCounts = Readonly<Partial<Record<Refusal, number>>>;

/** Adds one refusal to a count. */
export function countRefusal(counts: Partial<Record<Refusal, number>>, why: Refusal): void {
  counts[why] = (counts[why] ?? 0) + 1;
}

/** The refusals in words: "3 (2 speaking for another store, 1 unreadable)", or null when none. */
export function refusalLine(counts: RefusalCounts): string | null {
  const entries = (Object.keys(REFUSAL_WORDS) as Refusal[]).map((why) => [why, counts[why] ?? 0] as const).filter(([, n]) => n > 0);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  return `${total} (${entries.map(([why, n]) => `${n} ${REFUSAL_WORDS[why]}`).join(', ')})`;
}
