/** The queue's row geometry: how tall a row is and how many the first screen draws (no component here, so the intents may read it). */

// 80 px: two lines of text and a 56 px pill, and six rows in the queue on a 768 px tall screen.
export const ROW_HEIGHT = 80;
/** Rows the list draws beyond those in view, on either side (smooth keyboard paging and flings). */
export const QUEUE_OVERSCAN = 8;

/** How many rows the queue's first screen draws in a window `height` px tall (at most; the list is shorter). */
export function firstScreenRows(height: number): number {
  return Math.max(1, Math.ceil(height / ROW_HEIGHT)) + QUEUE_OVERSCAN;
}
