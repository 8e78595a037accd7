/**
 * The window's height, for what the first screen draws before it is laid out (the queue's rows).
 * Where there is no window (the host drawing the first screen into the page's HTML, firstScreen/)
 * the tallest screen the terminal is made for: rows below a shorter window's edge are simply not
 * seen.
 */
export const TALLEST_SCREEN_PX = 1080;

export function windowHeight(): number {
  return typeof window === 'undefined' ? TALLEST_SCREEN_PX : window.innerHeight;
}
