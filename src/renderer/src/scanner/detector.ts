/**
 * Tells a barcode scanner from a person at the keyboard. A scanner "types" a whole code in a
 * burst, a few milliseconds between keys, and ends it with Enter; a person, even a fast one,
 * leaves tens of milliseconds between most keys and rarely types a long run without a slower
 * gap. Pure: the caller passes every key with its time, so tests drive the clock.
 */

export interface ScanDetectorOptions {
  /** Longest gap between two keys of one scan (ms). Scanners send keys 1-10 ms apart. */
  readonly maxGapMs: number;
  /** Shortest code accepted (characters, after the prefix). Short bursts are human key chords. */
  readonly minLength: number;
  /** Characters the scanner puts before every code (configured in settings); '' for none. */
  readonly prefix: string;
  /** The same code again within this window (ms) is a repeat, not a new scan. */
  readonly repeatWindowMs: number;
}

export const DEFAULT_SCAN_OPTIONS: ScanDetectorOptions = {
  maxGapMs: 45,
  minLength: 6,
  prefix: '',
  repeatWindowMs: 2_000,
};

/** What one key meant. `swallow` says the key completed a scan and must not reach the page. */
export type ScanVerdict =
  | { readonly kind: 'none'; readonly swallow: false }
  | { readonly kind: 'scan'; readonly code: string; readonly swallow: true }
  | { readonly kind: 'repeat'; readonly code: string; readonly swallow: true };

const NONE: ScanVerdict = { kind: 'none', swallow: false };

/** Keys a scanner may send around a character without breaking the burst. */
const MODIFIERS = new Set(['Shift', 'CapsLock']);

export interface ScanDetector {
  /** Feeds one keydown: `key` as in KeyboardEvent.key, `at` in ms on any monotonic clock. */
  key(key: string, at: number): ScanVerdict;
  /** Forgets a burst in progress (focus moved into a text field, window lost focus). */
  reset(): void;
}

/** Creates a detector with its own burst buffer and repeat memory. */
export function createScanDetector(options: Partial<ScanDetectorOptions> = {}): ScanDetector {
  const o: ScanDetectorOptions = { ...DEFAULT_SCAN_OPTIONS, ...options };
  let buffer = '';
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastCode = '';
  let lastCodeAt = Number.NEGATIVE_INFINITY;

  const reset = (): void => {
    buffer = '';
    lastAt = Number.NEGATIVE_INFINITY;
  };

  return {
    reset,
    key(key, at) {
      if (MODIFIERS.has(key)) return NONE;
      const gap = at - lastAt;
      if (key === 'Enter') {
        const burst = buffer;
        const inTime = gap <= o.maxGapMs;
        reset();
        if (!inTime || !burst.startsWith(o.prefix)) return NONE;
        const code = burst.slice(o.prefix.length).trim();
        if (code.length < o.minLength) return NONE;
        if (code === lastCode && at - lastCodeAt < o.repeatWindowMs) {
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
      buffer = gap <= o.maxGapMs ? buffer + key : key;
      lastAt = at;
      return NONE;
    },
  };
}
