/**
 * Tells a barcode scanner from a person at the keyboard. A scanner "types" a whole code in a
 * burst, a few milliseconds between keys, and ends it with Enter. A person, even a very fast
 * one, averages 100 ms or more per key and cannot keep a run of six or more keys at the
 * scanner's pace. So a scan is: at least `minLength` characters with an average gap of at most
 * `maxMeanGapMs`, then Enter within `maxEnterGapMs` of the last. One slow gap (a busy machine
 * delivering keys late) is tolerated up to `maxGapMs`; anything slower starts a new burst.
 *
 * An Enter after a scanner's keys is never a person's: a burst at the scanner's pace that is no
 * code (too short, without the prefix) still takes its Enter (`unread`), so it cannot press the
 * focused button. Before, an Enter a busy machine held back 300 ms pressed Start packing, and the
 * scan was lost. Pure: the caller passes every key with its time, so tests drive the clock.
 */

import { REPEAT_WINDOW_MS } from './repeat';

export interface ScanDetectorOptions {
  /** Longest single gap inside one scan (ms); a slower key starts a new burst. */
  readonly maxGapMs: number;
  /** Longest average gap of a scan (ms). Scanners send keys 1-10 ms apart; people 100+ ms. */
  readonly maxMeanGapMs: number;
  /** Shortest code accepted (characters, after the prefix). Short bursts are human key chords. */
  readonly minLength: number;
  /**
   * Longest wait from a scanner's last character to its Enter (ms). A busy machine can hold the
   * Enter back several hundred ms; a person's Enter after that is their own.
   */
  readonly maxEnterGapMs: number;
  /** Characters the scanner puts before every code (configured in settings); '' for none. */
  readonly prefix: string;
  /**
   * The same code again within this window (ms) is a repeat, not a new scan. A function decides
   * per code, when it is read (scan to pack takes identical units in quick succession: repeat.ts).
   */
  readonly repeatWindowMs: number | ((code: string) => number);
}

export const DEFAULT_SCAN_OPTIONS: ScanDetectorOptions = {
  // Generous: the average rule is what keeps people out; this only splits unrelated bursts. Key
  // events can arrive in clumps with a 150 ms hole when the machine is busy (seen in CI).
  maxGapMs: 250,
  maxMeanGapMs: 35,
  minLength: 6,
  maxEnterGapMs: 1_000,
  prefix: '',
  repeatWindowMs: REPEAT_WINDOW_MS,
};

/**
 * What one key meant. `swallow` says the key ended a scanner's burst and must not reach the page:
 * a scan, a repeat of one, or (`unread`) a burst at the scanner's pace that is no code.
 */
export type ScanVerdict =
  | { readonly kind: 'none'; readonly swallow: false }
  | { readonly kind: 'scan'; readonly code: string; readonly swallow: true }
  | { readonly kind: 'repeat'; readonly code: string; readonly swallow: true }
  | { readonly kind: 'unread'; readonly swallow: true };

const UNREAD: ScanVerdict = { kind: 'unread', swallow: true };

/**
 * Fewest characters at the scanner's pace whose Enter is the scanner's, code or not: a person's two
 * or three quick keys (a bigram) are theirs, four at under 35 ms a key are not.
 */
const SCANNER_RUN = 4;

const NONE: ScanVerdict = { kind: 'none', swallow: false };

/** Keys a scanner may send around a character without breaking the burst. */
const MODIFIERS = new Set(['Shift', 'CapsLock']);

export interface ScanDetector {
  /** Feeds one keydown: `key` as in KeyboardEvent.key, `at` in ms on any monotonic clock. */
  key(key: string, at: number): ScanVerdict;
  /** Forgets a burst in progress (window lost focus). */
  reset(): void;
  /** How many characters the burst in progress holds so far (1 right after a burst starts). */
  pending(): number;
}

/** Creates a detector with its own burst buffer and repeat memory. */
export function createScanDetector(options: Partial<ScanDetectorOptions> = {}): ScanDetector {
  const o: ScanDetectorOptions = { ...DEFAULT_SCAN_OPTIONS, ...options };
  let buffer = '';
  let firstAt = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastCode = '';
  let lastCodeAt = Number.NEGATIVE_INFINITY;

  const reset = (): void => {
    buffer = '';
    lastAt = Number.NEGATIVE_INFINITY;
  };

  return {
    reset,
    pending: () => buffer.length,
    key(key, at) {
      if (MODIFIERS.has(key)) return NONE;
      const gap = at - lastAt;
      if (key === 'Enter') {
        const burst = buffer;
        // n characters: n - 1 gaps from the first to the last; the Enter may come later (maxEnterGapMs).
        const scannerPace = burst.length >= SCANNER_RUN && (lastAt - firstAt) / (burst.length - 1) <= o.maxMeanGapMs;
        reset();
        if (!scannerPace || gap > o.maxEnterGapMs) return NONE;
        if (!burst.startsWith(o.prefix)) return UNREAD;
        const code = burst.slice(o.prefix.length).trim();
        if (code.length < o.minLength) return UNREAD;
        const window = typeof o.repeatWindowMs === 'function' ? o.repeatWindowMs(code) : o.repeatWindowMs;
        if (code === lastCode && at - lastCodeAt < window) {
          // A held trigger or a second pass over the same label: one scan, not two.
          lastCodeAt = at;
          return { kind: 'repeat', code, swallow: true };
        }
        lastCode = code;
        lastCodeAt = at;
        return { kind: 'scan', code, swallow: true };
      }
      if (key.length !== 1) {
        // Backspace, arrows, Tab...: a person is editing; a scanner never sends these.
        reset();
        return NONE;
      }
      // A slow key starts a new burst: whatever came before was typed by a person.
      if (gap <= o.maxGapMs) buffer += key;
      else {
        buffer = key;
        firstAt = at;
      }
      lastAt = at;
      return NONE;
    },
  };
}
