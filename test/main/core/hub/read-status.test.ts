/**
 * `packdesk hub status` lists each counter once, and every counter the hub holds. The client's own
 * listing of keys (a live consumer) once named "Counter 2" twice under load, and once left
 * "Counter 1" out while it wrote its presence again; the keys now come from the hub's count of the
 * bucket's subjects (a real hub's case is in presence.test.ts). These hand the listing its keys.
 */
import { describe, expect, it } from 'vitest';
import type { CounterPresence } from '../../../../src/shared/hub';
import { listPresence } from '../../../../src/main/core/hub/read-status';
import type { Bucket, BucketEntry } from '../../../../src/main/core/hub/nats/buckets';

const NOW = Date.parse('2026-11-29T10:00:00Z');

function presenceOf(n: number): CounterPresence {
  return {
    counterId: `counter-${n}`,
    counterName: `Counter ${n}`,
    version: '0.1.0',
    at: NOW,
    tapsWaiting: 0,
    oldestWaitingAt: null,
    lastSentAt: null,
    clockDifferenceMs: 0,
    online: true,
  };
}

/** A bucket holding `entries`, each written `ageMs` ago. */
function bucketOf(entries: Record<string, unknown>, ageMs = 1_000): Pick<Bucket, 'get'> {
  return {
    get: async (key: string) =>
      (key in entries
        ? { operation: 'PUT', created: new Date(NOW - ageMs), json: () => entries[key] }
        : null) as unknown as BucketEntry,
  };
}

describe('the counters a look from a shell lists', () => {
  it('names a counter once when its presence was written again while the keys were listed', async () => {
    const bucket = bucketOf({
      'counter-1': presenceOf(1),
      'counter-2': presenceOf(2),
      'counter-3': presenceOf(3),
    });
    const listed = await listPresence(bucket, ['counter-2', 'counter-1', 'counter-2', 'counter-3'], { counterId: 'counter-2' }, { counterId: 'counter-1', counterName: 'Counter 1' }, () => NOW);
    expect(listed.map((c) => [c.counterName, c.present, c.isThisCounter, c.holdsIntake])).toEqual([
      ['Counter 2', true, true, false],
      ['Counter 1', true, false, true],
      ['Counter 3', true, false, false],
    ]);
  });

  it('leaves out what is not a counter’s presence and says who has not been heard from lately', async () => {
    const bucket = bucketOf({ 'counter-1': presenceOf(1), junk: { counterId: 7 } }, 60_000);
    const listed = await listPresence(bucket, ['counter-1', 'junk', 'gone'], { counterId: 'counter-9' }, null, () => NOW);
    expect(listed.map((c) => [c.counterName, c.present])).toEqual([['Counter 1', false]]);
  });
});
