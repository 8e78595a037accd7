/**
 * The new-order alert: a rising three-note chime made with WebAudio (no sound file ships), louder
 * and longer than the tap blips so it carries across a shop floor.
 */
import { tone } from './sound';

/** Plays the chime once at `volume` (0.2 … 1 of full loudness). */
export function playNewOrderAlert(volume: number): void {
  const level = 0.35 * Math.min(1, Math.max(0.2, volume));
  tone(784, 160, 'triangle', level);
  setTimeout(() => tone(988, 160, 'triangle', level), 180);
  setTimeout(() => tone(1319, 260, 'triangle', level), 360);
}

/**
 * The alarm of an order cancelled or changed elsewhere: a harsh falling two-tone, three times, unlike
 * the rising new-order chime, at the same loudness setting (never below a fifth of full).
 */
export function playOrderAlarm(volume: number): void {
  const level = 0.45 * Math.min(1, Math.max(0.2, volume));
  for (let i = 0; i < 3; i++) {
    setTimeout(() => tone(932, 220, 'square', level), i * 500);
    setTimeout(() => tone(622, 220, 'square', level), i * 500 + 240);
  }
}
