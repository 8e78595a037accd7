import { describe, expect, it } from 'vitest';
import { createScanDetector, type ScanDetector, type ScanVerdict } from '../../src/renderer/src/scanner/detector';
import { PACK_REPEAT_WINDOW_MS, REPEAT_WINDOW_MS, repeatWindowOf } from '../../src/renderer/src/scanner/repeat';

/** Feeds `text` then Enter, `gap` ms apart, starting at `start`; returns the Enter's verdict. */
function feed(d: ScanDetector, text: string, start: number, gap: number | number[]): ScanVerdict {
  let at = start;
  const gaps = Array.isArray(gap) ? gap : Array<number>(text.length + 1).fill(gap);
  [...text].forEach((ch, i) => {
    d.key(ch, at);
    at += gaps[i] ?? 0;
  });
  return d.key('Enter', at);
}

describe('scan detector', () => {
  it('takes a fast burst ending in Enter as a scan', () => {
    const d = createScanDetector();
    expect(feed(d, 'ORD-1000123', 1000, 5)).toEqual({ kind: 'scan', code: 'ORD-1000123', swallow: true });
  });

  it('never takes a person typing at a normal pace as a scan', () => {
    const d = createScanDetector();
    expect(feed(d, 'ORD-1000123', 1000, 120).kind).toBe('none');
  });

  it('never takes a very fast typist as a scan', () => {
    const d = createScanDetector();
    // 60 ms a key is over 150 words a minute, kept up for the whole code: still a person.
    expect(feed(d, 'ORD-1000123', 1000, 60).kind).toBe('none');
    // Fast bigrams (30 ms) with ordinary pauses between them.
    expect(feed(d, 'ORD-1000123', 5000, [30, 110, 30, 110, 30, 110, 30, 110, 30, 110, 30]).kind).toBe('none');
    // A fast typist's best burst: 45 ms a key.
    expect(feed(d, 'ORD-1000123', 9000, 45).kind).toBe('none');
  });

  it('tolerates one slow gap inside a scan, as a busy computer delivers keys in clumps', () => {
    const d = createScanDetector();
    expect(feed(d, 'ORD-1000123', 1000, [90, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5])).toMatchObject({ kind: 'scan', code: 'ORD-1000123' });
  });

  it('refuses short bursts: a key chord is not a barcode, and its Enter is the person\'s', () => {
    const d = createScanDetector();
    expect(feed(d, 'abc', 1000, 5)).toEqual({ kind: 'none', swallow: false });
  });

  it('takes the Enter of a scanner-paced burst that is no code, so it presses nothing', () => {
    const d = createScanDetector();
    // Too short for a code, but four keys at 5 ms are a scanner's (a clump cut off the rest).
    expect(feed(d, 'A12B', 1000, 5)).toEqual({ kind: 'unread', swallow: true });
  });

  it('ends a scan with an Enter a busy machine held back, and leaves a later Enter to the person', () => {
    const d = createScanDetector();
    // The keys at the scanner's pace, the Enter 150 ms, 400 ms, 900 ms later: still the scan's.
    expect(feed(d, 'ORD-1000456', 5000, [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 150]).kind).toBe('scan');
    expect(feed(d, 'ORD-1000123', 1000, [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 400])).toMatchObject({ kind: 'scan', code: 'ORD-1000123', swallow: true });
    expect(feed(d, 'ORD-1000789', 9000, [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 900]).kind).toBe('scan');
    // Over a second after the last key: a person pressed Enter.
    expect(feed(d, 'ORD-1000999', 20_000, [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1_200])).toEqual({ kind: 'none', swallow: false });
  });

  it('keeps only the last burst when a person typed before the scan', () => {
    const d = createScanDetector();
    d.key('x', 0);
    d.key('y', 300);
    expect(feed(d, 'ORD-1000123', 1000, 5)).toMatchObject({ kind: 'scan', code: 'ORD-1000123' });
  });

  it('ignores Shift between characters, as scanners send it for capitals', () => {
    const d = createScanDetector();
    let at = 0;
    for (const ch of 'ORD-42424') {
      d.key('Shift', at);
      d.key(ch, at + 1);
      at += 4;
    }
    expect(d.key('Enter', at)).toMatchObject({ kind: 'scan', code: 'ORD-42424' });
  });

  it('forgets the burst on an editing key', () => {
    const d = createScanDetector();
    d.key('O', 0);
    d.key('R', 5);
    d.key('Backspace', 10);
    expect(d.key('Enter', 12).kind).toBe('none');
  });

  it('calls the same code again within 2 s a repeat, and a new scan after', () => {
    const d = createScanDetector();
    expect(feed(d, 'ORD-1000123', 0, 5).kind).toBe('scan');
    expect(feed(d, 'ORD-1000123', 1500, 5)).toMatchObject({ kind: 'repeat', swallow: true });
    // The window runs from the last sighting, so a label held under the scanner stays one scan.
    expect(feed(d, 'ORD-1000123', 3000, 5).kind).toBe('repeat');
    expect(feed(d, 'ORD-1000123', 6000, 5).kind).toBe('scan');
  });

  it('counts identical units scanned quickly onto the packing checklist, each deliberate scan once', () => {
    // As ScannerListener builds it: the window is chosen per code when it is read.
    let packing = true;
    const d = createScanDetector({ repeatWindowMs: () => repeatWindowOf(packing) });
    expect(feed(d, '8901234567890', 0, 5).kind).toBe('scan');
    // The scanner firing twice for one read: still one unit.
    expect(feed(d, '8901234567890', 150, 3).kind).toBe('repeat');
    // The next unit, picked up and read half a second later: a second unit, and a third.
    expect(feed(d, '8901234567890', 700, 5).kind).toBe('scan');
    expect(feed(d, '8901234567890', 1_200, 5).kind).toBe('scan');
    // Off the checklist the same code within 2 s stays one scan (an invoice offered once).
    packing = false;
    expect(feed(d, '8901234567890', 1_800, 5).kind).toBe('repeat');
    expect(repeatWindowOf(false)).toBe(REPEAT_WINDOW_MS);
    expect(PACK_REPEAT_WINDOW_MS).toBeLessThan(500);
  });

  it('lets a different code through at once', () => {
    const d = createScanDetector();
    expect(feed(d, 'ORD-1000123', 0, 5).kind).toBe('scan');
    expect(feed(d, 'ORD-1000456', 200, 5)).toMatchObject({ kind: 'scan', code: 'ORD-1000456' });
  });

  it('requires and strips a configured prefix', () => {
    const d = createScanDetector({ prefix: '~' });
    expect(feed(d, '~ORD-1000123', 0, 5)).toMatchObject({ kind: 'scan', code: 'ORD-1000123' });
    // Without it, at a scanner's pace: no code, and its Enter presses nothing.
    expect(feed(d, 'ORD-1000999', 5000, 5)).toEqual({ kind: 'unread', swallow: true });
    // A person typing without it: their Enter.
    expect(feed(d, 'ORD-1000999', 9000, 120).kind).toBe('none');
  });

  it('does not swallow a plain Enter, so buttons and forms still work', () => {
    const d = createScanDetector();
    expect(d.key('Enter', 0)).toEqual({ kind: 'none', swallow: false });
  });

  it('reset drops a burst in progress', () => {
    const d = createScanDetector();
    d.key('O', 0);
    d.key('R', 3);
    d.reset();
    expect(d.key('Enter', 6).kind).toBe('none');
  });

  it('says how long the burst in progress is, so a field can be put back as it was before the burst', () => {
    const d = createScanDetector();
    expect(d.pending()).toBe(0);
    d.key('I', 0);
    expect(d.pending()).toBe(1);
    d.key('N', 5);
    expect(d.pending()).toBe(2);
    // A slow key starts a new burst: back to one.
    d.key('V', 600);
    expect(d.pending()).toBe(1);
    d.key('Enter', 605);
    expect(d.pending()).toBe(0);
  });

  it('takes the same code again within 2 s as a repeat, and as a new scan after', () => {
    const d = createScanDetector();
    expect(feed(d, 'INV5555500001', 0, 5).kind).toBe('scan');
    expect(feed(d, 'INV5555500001', 300, 5).kind).toBe('repeat');
    expect(feed(d, 'INV5555500001', 2_700, 5).kind).toBe('scan');
  });
});
