import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../../../src/main/core/db';
import { TAP_READS_KEPT, TapReads } from '../../../../src/main/core/outbox/tap-reads';

const row = (id: string): OrderRow => ({ id, body: null, bodyUnreadable: false, syncedAt: null, addedAt: 0, needsRefresh: false, rawUnreadable: null });
const reads = (id: string) => ({ row: row(id), entries: [] });

describe("what a tap keeps of its order's reads for the next tap (issue 41)", () => {
  it('keeps the orders of a burst, not every order tapped while nothing else wrote (a day offline)', () => {
    const kept = new TapReads();
    // A busy day's taps with no other write between them: each tap's generation follows the last.
    for (let n = 0; n < 1_500; n++) kept.committed(`g${n}`, `g${n + 1}`, `ORD-${n}`, reads(`ORD-${n}`));
    expect(kept.size).toBe(TAP_READS_KEPT);
    expect(TAP_READS_KEPT).toBeLessThanOrEqual(100);
    // The newest orders are the ones kept; an older one is read from the file again.
    expect(kept.get('ORD-1499', 'g1500')?.row.id).toBe('ORD-1499');
    expect(kept.get(`ORD-${1_500 - TAP_READS_KEPT}`, 'g1500')?.row.id).toBe(`ORD-${1_500 - TAP_READS_KEPT}`);
    expect(kept.get(`ORD-${1_499 - TAP_READS_KEPT}`, 'g1500')).toBeNull();
    // Another write moved the file on: nothing is kept.
    expect(kept.get('ORD-1499', 'g1500-elsewhere')).toBeNull();
    expect(kept.size).toBe(0);
  });

  it('keeps a tapped-again order as the newest', () => {
    const kept = new TapReads();
    for (let n = 0; n < TAP_READS_KEPT; n++) kept.committed(`g${n}`, `g${n + 1}`, `ORD-${n}`, reads(`ORD-${n}`));
    // ORD-0 tapped again, then one more order: the one let go is ORD-1, the oldest untouched.
    kept.committed(`g${TAP_READS_KEPT}`, 'h1', 'ORD-0', reads('ORD-0'));
    kept.committed('h1', 'h2', 'ORD-new', reads('ORD-new'));
    expect(kept.get('ORD-0', 'h2')).not.toBeNull();
    expect(kept.get('ORD-1', 'h2')).toBeNull();
  });
});
